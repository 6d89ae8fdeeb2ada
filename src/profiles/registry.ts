/**
 * The one table of named profiles (strategies of real harnesses and of the seed article). `backpack
 * list`, the docs table and the shared profile contract test iterate it. Profile names never
 * collide with retriever names: results, details files and report columns are keyed by name.
 */
import { InputError, setting } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import { capabilitiesOf, retrieverCapabilities, retrieverNames } from '../retrievers/registry.ts';
import type { StrategyCapabilities } from '../retrievers/types.ts';
import { Registry } from '../util/registry.ts';
import { createDeepSeekNative, DeepSeekCodeProfile, DeepSeekPreselectProfile } from './deepseek/index.ts';
import { createClaudeCodeProfile } from './claude-code/index.ts';
import { createCodexProfile } from './codex/index.ts';
import {
  createGatedStickyDeferred,
  createNamespaceFiltered,
  createNamespaceRouting,
  createRoutedDeferred,
  createSemanticRetrieval,
  DeferredProfile,
  RoleGatingProfile,
  StaticProfile,
} from './seed/index.ts';
import { createHermesProfile } from './hermes/index.ts';
import type { Profile, ProfileFactory, ProfileOptions } from './types.ts';

export const PROFILES = {
  static: {
    costHint: 2,
    description: 'every tool eager, full definitions every turn, no search: the baseline (visible = 1; no ranking metrics: choosing is left to the model)',
    create: (name: string) => new StaticProfile(name),
  },
  deepseek: {
    costHint: 2,
    description: 'DeepSeek Harness, native tools: everything eager (no tool search; the Anthropic-compatible API ignores anthropic-beta)',
    create: (name: string) => createDeepSeekNative(name, 'openai'),
  },
  'deepseek-code': {
    description:
      'DeepSeek Harness code mode: one run_code tool and a generated TypeScript SDK of every tool the caller may use in the prompt (no discovery primitive: O(N) in the catalog); one script runs the tools',
    create: (name: string) => new DeepSeekCodeProfile(name),
  },
  'deepseek-code-preselect': {
    description:
      "deepseek-code over a preselected set: Backpack's bm25 top 10 for the request as the SDK (the preselection is Backpack's, not DeepSeek's: DSH code mode has no search, an upstream preselection is unknown)",
    create: (name: string) => new DeepSeekPreselectProfile(name),
  },
  codex: {
    costHint: 2,
    description:
      'OpenAI Codex tool_search: MCP/plugin tools deferred at ≥ 100 (core direct); BM25 k1 1.2 b 0.75 over the MCP search text (fq name and name, each also with underscores as spaces, server, title, description, instructions, top-level params) with UAX#29 words, NLTK stop words, Porter2; 8 results with schemas; 4 KiB <tools> namespace fragment (250 chars each, round-robin)',
    create: (name: string, options?: ProfileOptions) => createCodexProfile(name, options),
  },
  'claude-code': {
    costHint: 6,
    description:
      'Claude Code ToolSearch: tool search on (default), core eager, MCP/plugin names advertised, server instructions ≤ 2 KB; keyword scoring (name parts 12/6, description 2; reverse-engineered), 5 results as tool_reference; deferred definitions on the wire (defer_loading); > 10,000 deferred tools: one admitted set per caller (role, then whole namespaces), advertised, searched and sent',
    create: (name: string, options?: ProfileOptions) => createClaudeCodeProfile(name, options),
  },
  'claude-code-auto': {
    costHint: 6,
    description: 'claude-code with ENABLE_TOOL_SEARCH=auto:10: search only when deferrable definitions reach 10% of the window, else everything eager',
    create: (name: string, options?: ProfileOptions) => createClaudeCodeProfile(name, { ...options, toolSearch: { auto: 10 } }),
  },
  hermes: {
    costHint: 2,
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
    costHint: 2,
    description:
      "the seed's deferred schemas: pinned tools in full, a one-line catalog of the rest, search_tools (bm25, 5) and load_tool_schema; not found = not permitted",
    create: (name: string) => new DeferredProfile(name),
  },
  'role-gating': {
    description: "the seed's role / context gating: every tool the caller's role sees eager (static within a phase), no search",
    create: (name: string, options?: ProfileOptions) => new RoleGatingProfile(name, options?.roles),
  },
  'semantic-retrieval': {
    costHint: 5,
    usesModel: true,
    floorInDesign: true,
    description:
      "the seed's semantic retrieval: embed's 8 best tools above a floor (default 0.7028 cosine, calibrated on generated small-11 train) in full, sticky per task with re-retrieval below the floor, pinned tools always",
    create: (name: string, options?: ProfileOptions) => createSemanticRetrieval(name, options),
  },
  'namespace-routing': {
    costHint: 5,
    description:
      "the seed's hierarchical namespace routing: namespaces advertised, the model opens the best one (1 call; namespace BM25) and all of its tools the caller may use expand in full",
    create: (name: string) => createNamespaceRouting(name),
  },
  'namespace-filtered': {
    description:
      "harness-side namespace filter (the former namespace-routing): namespaces advertised, the namespace retriever's 5 best tools (top 3 namespaces) in full, no model call",
    create: (name: string) => createNamespaceFiltered(name),
  },
  'gated-sticky-deferred': {
    costHint: 5,
    usesModel: true,
    floorInDesign: true,
    description:
      "the seed's gate → retrieve → defer: tools of the caller's role only, embed top 8 above the floor, sticky per task, as deferred entries (name + summary) with load_tool_schema; pinned tools in full",
    create: (name: string, options?: ProfileOptions) => createGatedStickyDeferred(name, options),
  },
  'routed-deferred': {
    costHint: 5,
    usesModel: true,
    floorInDesign: true,
    description:
      "the seed's above-200-tools combination: role gate, the role's namespaces advertised, the model opens the best one (1 call), embed top 8 inside it above the floor as deferred entries with load_tool_schema; pinned tools in full",
    create: (name: string, options?: ProfileOptions) => createRoutedDeferred(name, options),
  },
} as const satisfies Record<string, ProfileFactory & StrategyCapabilities>;

export type ProfileName = keyof typeof PROFILES;

const registry = new Registry<ProfileFactory & StrategyCapabilities>(PROFILES, {
  kind: 'profile',
  reserved: (name) => (retrieverNames().includes(name) ? `"${name}" is a retriever's name; profiles and retrievers share one namespace of names` : undefined),
  unknown: (name, names) => {
    const hint = retrieverNames().includes(name) ? ` ("${name}" is a retriever: give it with ${setting('retrievers')})` : didYouMean(name, names);
    return new InputError(`unknown profile "${name}"${hint}; profiles: ${names.join(', ')}`);
  },
  empty: () => `no profile named (give ${setting('profiles')} static,…)`,
});

/** Add a profile at run time (plugins, tests). A name already taken by a profile or a retriever is an error. */
export function registerProfile(name: string, factory: ProfileFactory & StrategyCapabilities): void {
  registry.register(name, factory);
}

/** Remove a profile added with `registerProfile` (tests). */
export function unregisterProfile(name: string): void {
  registry.unregister(name);
}

/** Every registered profile, built-in ones first in table order. */
export function profileEntries(): Array<[string, ProfileFactory & StrategyCapabilities]> {
  return registry.entries();
}

/** What a registered profile declares about itself (`{}` for an unknown name); `approximate` defaults to `usesModel`. */
export function profileCapabilities(name: string): StrategyCapabilities {
  return capabilitiesOf(registry.get(name));
}

/** What the registered profile or retriever `name` declares (profiles and retrievers share one namespace of names). */
export function strategyCapabilities(name: string): StrategyCapabilities {
  return registry.has(name) ? profileCapabilities(name) : retrieverCapabilities(name);
}

/**
 * Whether a floor for every strategy (`--floor X`, `--floor auto`) applies to `name`: a retriever,
 * or a profile whose registry entry declares `floorInDesign`. Any other profile runs as its harness
 * runs; a floor reaches it only when `--floor` names it (a what-if).
 */
export function floorInDesign(name: string): boolean {
  return registry.has(name) ? profileCapabilities(name).floorInDesign === true : true;
}

/** Whether a registered profile embeds with the embedding model (`--model` applies to it). */
export function profileUsesModel(name: string): boolean {
  return profileCapabilities(name).usesModel === true;
}

/** Every registered profile's name, in the order of `profileEntries`. */
export function profileNames(): string[] {
  return registry.names();
}

/** Create a profile by name; an unknown name is an `InputError` with a "did you mean" (or a pointer to --retrievers). */
export function createProfile(name: string, options: ProfileOptions = {}): Profile {
  return registry.require(name).create(name, options);
}

/** Parse a comma-separated list of profile names, rejecting unknown and repeated ones. */
export function parseProfileList(list: string): string[] {
  return registry.parseList(list);
}
