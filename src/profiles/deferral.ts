/**
 * The deferral split the tool-search harnesses share: the harness's own (core) tools stay eager,
 * MCP tools and plugin tools wait behind its search. Each harness states the rule its own way:
 *
 * - Codex (`openai/codex` `codex-rs/core/src/mcp_tool_exposure.rs` @143cb13f): MCP tools are
 *   deferred, the harness's tools are direct. A Codex plugin ships its tools as MCP servers, so
 *   plugin tools are MCP tools to it. No exception is modelled (explicitly enabled connector apps
 *   stay direct upstream; our catalogs have none).
 * - Claude Code (`code.claude.com/docs/en/agent-sdk/tool-search`): every MCP tool is deferrable
 *   unless marked `alwaysLoad` (a server's `"alwaysLoad": true`, v2.1.121+, or a tool's
 *   `_meta["anthropic/alwaysLoad"]`). Core built-ins always load. Plugin tools reach Claude Code
 *   through plugin MCP servers.
 * - Hermes Agent (`NousResearch/hermes-agent` `tools/tool_search.py` @016260a5,
 *   `is_deferrable_tool_name`): `mcp-*` toolsets and plugin toolsets are deferrable, except the
 *   session-gated GUI toolsets (`_DIRECT_SURFACE_TOOLSETS`). Core tools are never deferred. The
 *   curated `defer` list of Hermes's own core tools is not modelled: none of them is in our catalogs.
 *
 * {@link isDeferrable} is that one rule. Its {@link DeferralExceptions} are where the harnesses
 * truly differ. Whether the deferrable tools are deferred at all (Codex's 100-tool threshold,
 * Claude Code's `auto:N`, Hermes's `enabled`) is each profile's own activation rule.
 * (docs/harness-facts.md#deferral)
 */
import type { Tool } from '../catalog/types.ts';

/** The MCP or plugin tools a harness keeps eager although it defers the rest. */
export interface DeferralExceptions {
  /** Namespaces or tool ids that always load (Claude Code's `alwaysLoad`). */
  readonly alwaysLoad?: ReadonlySet<string>;
  /**
   * Plugin toolsets whose tools stay direct (Hermes's session-gated GUI toolsets). A plugin
   * tool's toolset is its plugin, or its namespace when it names no plugin.
   */
  readonly directPluginToolsets?: ReadonlySet<string>;
}

/** No exception: every MCP and plugin tool is deferrable (Codex). */
export const NO_EXCEPTIONS: DeferralExceptions = Object.freeze({});

/** Whether a harness with these exceptions defers the tool: not core, and not one of the exceptions. */
export function isDeferrable(tool: Tool, exceptions: DeferralExceptions = NO_EXCEPTIONS): boolean {
  if (tool.source === 'core') return false;
  const { alwaysLoad, directPluginToolsets } = exceptions;
  if (alwaysLoad !== undefined && (alwaysLoad.has(tool.namespace) || alwaysLoad.has(tool.id))) return false;
  if (directPluginToolsets !== undefined && tool.source === 'plugin' && directPluginToolsets.has(tool.plugin ?? tool.namespace)) return false;
  return true;
}

/** Positions (catalog order) of the tools {@link isDeferrable} defers. */
export function deferrablePositions(tools: readonly Tool[], exceptions: DeferralExceptions = NO_EXCEPTIONS): number[] {
  const out: number[] = [];
  for (let i = 0; i < tools.length; i++) if (isDeferrable(tools[i]!, exceptions)) out.push(i);
  return out;
}
