/**
 * The one table of named profiles (strategies of real harnesses and of the seed article). `backpack
 * list`, the docs table and the shared profile contract test iterate it. Profile names never
 * collide with retriever names: results, details files and report columns are keyed by name.
 */
import { InputError } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import { retrieverNames } from '../retrievers/registry.ts';
import { createDeepSeekNative, DeepSeekCodeProfile, DeepSeekPreselectProfile } from './deepseek.ts';
import { createClaudeCodeProfile } from './claude-code/index.ts';
import { createCodexProfile } from './codex/index.ts';
import { DeferredProfile } from './deferred.ts';
import { createHermesProfile } from './hermes/index.ts';
import { createGatedStickyDeferred, createNamespaceFiltered, createNamespaceRouting, createRoutedDeferred, createSemanticRetrieval, RoleGatingProfile } from './seed.ts';
import { StaticProfile } from './static.ts';
import type { Profile, ProfileFactory, ProfileOptions } from './types.ts';

export const PROFILES = {
  static: {
    description: 'every tool eager, full definitions every turn, no search: the baseline (visible = 1; no ranking metrics: choosing is left to the model)',
    create: (name: string) => new StaticProfile(name),
  },
  deepseek: {
    description: 'DeepSeek Harness, native tools: everything eager (no tool search; the Anthropic-compatible API ignores anthropic-beta)',
    create: (name: string) => createDeepSeekNative(name, 'openai'),
  },
  'deepseek-code': {
    description: 'DeepSeek Harness code mode: one run_code tool and a generated TypeScript SDK of every tool the caller may use in the prompt (no discovery primitive: O(N) in the catalog); one script runs the tools',
    create: (name: string) => new DeepSeekCodeProfile(name),
  },
  'deepseek-code-preselect': {
    description: "deepseek-code over a preselected set: Backpack's bm25 top 10 for the request as the SDK (the preselection is Backpack's, not DeepSeek's: DSH code mode has no search, an upstream preselection is unknown)",
    create: (name: string) => new DeepSeekPreselectProfile(name),
  },
  codex: {
    description:
      'OpenAI Codex tool_search: MCP/plugin tools deferred at ≥ 100 (core direct); BM25 k1 1.2 b 0.75 over the MCP search text (fq name and name, each also with underscores as spaces, server, title, description, instructions, top-level params) with UAX#29 words, NLTK stop words, Porter2; 8 results with schemas; 4 KiB <tools> namespace fragment (250 chars each, round-robin)',
    create: (name: string, options?: ProfileOptions) => createCodexProfile(name, options),
  },
  'claude-code': {
    description:
      'Claude Code ToolSearch: tool search on (default), core eager, MCP/plugin names advertised, server instructions ≤ 2 KB; keyword scoring (name parts 12/6, description 2; reverse-engineered), 5 results as tool_reference; deferred definitions on the wire (defer_loading); > 10,000 deferred tools: one admitted set per caller (role, then whole namespaces), advertised, searched and sent',
    create: (name: string, options?: ProfileOptions) => createClaudeCodeProfile(name, options),
  },
  'claude-code-auto': {
    description: 'claude-code with ENABLE_TOOL_SEARCH=auto:10: search only when deferrable definitions reach 10% of the window, else everything eager',
    create: (name: string, options?: ProfileOptions) => createClaudeCodeProfile(name, { ...options, toolSearch: { auto: 10 } }),
  },
  hermes: {
    description:
      'Hermes Agent bridge: core eager; MCP/plugin tools behind tool_search / tool_describe / tool_call; BM25 k1 1.5 over split name, source, description, params, [A-Za-z0-9]+ + Porter2, rarest-token gate, 50% coverage floor, exact name; 5 results; listing ladder under min(5% window, 4,000 tokens); query: keywords (the model writes the tool_search query); no retry',
    create: (name: string, options?: ProfileOptions) => createHermesProfile(name, options),
  },
  'hermes-raw': {
    description: 'hermes with the raw request as the tool_search query (query: raw), no retry: shows the rarest-token gate on conversational requests',
    create: (name: string, options?: ProfileOptions) => createHermesProfile(name, { ...options, queryStyle: 'raw', retryKnownWords: false }),
  },
  'hermes-retry': {
    description:
      'hermes-raw plus an emulated model retry (not Hermes code): an empty result is searched again with the request words the catalog knows, minus stop words; that search counts as 2 model calls',
    create: (name: string, options?: ProfileOptions) => createHermesProfile(name, { ...options, queryStyle: 'raw', retryKnownWords: true }),
  },
  deferred: {
    description: "the seed's deferred schemas: pinned tools in full, a one-line catalog of the rest, search_tools (bm25, 5) and load_tool_schema; not found = not permitted",
    create: (name: string) => new DeferredProfile(name),
  },
  'role-gating': {
    description: "the seed's role / context gating: every tool the caller's role sees eager (static within a phase), no search",
    create: (name: string, options?: ProfileOptions) => new RoleGatingProfile(name, options?.roles),
  },
  'semantic-retrieval': {
    usesModel: true,
    description: "the seed's semantic retrieval: embed's 8 best tools above a floor (default 0.7219 cosine, calibrated on generated small-11 train) in full, sticky per task with re-retrieval below the floor, pinned tools always",
    create: (name: string, options?: ProfileOptions) => createSemanticRetrieval(name, options),
  },
  'namespace-routing': {
    description: "the seed's hierarchical namespace routing: namespaces advertised, the model opens the best one (1 call; namespace BM25) and all of its tools the caller may use expand in full",
    create: (name: string) => createNamespaceRouting(name),
  },
  'namespace-filtered': {
    description: 'harness-side namespace filter (the former namespace-routing): namespaces advertised, the namespace retriever\'s 5 best tools (top 3 namespaces) in full, no model call',
    create: (name: string) => createNamespaceFiltered(name),
  },
  'gated-sticky-deferred': {
    usesModel: true,
    description: "the seed's gate → retrieve → defer: tools of the caller's role only, embed top 8 above the floor, sticky per task, as deferred entries (name + summary) with load_tool_schema; pinned tools in full",
    create: (name: string, options?: ProfileOptions) => createGatedStickyDeferred(name, options),
  },
  'routed-deferred': {
    usesModel: true,
    description: "the seed's above-200-tools combination: role gate, the role's namespaces advertised, the model opens the best one (1 call), embed top 8 inside it above the floor as deferred entries with load_tool_schema; pinned tools in full",
    create: (name: string, options?: ProfileOptions) => createRoutedDeferred(name, options),
  },
} as const satisfies Record<string, ProfileFactory>;

export type ProfileName = keyof typeof PROFILES;

const extra = new Map<string, ProfileFactory>();

/** Add a profile at run time (plugins, tests). A name already taken by a profile or a retriever is an error. */
export function registerProfile(name: string, factory: ProfileFactory): void {
  if (Object.prototype.hasOwnProperty.call(PROFILES, name) || extra.has(name)) throw new Error(`profile "${name}" is already registered`);
  if (retrieverNames().includes(name)) throw new Error(`"${name}" is a retriever's name; profiles and retrievers share one namespace of names`);
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`profile name "${name}" must be lowercase letters, digits, dots and dashes`);
  extra.set(name, factory);
}

export function unregisterProfile(name: string): void {
  extra.delete(name);
}

export function profileEntries(): Array<[string, ProfileFactory]> {
  return [...Object.entries(PROFILES), ...extra.entries()];
}

/** Whether a registered profile embeds with the embedding model (`--model` applies to it). */
export function profileUsesModel(name: string): boolean {
  const factory = (PROFILES as Record<string, ProfileFactory>)[name] ?? extra.get(name);
  return factory?.usesModel === true;
}

export function profileNames(): string[] {
  return profileEntries().map(([n]) => n);
}

/** Create a profile by name; an unknown name is an `InputError` with a "did you mean". */
export function createProfile(name: string, options: ProfileOptions = {}): Profile {
  const factory = (PROFILES as Record<string, ProfileFactory>)[name] ?? extra.get(name);
  if (!factory) {
    const names = profileNames();
    const hint = retrieverNames().includes(name) ? ` ("${name}" is a retriever: give it with --retrievers)` : didYouMean(name, names);
    throw new InputError(`unknown profile "${name}"${hint}; profiles: ${names.join(', ')}`);
  }
  return factory.create(name, options);
}

/** Parse a comma-separated list of profile names, rejecting unknown and repeated ones. */
export function parseProfileList(list: string): string[] {
  const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!names.length) throw new InputError('no profile named (give --profiles static,…)');
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new InputError(`profile "${n}" is listed twice`);
    seen.add(n);
    if (!profileNames().includes(n)) createProfile(n);
  }
  return names;
}
