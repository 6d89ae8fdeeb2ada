/**
 * The options of the BM25 retriever (`index.ts`): the indexed fields and their weights, the
 * admission rule, the document builders of harness emulations, and their checks.
 */
import type { Tool } from '../../catalog/types.ts';
import { checkBM25Params, type BM25Params } from './score.ts';
import { checkTokenizerOptions, type TokenizerOptions } from './tokenize.ts';

/** The indexed fields, in the order their weighted frequencies are summed. */
export const FIELD_NAMES = ['name', 'namespace', 'summary', 'description', 'examples', 'params'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/**
 * Per-field weights (finite, ≥ 0; `0` = the field is not indexed). Each occurrence of a term in
 * field f adds w_f to the term's frequency and w_f to the document's length.
 * - `name`: the tool's `name`, then its `title` if any;
 * - `namespace`: the routing namespace (server or plugin name, `core`);
 * - `summary`, `description`: as written;
 * - `examples`: each example request;
 * - `params`: the top-level `inputSchema.properties` names (not their descriptions).
 */
export type FieldWeights = Record<FieldName, number>;

/**
 * Which documents a search may return (scores are the same either way):
 * - `'any-term'`: every document that contains at least one query term (score > 0), the textbook rule;
 * - `'hermes'`: Hermes Agent's admission (`search_catalog` in `tools/tool_search_catalog.py`):
 *   1. the **gate token** is the query token with the highest idf, the first in query order on a tie;
 *      a token no document contains has df 0 and so the highest idf of all (idf falls strictly with
 *      df), so a query with any unknown token admits nothing;
 *   2. a document must contain the gate token;
 *   3. **coverage floor**: with *answerable* = the unique query terms some document contains, a
 *      document must contain at least ceil(0.5 · answerable) of them when answerable ≥ 4, else 1.
 *   Query tokens are those the tokenizer keeps (stop words, if any, are not query tokens). Hermes's
 *   exact-name rule is not a BM25 matter: the Hermes profile adds it on top.
 */
export type Admission = 'any-term' | 'hermes';

export const ADMISSIONS: readonly Admission[] = ['any-term', 'hermes'];

/** `'hermes'` coverage floor: engages from this many answerable terms (`MIN_ANSWERABLE_TERMS_FOR_COVERAGE`). */
export const HERMES_MIN_ANSWERABLE_TERMS = 4;
/** `'hermes'` coverage floor: the share of answerable terms a document must contain (`MIN_QUERY_TERM_COVERAGE`). */
export const HERMES_MIN_TERM_COVERAGE = 0.5;

/** How many of `answerable` unique query terms a document must contain under `'hermes'` admission. */
export function hermesRequiredTerms(answerable: number): number {
  return answerable < HERMES_MIN_ANSWERABLE_TERMS ? 1 : Math.ceil(answerable * HERMES_MIN_TERM_COVERAGE);
}

export interface Bm25Options {
  params: BM25Params;
  tokenizer: TokenizerOptions;
  fields: FieldWeights;
  /** Which documents a search may return; default `'any-term'` (see {@link Admission}). */
  admission?: Admission;
}

/**
 * A document builder that replaces the fields: a harness emulation (Codex, Hermes) indexes the exact
 * text its harness builds for a tool. The texts are indexed as one field of weight 1.
 */
export interface DocumentText {
  /** Short name recorded in `describe()` (e.g. `codex-mcp-search-text`). */
  label: string;
  texts(tool: Tool): readonly string[];
}

/** The texts of one field of a tool (see {@link FieldWeights}). */
export function fieldTexts(tool: Tool, field: FieldName): readonly string[] {
  switch (field) {
    case 'name':
      return tool.title !== undefined && tool.title !== '' ? [tool.name, tool.title] : [tool.name];
    case 'namespace':
      return [tool.namespace];
    case 'summary':
      return [tool.summary];
    case 'description':
      return [tool.description];
    case 'examples':
      return tool.examples;
    case 'params': {
      const props = tool.inputSchema?.properties;
      return props !== null && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
    }
  }
}

/** Throws a `RangeError` if any option is out of range. */
export function checkBm25Options(o: Bm25Options): void {
  checkBM25Params(o.params);
  checkTokenizerOptions(o.tokenizer);
  for (const f of FIELD_NAMES) {
    const w = o.fields[f];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new RangeError(`field weight "${f}" must be a finite number ≥ 0 (got ${w})`);
  }
  for (const f of Object.keys(o.fields)) {
    if (!(FIELD_NAMES as readonly string[]).includes(f)) throw new RangeError(`unknown field "${f}" (fields: ${FIELD_NAMES.join(', ')})`);
  }
  if (o.admission !== undefined && !ADMISSIONS.includes(o.admission)) {
    throw new RangeError(`admission must be one of ${ADMISSIONS.join(', ')} (got ${JSON.stringify(o.admission)})`);
  }
}
