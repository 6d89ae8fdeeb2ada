/**
 * The contestants of the peers benchmark (`bench/peers.bench.ts`): Backpack's BM25 retrievers and
 * four JavaScript search libraries, each built over the same catalog and answering top-10.
 *
 * Same input for every peer: one text per tool ({@link documentText}) and Backpack's own
 * tokenizer ({@link backpackTokenizer}: identifiers split, ASCII folding, NLTK English stop words,
 * Porter2), handed to each library through its tokenizer hook, so every peer indexes and queries
 * exactly the terms Backpack's `bm25` would. Where a library has BM25 parameters they are set to
 * Backpack's (k1 1.2, b 0.75, no BM25+ `d`).
 */
import { create as createOrama, insertMultiple as oramaInsertMultiple, search as oramaSearch } from '@orama/orama';
import { Index as FlexIndex } from 'flexsearch';
import MiniSearch from 'minisearch';
import winkBm25 from 'wink-bm25-text-search';
import type { Catalog, Tool } from '../../src/catalog/types.ts';
import { Bm25Retriever } from '../../src/retrievers/bm25/index.ts';
import { BM25_DEFAULT_OPTIONS } from '../../src/retrievers/bm25/presets.ts';
import { makeTokenizer } from '../../src/retrievers/bm25/tokenize.ts';
import { createRetriever } from '../../src/retrievers/registry.ts';
import type { Retriever } from '../../src/retrievers/types.ts';

export const K = 10;
/** Backpack's BM25 parameters, given to every peer that takes them. */
export const K1 = BM25_DEFAULT_OPTIONS.params.k1;
export const B = BM25_DEFAULT_OPTIONS.params.b;

/** A built index: answers one request with at most {@link K} tool ids, best first. */
export interface Searcher {
  search(request: string): string[] | Promise<string[]>;
}

export interface Contestant {
  /** Key in `peers.json`'s `libraries`. */
  key: string;
  /** Package and version (or Backpack's registry name). */
  library: string;
  /** Does it rank by BM25? (flexsearch does not.) */
  bm25: boolean;
  /** Is this one of Backpack's own retrievers (the reference of the ratios)? */
  backpack: boolean;
  /** Index builds to time (the median is reported); 1 for peers whose build is slow. */
  builds: number;
  /** Measure every `stride`-th request (1 = all): slow peers get a fixed, deterministic subset. */
  stride: number;
  /** How it was configured: document text, fields, tokenization, scoring options. */
  notes: string;
  build(): Searcher | Promise<Searcher>;
}

/** `create_issue`, `createIssue`, `HTMLParser`, `issues.create` → space-separated words. */
export function splitName(name: string): string {
  return name
    .replace(/[_.\-/]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim();
}

/** The one text every peer indexes for a tool: name (split into words), namespace, summary, description. */
export function documentText(tool: Tool): string {
  return `${splitName(tool.name)} ${tool.namespace} ${tool.summary} ${tool.description}`;
}

/** A fresh instance of Backpack's `bm25` tokenizer (its own memo, like each Backpack index has). */
export function backpackTokenizer(): (text: string) => string[] {
  return makeTokenizer(BM25_DEFAULT_OPTIONS.tokenizer);
}

const TOKENIZER_NOTE =
  "Backpack's bm25 tokenizer (makeTokenizer(BM25_DEFAULT_OPTIONS.tokenizer): ASCII runs, identifiers split on _ . - and camelCase, ASCII folding, NLTK English stop words, Porter2), for documents and queries";
const DOC_NOTE = 'one text field per tool: splitName(name) + namespace + summary + description (no title, examples or parameter names)';

function versionOf(pkg: string, version: string): string {
  return `${pkg}@${version}`;
}

/** Backpack through the registry (`createRetriever(name)`), indexing its own fields. */
function backpackRegistry(key: string, name: 'bm25' | 'bm25-plain', builds: number, catalog: Catalog, notes: string): Contestant {
  return {
    key,
    library: `backpack ${name} (registry)`,
    bm25: true,
    backpack: true,
    builds,
    stride: 1,
    notes,
    async build() {
      const r: Retriever = createRetriever(name);
      await r.index(catalog);
      return {
        async search(request) {
          const hits = await r.search(request, { k: K });
          return hits.map((h) => h.id);
        },
      };
    },
  };
}

export interface ContestantInput {
  catalog: Catalog;
  /** `documentText` of each tool, by catalog position (built once, outside every measurement). */
  texts: readonly string[];
  /** Backpack index builds to time. */
  backpackBuilds: number;
  /** Request stride by contestant key (missing = 1, every request): slow peers get a fixed subset. */
  strides: Readonly<Record<string, number>>;
  versions: Record<string, string>;
}

export function contestants({ catalog, texts, backpackBuilds, strides, versions }: ContestantInput): Contestant[] {
  const tools = catalog.tools;
  const ids = tools.map((t) => t.id);
  const n = tools.length;

  const minisearchDocs = texts.map((text, i) => ({ id: i, text }));
  const oramaDocs = texts.map((text, i) => ({ id: String(i), text }));

  const list: Contestant[] = [
    backpackRegistry(
      'backpack-bm25',
      'bm25',
      backpackBuilds,
      catalog,
      "createRetriever('bm25') as shipped: its own fields (name+title ×3, namespace, summary, description, examples ×1, parameter names ×0.5; BM25F-style weighted tf), its own tokenizer (the one the peers are given), k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5)/(df + 0.5)); CSR postings + top-k heap; search() is async (awaited per request)",
    ),
    {
      key: 'backpack-bm25-samedoc',
      library: 'backpack Bm25Retriever (bm25 preset, peer document)',
      bm25: true,
      backpack: true,
      builds: backpackBuilds,
      stride: 1,
      notes: `new Bm25Retriever('bm25-samedoc', BM25_DEFAULT_OPTIONS, document) with the peers' document: ${DOC_NOTE}, as one field of weight 1; same tokenizer and k1/b as bm25. The like-for-like row for the peers (ratios under ratiosSameDocument); search() is async (awaited)`,
      async build() {
        const r = new Bm25Retriever('bm25-samedoc', BM25_DEFAULT_OPTIONS, { label: 'peers-document-text', texts: (t) => [documentText(t)] });
        await r.index(catalog);
        return {
          async search(request) {
            const hits = await r.search(request, { k: K });
            return hits.map((h) => h.id);
          },
        };
      },
    },
    backpackRegistry(
      'backpack-bm25-plain',
      'bm25-plain',
      backpackBuilds,
      catalog,
      "createRetriever('bm25-plain'): textbook baseline over name + description (weight 1 each), [a-z0-9]+ tokens (no camelCase split, no folding, no stop words, no stemming), k1 1.2, b 0.75; search() is async (awaited)",
    ),
    {
      key: 'minisearch',
      library: versionOf('minisearch', versions.minisearch ?? '?'),
      bm25: true,
      backpack: false,
      builds: 1,
      stride: 1,
      notes: `${DOC_NOTE} (fields ['text'], idField 'id', storeFields none); tokenize = ${TOKENIZER_NOTE}; processTerm = identity; addAll(); search(q, { combineWith 'OR', prefix false, fuzzy false, bm25 { k 1.2, b 0.75, d 0 } }) then slice(0, 10): minisearch has no top-k limit, it scores and sorts every matching document; its score is multiplied by the number of distinct query terms matched (its own coordination factor)`,
      build() {
        const tokenize = backpackTokenizer();
        const ms = new MiniSearch<{ id: number; text: string }>({
          fields: ['text'],
          idField: 'id',
          storeFields: [],
          tokenize: (text: string) => tokenize(text),
          processTerm: (term: string) => term,
          searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false, bm25: { k: K1, b: B, d: 0 } },
        });
        ms.addAll(minisearchDocs);
        return {
          search(request) {
            const res = ms.search(request);
            const out: string[] = [];
            for (let i = 0; i < res.length && i < K; i++) out.push(ids[res[i]!.id as number]!);
            return out;
          },
        };
      },
    },
    {
      key: 'wink-bm25-text-search',
      library: versionOf('wink-bm25-text-search', versions['wink-bm25-text-search'] ?? '?'),
      bm25: true,
      backpack: false,
      builds: 1,
      stride: 1,
      notes: `${DOC_NOTE} (fldWeights { text: 1 }, no retained fields); definePrepTasks([${TOKENIZER_NOTE}]) for documents and queries (wink-nlp-utils not used, so the terms are Backpack's); bm25Params { k1 1.2, b 0.75, k 1 } (its idf ln((N - n + 0.5)/(n + 0.5) + 1) = Backpack's); consolidate(4) (term weights rounded to 4 decimals); search(q, 10): scores every posting then sorts all matches`,
      build() {
        const tokenize = backpackTokenizer();
        const engine = winkBm25();
        engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: K1, b: B, k: 1 }, ovFldNames: [] });
        engine.definePrepTasks([(text: string) => tokenize(text)]);
        for (let i = 0; i < n; i++) engine.addDoc({ text: texts[i]! }, i);
        engine.consolidate(4);
        return {
          search(request) {
            return engine.search(request, K).map(([id]) => ids[Number(id)]!);
          },
        };
      },
    },
    {
      key: 'orama',
      library: versionOf('@orama/orama', versions['@orama/orama'] ?? '?'),
      bm25: true,
      backpack: false,
      builds: 1,
      stride: 1,
      notes: `${DOC_NOTE} (schema { id: string, text: 'string' }; the document objects are built before the build is timed, Orama's store keeps references to them); components.tokenizer = ${TOKENIZER_NOTE}, deduplicated per text as Orama's own tokenizer does (allowDuplicates false), each term suffixed with a '$' sentinel: Orama matches a query term as a *prefix* of indexed terms unless exact: true, and exact: true also keeps only documents whose raw text contains every raw query word (an AND), so the sentinel makes prefix lookup an exact-term lookup with OR semantics; insertMultiple() (sync: no async hooks); search(db, { term, properties ['text'], limit 10, threshold 1 (any term), relevance { k 1.2, b 0.75, d 0 } }): Orama's tf is count/field length (so 1/length here), it scores and sorts every matching document; search returns a plain object here (sync path: no before/after-search hooks), a Promise is awaited if returned`,
      build() {
        const tokenize = backpackTokenizer();
        const db = createOrama({
          schema: { id: 'string', text: 'string' } as const,
          components: {
            tokenizer: {
              language: 'english',
              normalizationCache: new Map<string, string>(),
              tokenize: (raw: string) => {
                const seen = new Set<string>();
                for (const t of tokenize(raw)) seen.add(`${t}$`);
                return [...seen];
              },
            },
          },
        });
        const inserted = oramaInsertMultiple(db, oramaDocs, 1000);
        const finish = (): Searcher => ({
          search(request) {
            const res = oramaSearch(db, { term: request, properties: ['text'], limit: K, threshold: 1, relevance: { k: K1, b: B, d: 0 } });
            const toIds = (r: { hits: Array<{ id: string }> }): string[] => r.hits.map((h) => ids[Number(h.id)]!);
            return res instanceof Promise ? res.then(toIds) : toIds(res);
          },
        });
        return inserted instanceof Promise ? inserted.then(finish) : finish();
      },
    },
    {
      key: 'flexsearch',
      library: versionOf('flexsearch', versions.flexsearch ?? '?'),
      bm25: false,
      backpack: false,
      builds: backpackBuilds,
      stride: 1,
      notes: `NOT BM25: FlexSearch ranks by term position slots (resolution 9) and, with suggest, by how many query terms a document matches; no idf, no length normalisation. Index({ tokenize 'strict' (whole terms only, no prefix/forward partials), resolution 9, no context index (library default), encode = ${TOKENIZER_NOTE}, deduplicated when FlexSearch asks }) over ${DOC_NOTE}; search(q, { limit 10, suggest true }): without suggest a query matches only documents with every term (AND)`,
      build() {
        const tokenize = backpackTokenizer();
        const index = new FlexIndex({
          tokenize: 'strict',
          resolution: 9,
          encode: ((text: string, dedupe?: boolean) => (dedupe ? [...new Set(tokenize(text))] : tokenize(text))) as (text: string) => string[],
        });
        for (let i = 0; i < n; i++) index.add(i, texts[i]!);
        return {
          search(request) {
            const res = index.search(request, { limit: K, suggest: true }) as Array<number | string>;
            return res.map((id) => ids[Number(id)]!);
          },
        };
      },
    },
  ];
  for (const c of list) c.stride = strides[c.key] ?? 1;
  return list;
}
