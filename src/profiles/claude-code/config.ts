/**
 * Claude Code's tool-search settings: `ENABLE_TOOL_SEARCH` (on, off, `auto:N`), `alwaysLoad`, the
 * 10,000-tool ceiling and `max_results` (official docs, `code.claude.com/docs/en/agent-sdk/tool-search`),
 * resolved and checked once, and Claude Code's exceptions to the shared deferral split.
 */
import type { RoleMap } from '../../catalog/roles.ts';
import type { DeferralExceptions } from '../deferral.ts';
import { DEFAULT_CONTEXT_WINDOW, type ProfileOptions } from '../types.ts';

/** `ENABLE_TOOL_SEARCH`: on, off, or `auto:N` (on iff deferrable tokens ≥ N% of the window). */
export type ToolSearchMode = 'on' | 'off' | { auto: number };

/** The pinned values, their sources in {@link ClaudeCodeProfile.describe}. */
export const CLAUDE_CODE_DEFAULTS = Object.freeze({
  /** unset `ENABLE_TOOL_SEARCH` = on (official docs) */
  toolSearch: 'on' as ToolSearchMode,
  /** `auto` without N (official docs) */
  autoPercent: 10,
  /** `max_results` default (official docs: "up to five") */
  maxResults: 5,
  /** tools per request (official docs) */
  ceiling: 10_000,
  /** tool descriptions and server instructions are cut at 2 KB each (official docs); UTF-8 bytes here */
  cutBytes: 2048,
});

export interface ClaudeCodeOptions {
  /** `ENABLE_TOOL_SEARCH`. Default `'on'`. */
  toolSearch?: ToolSearchMode;
  /** Namespaces or tool ids that always load (server `alwaysLoad` / `_meta["anthropic/alwaysLoad"]`). Default none. */
  alwaysLoad?: readonly string[];
  /** Deferred definitions one request may carry. Default 10,000. */
  ceiling?: number;
  /** `max_results` default, the profile's `searchLimit`. Default 5. */
  maxResults?: number;
}

/** The options with their defaults, checked. */
export interface ResolvedClaudeCodeOptions {
  toolSearch: ToolSearchMode;
  alwaysLoad: string[];
  ceiling: number;
  maxResults: number;
  contextWindow: number;
  roles: RoleMap | undefined;
}

/** Defaults, then `options`; a `RangeError` on a malformed one. */
export function resolveClaudeCodeOptions(options: ProfileOptions & ClaudeCodeOptions): ResolvedClaudeCodeOptions {
  const mode = options.toolSearch ?? CLAUDE_CODE_DEFAULTS.toolSearch;
  if (mode !== 'on' && mode !== 'off') {
    const n = (mode as { auto?: unknown })?.auto;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 100)
      throw new RangeError(`claude-code toolSearch must be 'on', 'off' or {auto: N} with 0 ≤ N ≤ 100 (got ${JSON.stringify(mode)})`);
  }
  const ceiling = options.ceiling ?? CLAUDE_CODE_DEFAULTS.ceiling;
  if (!(Number.isInteger(ceiling) && ceiling >= 1)) throw new RangeError(`claude-code ceiling must be an integer ≥ 1 (got ${ceiling})`);
  const maxResults = options.maxResults ?? CLAUDE_CODE_DEFAULTS.maxResults;
  if (!(Number.isInteger(maxResults) && maxResults >= 1)) throw new RangeError(`claude-code maxResults must be an integer ≥ 1 (got ${maxResults})`);
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  if (!(Number.isFinite(contextWindow) && contextWindow > 0)) throw new RangeError(`contextWindow must be a positive number (got ${contextWindow})`);
  return {
    toolSearch: typeof mode === 'string' ? mode : { auto: mode.auto },
    alwaysLoad: [...(options.alwaysLoad ?? [])],
    ceiling,
    maxResults,
    contextWindow,
    roles: options.roles,
  };
}

/** Claude Code's exceptions to the shared deferral split: the `alwaysLoad` namespaces and tool ids stay eager. */
export function claudeCodeDeferral(alwaysLoad: readonly string[]): DeferralExceptions {
  return { alwaysLoad: new Set(alwaysLoad) };
}
