/**
 * The named BM25 configurations. `createBm25(name)` picks the preset registered under `name`
 * (`bm25`, `bm25-plain`; any other name gets `bm25`'s), and `options` override parts of it.
 */
import type { RetrieverFactory } from '../types.ts';
import { Bm25Retriever, type Bm25Options, type FieldWeights } from './index.ts';
import type { BM25Params } from './score.ts';
import type { TokenizerOptions } from './tokenize.ts';

/**
 * Backpack's default: identifiers split (snake, camel, kebab, dotted), ASCII folding, NLTK English
 * stop words, Porter2; fields name ×6, namespace ×2, summary ×1, description ×1, examples ×1,
 * parameter names ×0; k1 3, b 0.15.
 *
 * Chosen on TRAIN splits only, of two kinds of catalog at once, so that the default does not fit
 * one catalog's style (scripts/tune-on-train.ts, docs/tuning.md): MetaTool's (one-sentence plugin
 * descriptions, zero-shot) and a generated MCP-style `small` catalog of seed 11 with 8,000 cases
 * (generator 2.0.2; a seed nothing else scores; caller scopes applied as masks). Criterion: the
 * mean of the two train recall@5 figures. The tokenizer, name and summary weights, k1 and b were
 * picked on a grid (1,080 points), then the namespace, examples (never 0: that field carries
 * `--examples-from` requests) and parameter-name weights at that point (48 settings); the defaults
 * in the code stay unless that search finds a strictly higher train mean. Train: MetaTool 0.650,
 * small-11 0.519, mean 0.584 (the settings before, chosen on generator 1.0's small-11, name ×3,
 * namespace ×1, examples ×0.5, parameter names ×0.5, b 0.5: 0.642, 0.494, 0.568; the textbook
 * name ×3, examples ×1, k1 1.2, b 0.75: 0.634, 0.494, 0.564). Test, read once after the choice:
 * MetaTool 0.650, small-11 0.514.
 */
export const BM25_DEFAULT_OPTIONS: Readonly<Bm25Options> = deepFreeze({
  params: { k1: 3, b: 0.15 },
  tokenizer: { splitIdentifiers: true, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1 },
  fields: { name: 6, namespace: 2, summary: 1, description: 1, examples: 1, params: 0 },
});

/**
 * The textbook baseline: name + description (weight 1 each), plain `[a-z0-9]+` runs (so
 * `create_issue` → `create issue`, but `createIssue` → `createissue`), no folding, no stop words,
 * no stemming; k1 1.2, b 0.75. Not tuned: these are the textbook values, kept as a fixed reference.
 */
export const BM25_PLAIN_OPTIONS: Readonly<Bm25Options> = deepFreeze({
  params: { k1: 1.2, b: 0.75 },
  tokenizer: { splitIdentifiers: 'punctuation', asciiFold: false, stopWords: 'none', stem: 'none', minLength: 1 },
  fields: { name: 1, namespace: 0, summary: 0, description: 1, examples: 0, params: 0 },
});

export const BM25_PRESETS: Readonly<Record<'bm25' | 'bm25-plain', Readonly<Bm25Options>>> = Object.freeze({
  bm25: BM25_DEFAULT_OPTIONS,
  'bm25-plain': BM25_PLAIN_OPTIONS,
});

/** Parts of {@link Bm25Options} to override; every part is optional. */
export interface Bm25OptionsInput {
  params?: Partial<BM25Params>;
  tokenizer?: Partial<TokenizerOptions>;
  fields?: Partial<FieldWeights>;
}

/**
 * A BM25 retriever named `name`: the preset of that name (`bm25` for any name that is not a
 * preset), with `options` laid over it. Throws a `RangeError` on an out-of-range option.
 */
export function createBm25(name: string, options: Bm25OptionsInput = {}): Bm25Retriever {
  const base = Object.prototype.hasOwnProperty.call(BM25_PRESETS, name) ? BM25_PRESETS[name as keyof typeof BM25_PRESETS] : BM25_DEFAULT_OPTIONS;
  return new Bm25Retriever(name, {
    params: { ...base.params, ...options.params },
    tokenizer: { ...base.tokenizer, ...options.tokenizer },
    fields: { ...base.fields, ...options.fields },
  });
}

/** Registry entries for the two presets. */
export const BM25_FACTORIES = {
  bm25: {
    description:
      "Backpack's BM25: identifiers split, ASCII folding, English stop words, Porter2, weighted fields (name ×3, namespace, summary, description ×1, examples, parameter names ×0.5); k1 3, b 0.5, chosen on the train splits of MetaTool and a generated catalog (seed 11) by mean recall@5",
    create: (name: string) => new Bm25Retriever(name, BM25_DEFAULT_OPTIONS),
  },
  'bm25-plain': {
    description: 'textbook BM25 baseline over name + description: [a-z0-9]+ tokens, no stemming, no stop words, no folding; k1 1.2, b 0.75',
    create: (name: string) => new Bm25Retriever(name, BM25_PLAIN_OPTIONS),
  },
} as const satisfies Record<string, RetrieverFactory>;

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(o);
}
