/**
 * The one table of named retrievers. CLI help, the docs table and the shared contract test all
 * iterate it, so a retriever added here is documented and tested without further edits.
 */
import { Registry } from '../util/registry.ts';
import { createBm25 } from './bm25/presets.ts';
import { registryEmbed } from './embed/index.ts';
import { createGate } from './gate.ts';
import { CalibratedHybridRetriever, HybridRetriever, type HybridOptions } from './hybrid.ts';
import { createNamespace } from './namespace.ts';
import type { Retriever, RetrieverFactory, RetrieverOptions, StrategyCapabilities } from './types.ts';

export const RETRIEVERS = {
  bm25: {
    description:
      "Backpack's BM25: identifiers split, ASCII folding, English stop words, Porter2, weighted fields (name ×6, namespace ×2, summary, description, examples ×1, parameter names ×0); k1 3, b 0.15, chosen on the train splits of MetaTool and a generated catalog (generator 2.0, seed 11, 8,000 cases) by mean recall@5 (docs/tuning.md). Score: unbounded ≥ 0, the sum of field-weighted BM25 term scores (only tools matching a term are returned, so every score is > 0); grows with the number of matched request terms; a floor is on this scale",
    create: (name: string) => createBm25(name),
  },
  'bm25-plain': {
    description:
      'textbook BM25 baseline over name + description: [a-z0-9]+ tokens, no stemming, no stop words, k1 1.2, b 0.75. Score: unbounded ≥ 0, the sum of BM25 term scores (only matching tools are returned, > 0); a floor is on this scale',
    create: (name: string) => createBm25(name),
  },
  embed: {
    usesModel: true,
    costHint: 5,
    toolLocal: true,
    description:
      "local embeddings (mean-pooled, normalised): the offline GloVe static encoder by default, computed in plain JavaScript with vectors bit-identical to transformers.js (SIF a 1e-3, 3 common directions removed, stop words zeroed, WordPiece pieces of 2+ letters for unknown compounds; build settings chosen on MetaTool's train split, docs/tuning.md), over server/plugin name, split name, summary, description and examples; exact cosine top-k. Score: cosine similarity in [−1, 1] (every allowed tool is returned; a request with no known word returns nothing); a floor is on this scale",
    create: (name: string, options?: RetrieverOptions) => registryEmbed(name, options),
  },
  hybrid: {
    usesModel: true,
    costHint: 10,
    description:
      "calibrated fusion of bm25 and embed: σ(β · [1, raw bm25, raw cosine, z(bm25), z(embed), best bm25, best cosine]), z = standard score over every allowed tool, best = the request's top raw score; β fitted by L2 logistic regression on calibration cases (gold tools of each case's top-10 union = 1, no-tool cases weighted to match the graded ones), defaults fitted on MetaTool train. Score: probability in [0, 1] that the tool is wanted, comparable across requests; a floor is on this scale",
    create: (name: string, options?: RetrieverOptions) =>
      new CalibratedHybridRetriever(name, createRetriever('bm25'), registryEmbed('embed', options), { features: 'zscore' }),
  },
  'hybrid-rrf': {
    usesModel: true,
    costHint: 8,
    description:
      'calibrated fusion of bm25 and embed over reciprocal ranks: σ(β · [1, raw bm25, raw cosine, 1/(60 + bm25 rank), 1/(60 + embed rank), best bm25, best cosine]), ranks past 50 count 0; fitted as hybrid. Score: probability in [0, 1], comparable across requests; a floor is on this scale',
    create: (name: string, options?: RetrieverOptions) =>
      new CalibratedHybridRetriever(name, createRetriever('bm25'), registryEmbed('embed', options), { features: 'rrf' }),
  },
  'hybrid-zscore': {
    usesModel: true,
    costHint: 10,
    description:
      "the per-request z-score fusion (the former hybrid): bm25 (0.4) and embed (0.6) standardised over every allowed tool (a tool bm25 does not return counts as 0), weighted sum. Score: a sum of standard scores, unbounded and relative to the request (a greeting's best tool still stands out from the rest of the catalog), so a floor separates poorly",
    create: (name: string, options?: RetrieverOptions) =>
      new HybridRetriever(name, createRetriever('bm25'), registryEmbed('embed', options), { method: 'zscore', weights: [0.4, 0.6] }),
  },
  gate: {
    costHint: 3,
    description:
      "role / phase gating: bm25 over the tools the caller's role may see (its namespaces and tool patterns in roles.json or --roles), widening to everything the scopes allow when the best tool inside scores below 90% of the best anywhere (the escape hatch). Score: bm25's (unbounded ≥ 0, statistics of the whole catalog), inside or outside the role; a floor is on this scale",
    create: (name: string, options?: RetrieverOptions) => createGate(name, options?.roles ? { roles: options.roles } : {}),
  },
  namespace: {
    description:
      "hierarchical routing: BM25 over namespace documents (server/plugin description, instructions, tool names and summaries) opens the top 3 namespaces, bm25 ranks tools only inside them. Score: the tool's bm25 score (unbounded ≥ 0, statistics of the whole catalog; the namespace score only decides what is opened); a floor is on this scale",
    create: (name: string) => createNamespace(name),
  },
} as const satisfies Record<string, RetrieverFactory>;

export type RetrieverName = keyof typeof RETRIEVERS;

const registry = new Registry<RetrieverFactory>(RETRIEVERS, { kind: 'retriever', empty: () => 'no retriever named (give --retrievers bm25,…)' });

/** Add a retriever at run time (plugins, tests). A name already taken is an error. */
export function registerRetriever(name: string, factory: RetrieverFactory): void {
  registry.register(name, factory);
}

/** Remove a retriever added with `registerRetriever` (tests). */
export function unregisterRetriever(name: string): void {
  registry.unregister(name);
}

/** Every registered retriever, built-in ones first in table order. */
export function retrieverEntries(): Array<[string, RetrieverFactory]> {
  return registry.entries();
}

/** Every registered retriever's name, in the order of `retrieverEntries`. */
export function retrieverNames(): string[] {
  return registry.names();
}

/** What a registered retriever declares about itself (`{}` for an unknown name); `approximate` defaults to `usesModel`. */
export function retrieverCapabilities(name: string): StrategyCapabilities {
  return capabilitiesOf(registry.get(name));
}

/** A registry entry's capabilities, with the defaults filled in. */
export function capabilitiesOf(entry: StrategyCapabilities | undefined): StrategyCapabilities {
  if (entry === undefined) return {};
  const { usesModel, approximate, costHint, toolLocal, floorInDesign } = entry;
  return {
    ...(usesModel !== undefined ? { usesModel } : {}),
    ...((approximate ?? usesModel) ? { approximate: true } : {}),
    ...(costHint !== undefined ? { costHint } : {}),
    ...(toolLocal !== undefined ? { toolLocal } : {}),
    ...(floorInDesign !== undefined ? { floorInDesign } : {}),
  };
}

/** Create a retriever by name; an unknown name is an `InputError` with a "did you mean". */
export function createRetriever(name: string, options: RetrieverOptions = {}): Retriever {
  return registry.require(name).create(name, options);
}

/** Parse a comma-separated list of retriever names, rejecting unknown and repeated ones. */
export function parseRetrieverList(list: string): string[] {
  return registry.parseList(list);
}

/** A hybrid retriever named `name` fusing the registered retrievers `a` and `b` (by name). */
export function createHybrid(name: string, a: string, b: string, options: Partial<HybridOptions> = {}): HybridRetriever {
  return new HybridRetriever(name, createRetriever(a), createRetriever(b), options);
}
