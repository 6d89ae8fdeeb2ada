/**
 * The one table of named retrievers. CLI help, the docs table and the shared contract test all
 * iterate it, so a retriever added here is documented and tested without further edits.
 */
import { InputError } from '../catalog/errors.ts';
import { didYouMean } from '../catalog/suggest.ts';
import { createBm25 } from './bm25/presets.ts';
import { createEmbed } from './embed/index.ts';
import { createGate } from './gate.ts';
import { HybridRetriever } from './hybrid.ts';
import { createNamespace } from './namespace.ts';
import type { Retriever, RetrieverFactory, RetrieverOptions } from './types.ts';

export const RETRIEVERS = {
  bm25: {
    description: "Backpack's BM25: identifiers split, ASCII folding, English stop words, Porter2, weighted fields (name, namespace, summary, description, examples, parameter names)",
    create: (name: string) => createBm25(name),
  },
  'bm25-plain': {
    description: 'textbook BM25 baseline over name + description: [a-z0-9]+ tokens, no stemming, no stop words, k1 1.2, b 0.75',
    create: (name: string) => createBm25(name),
  },
  embed: {
    description:
      'local embeddings (transformers.js, mean-pooled, normalised): offline GloVe static encoder by default (SIF a 2e-4, 2 common directions removed, stop words zeroed, WordPiece pieces for unknown compounds), over server/plugin name, split name, summary, description and examples; exact cosine top-k (MetaTool single-tool recall@5 0.539, was 0.459)',
    create: (name: string, options?: RetrieverOptions) => createEmbed(name, { recipe: 'source+intent', ...(options?.model !== undefined ? { model: options.model } : {}) }),
  },
  hybrid: {
    description:
      'z-score fusion of bm25 (0.4) and embed (0.6): each score standardised over every allowed tool (a tool bm25 does not return counts as 0), weighted sum. MetaTool single-tool recall@5 0.691 vs bm25 0.636 (weight chosen on the train half; test half 0.693 vs 0.638); same embed fused by min-max 0.7/0.3 0.682, RRF k 60 0.652; small-7 0.481 vs 0.472',
    create: (name: string, options?: RetrieverOptions) =>
      new HybridRetriever(name, 'bm25', createEmbed('embed', { recipe: 'source+intent', ...(options?.model !== undefined ? { model: options.model } : {}) }), { method: 'zscore', weights: [0.4, 0.6] }),
  },
  'hybrid-rrf': {
    description: 'reciprocal-rank fusion (k 60) of bm25 and embed: max(50, 5k) hits from each under the same mask; no score calibration needed (MetaTool single-tool recall@5 0.652, below the z-score hybrid 0.691)',
    create: (name: string, options?: RetrieverOptions) =>
      new HybridRetriever(name, 'bm25', createEmbed('embed', { recipe: 'source+intent', ...(options?.model !== undefined ? { model: options.model } : {}) }), { method: 'rrf', rrfK: 60 }),
  },
  gate: {
    description: "role / phase gating: bm25 over the namespaces the caller's role may see (roles.json or --roles), widening to everything the scopes allow when the best tool inside scores below 90% of the best anywhere (the escape hatch)",
    create: (name: string, options?: RetrieverOptions) => createGate(name, options?.roles ? { roles: options.roles } : {}),
  },
  namespace: {
    description: 'hierarchical routing: BM25 over namespace documents (server/plugin description, instructions, tool names and summaries) opens the top 3 namespaces, bm25 ranks tools only inside them',
    create: (name: string) => createNamespace(name),
  },
} as const satisfies Record<string, RetrieverFactory>;

export type RetrieverName = keyof typeof RETRIEVERS;

const extra = new Map<string, RetrieverFactory>();

/** Add a retriever at run time (plugins, tests). A name already taken is an error. */
export function registerRetriever(name: string, factory: RetrieverFactory): void {
  if (Object.prototype.hasOwnProperty.call(RETRIEVERS, name) || extra.has(name)) throw new Error(`retriever "${name}" is already registered`);
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`retriever name "${name}" must be lowercase letters, digits, dots and dashes`);
  extra.set(name, factory);
}

/** Remove a retriever added with `registerRetriever` (tests). */
export function unregisterRetriever(name: string): void {
  extra.delete(name);
}

/** Every registered retriever, built-in ones first in table order. */
export function retrieverEntries(): Array<[string, RetrieverFactory]> {
  return [...Object.entries(RETRIEVERS), ...extra.entries()];
}

export function retrieverNames(): string[] {
  return retrieverEntries().map(([n]) => n);
}

/** Create a retriever by name; an unknown name is an `InputError` with a "did you mean". */
export function createRetriever(name: string, options: RetrieverOptions = {}): Retriever {
  const factory = (RETRIEVERS as Record<string, RetrieverFactory>)[name] ?? extra.get(name);
  if (!factory) {
    const names = retrieverNames();
    throw new InputError(`unknown retriever "${name}"${didYouMean(name, names)}; retrievers: ${names.join(', ')}`);
  }
  return factory.create(name, options);
}

/** Parse a comma-separated list of retriever names, rejecting unknown and repeated ones. */
export function parseRetrieverList(list: string): string[] {
  const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!names.length) throw new InputError('no retriever named (give --retrievers bm25,…)');
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new InputError(`retriever "${n}" is listed twice`);
    seen.add(n);
    if (!retrieverNames().includes(n)) createRetriever(n); // throws the "unknown retriever" error
  }
  return names;
}
