/**
 * Test support for the report tests (src/report/*.test.ts, test/browser/): results objects built
 * by hand, so a test states the figures it reasons about, and {@link asOlder}, which turns any
 * results into what a `results.json` written before operating curves, calibrated floors and
 * context fit looked like, and {@link hostileDataset}, a small dataset with hostile text. Not used
 * by the reporters themselves.
 */
import { catalogHash } from '../src/catalog/manifest.ts';
import { makeTool } from '../src/catalog/model.ts';
import type { Case, Catalog, Tool } from '../src/catalog/types.ts';
import type { EvalInput } from '../src/eval/input.ts';
import type { Results } from '../src/eval/results.ts';

type Table = Record<string, number>;

/** The quality metric ids a summary table and a JUnit suite list, in their order (test expectations). */
export const QUALITY_IDS = ['top1', 'recall@1', 'recall@5', 'recall@10', 'mrr@10', 'visible'];

/** The leading columns of the Markdown summary's profile token table (test expectations). */
export const PROFILE_TOKEN_COLUMNS = ['profile', 'before search', 'per search', 'per case', '12 turns uncached', '12 turns cached'];

/** A plain JSON copy (what a reporter reads from results.json). */
function copy<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/**
 * `r` as written before the operating curve, calibrated floors and the context fit existed: no
 * `abstention` or `recallAtFalsePositiveRate`, no `searchNoToolFalsePositiveRate` in any metric
 * table, no `contextWindow`/`fitsContext`/`overflowCases` in the profiles' tokens, no
 * `config.calibration`, and every calibrated floor written as its score (or null).
 */
export function asOlder(r: Results): Results {
  const out = copy(r) as unknown as Record<string, unknown> & Results;
  const strip = (t: Table): void => {
    delete t.searchNoToolFalsePositiveRate;
  };
  for (const s of [...Object.values(out.retrievers), ...Object.values(out.profiles ?? {})]) {
    const x = s as unknown as Record<string, unknown>;
    delete x.abstention;
    delete x.recallAtFalsePositiveRate;
    strip(s.metrics.overall);
    for (const t of Object.values(s.metrics.slices)) strip(t);
    for (const t of Object.values(s.metrics.namespaces)) strip(t);
  }
  for (const p of Object.values(out.profiles ?? {})) {
    const t = p.tokens as unknown as Record<string, unknown>;
    delete t.contextWindow;
    delete t.fitsContext;
    delete t.overflowCases;
  }
  const config = out.config as unknown as Record<string, unknown>;
  delete config.calibration;
  const floors = config.floors as Record<string, unknown>;
  for (const [k, f] of Object.entries(floors)) if (f !== null && typeof f === 'object') floors[k] = (f as { value?: number | null }).value ?? null;
  return out;
}

export interface Point {
  floor: number;
  'recall@1': number;
  'recall@5': number;
  noToolFalsePositiveRate: number;
  searchNoToolFalsePositiveRate?: number;
}

/**
 * An operating curve of `n` points (≥ 20), floors 0, step, 2·step, … ascending: recall@5 falls from
 * `recall` to `recall`·(1 − drop) quadratically, the no-tool FP rate from `fp` to 0 linearly
 * (an eager profile: it stays at 1). Floors are exact multiples of `step`, so a test can name one.
 */
export function curve(recall: number, fp: number, opts: { n?: number; step?: number; drop?: number; eager?: boolean; search?: boolean } = {}): Point[] {
  const n = opts.n ?? 21;
  const step = opts.step ?? 0.5;
  const drop = opts.drop ?? 0.8;
  return Array.from({ length: n }, (_, i) => {
    const t = i / (n - 1);
    const r5 = recall * (1 - drop * t * t);
    const rate = opts.eager ? 1 : fp * (1 - t);
    return {
      floor: i * step,
      'recall@1': r5 * 0.6,
      'recall@5': r5,
      noToolFalsePositiveRate: rate,
      ...(opts.search ? { searchNoToolFalsePositiveRate: fp * (1 - t) } : {}),
    };
  });
}

const COUNTS = { cases: 100, gradedCases: 80, noToolCases: 20, multiGoldCases: 0 };

function ranking(top1: number, r5: number, fp: number): Table {
  return {
    top1,
    'recall@1': r5 * 0.7,
    'recall@3': r5 * 0.9,
    'recall@5': r5,
    'recall@10': Math.min(1, r5 + 0.05),
    'mrr@10': top1 * 0.9,
    'ndcg@10': top1 * 0.95,
    'missedEntirely@5': 1 - r5,
    noToolFalsePositiveRate: fp,
    scopeLeakCount: 0,
    'namespaceRecall@5': Math.min(1, r5 + 0.1),
    ...COUNTS,
  };
}

const LATENCY = { indexMs: 10, p50Ms: 1, p95Ms: 2, peakRssMb: 100 };

function strategy(overall: Table, extra: Record<string, unknown>) {
  const slice = (k: number): Table => Object.fromEntries(Object.entries(overall).map(([m, v]) => [m, m in COUNTS ? v : v * k]));
  return {
    config: {},
    metrics: { overall, slices: { lexical: slice(1), paraphrase: slice(0.8) }, namespaces: { fs: slice(0.9) } },
    neverSurfaced: { k: 10, count: 2, gold: ['fs_delete'] },
    latency: LATENCY,
    ...extra,
  };
}

function tokens(perCase: number, fits: number, overflow: number) {
  return {
    counter: 'o200k',
    provider: 'anthropic',
    placement: 'history',
    beforeSearch: perCase,
    beforeSearchParts: { eager: perCase, metaTools: 0, advertisement: 0 },
    beforeSearchPerCase: perCase,
    perSearch: 0,
    perCase,
    visiblePer1kTokens: 0.1,
    recall5Per1kTokens: null,
    prefixChangeRate: null,
    session12Uncached: 12 * perCase,
    session12Cached: 2 * perCase,
    cacheInvalidation: perCase,
    cache: { writeRatio: 1.25, readRatio: 0.1 },
    contextWindow: 200_000,
    fitsContext: fits,
    overflowCases: overflow,
  };
}

function exposure(search: boolean) {
  return {
    searchLimit: search ? 5 : 0,
    search,
    form: search ? 'schemas' : 'none',
    sticky: false,
    unrestricted: { eagerTools: search ? 2 : 40, metaTools: search ? ['tool_search'] : [], advertisementChars: 0, advertisementBytes: 0 },
    perCase: { eagerTools: search ? 2 : 40, loadedTools: search ? 3 : 0, searchResultChars: search ? 900 : 0 },
  };
}

export interface HandBuiltOptions {
  /** `tokens.fitsContext` of the profile `huge` (default 0.5). */
  hugeFits?: number;
  /** Dataset name (default `hand-built`). */
  name?: string;
}

/**
 * A results file built by hand, with every new field:
 * - retrievers `bm25` (recall@5 0.6, FP 0.3, auto floor 2.5 = a point of its curve) and `dense`
 *   (recall@5 0.7, FP 0.2: the best that fits; fixed floor 0.35; no floor reaches FP 0.05);
 * - profiles `static` (no search, every tool eager: FP 1, visible 0.9, no curve), `deferred`
 *   (search, recall@5 0.65, auto floor 7.25, not a point of its curve: its overall figures mark
 *   it) and `huge` (search, the best figure in every column, recall@5 0.95, FP 0.05, whose prompt
 *   fits the 200,000-token window in `hugeFits` of the cases).
 */
export function handBuilt(opts: HandBuiltOptions = {}): Results {
  const hugeFits = opts.hugeFits ?? 0.5;
  const bm25Curve = curve(0.6, 0.3);
  const results = {
    schemaVersion: 1,
    backpack: { version: '0.1.0', gitSha: null },
    dataset: {
      name: opts.name ?? 'hand-built',
      source: { kind: 'dataset', ref: 'hand-built', split: null },
      catalogSha256: 'a'.repeat(64),
      tools: 40,
      cases: 100,
    },
    config: {
      retrievers: ['bm25', 'dense'],
      profiles: ['static', 'deferred', 'huge'],
      ks: [1, 3, 5, 10],
      depth: 10,
      floors: {
        bm25: { mode: 'auto', target: 0.1, value: 2.5, calibratedOn: 'split:dev', calibrationFalsePositiveRate: 0.09, calibrationNoToolCases: 33 },
        dense: 0.35,
        static: {
          mode: 'auto',
          target: 0.1,
          value: null,
          calibratedOn: 'split:dev',
          calibrationFalsePositiveRate: null,
          calibrationNoToolCases: 33,
          reason: 'no search',
        },
        deferred: { mode: 'auto', target: 0.1, value: 7.25, calibratedOn: 'split:dev', calibrationFalsePositiveRate: 0.1, calibrationNoToolCases: 33 },
        huge: null,
      },
      cache: { writeRatio: 1.25, readRatio: 0.1 },
      traces: null,
    },
    configHash: 'b'.repeat(64),
    shard: null,
    retrievers: {
      bm25: strategy(ranking(0.5, 0.6, 0.3), {
        abstention: bm25Curve,
        recallAtFalsePositiveRate: {
          '0.05': { 'recall@5': 0.3, floor: 8, noToolFalsePositiveRate: 0.045 },
          '0.1': { 'recall@5': 0.45, floor: 6.5, noToolFalsePositiveRate: 0.09 },
          '0.2': { 'recall@5': 0.55, floor: 3.5, noToolFalsePositiveRate: 0.195 },
        },
      }),
      dense: strategy(ranking(0.55, 0.7, 0.2), {
        abstention: curve(0.7, 0.2, { step: 0.05 }),
        recallAtFalsePositiveRate: {
          '0.05': null,
          '0.1': { 'recall@5': 0.5, floor: 0.5, noToolFalsePositiveRate: 0.1 },
          '0.2': { 'recall@5': 0.7, floor: 0, noToolFalsePositiveRate: 0.2 },
        },
      }),
    },
    profiles: {
      static: {
        ...strategy({ visible: 0.9, noToolFalsePositiveRate: 1, scopeLeakCount: 0, ...COUNTS }, { abstention: null, recallAtFalsePositiveRate: null }),
        exposure: exposure(false),
        tokens: tokens(9000, 1, 0),
      },
      deferred: {
        ...strategy(
          { ...ranking(0.52, 0.65, 0.3), visible: 0.66, searchNoToolFalsePositiveRate: 0.25 },
          {
            abstention: curve(0.65, 0.3, { search: true }),
            recallAtFalsePositiveRate: {
              '0.05': { 'recall@5': 0.31, floor: 8.5, noToolFalsePositiveRate: 0.05 },
              '0.1': { 'recall@5': 0.46, floor: 7.25, noToolFalsePositiveRate: 0.1 },
              '0.2': null,
            },
          },
        ),
        exposure: exposure(true),
        tokens: tokens(2000, 1, 0),
      },
      huge: {
        ...strategy(
          { ...ranking(0.9, 0.95, 0.05), visible: 0.97, searchNoToolFalsePositiveRate: 0.04 },
          {
            abstention: curve(0.95, 0.05, { search: true }),
            recallAtFalsePositiveRate: {
              '0.05': { 'recall@5': 0.95, floor: 0, noToolFalsePositiveRate: 0.05 },
              '0.1': { 'recall@5': 0.95, floor: 0, noToolFalsePositiveRate: 0.05 },
              '0.2': { 'recall@5': 0.95, floor: 0, noToolFalsePositiveRate: 0.05 },
            },
          },
        ),
        exposure: exposure(true),
        tokens: tokens(250_000, hugeFits, Math.round(80 * (1 - hugeFits))),
      },
    },
    tokenTable: { counter: 'o200k', contextWindow: 200_000, turns: 12, sample: 'evenly spaced', rows: [] },
    timings: { startedAt: '2024-05-06T07:08:09.000Z', durationMs: 1234 },
  };
  return copy(results) as unknown as Results;
}

/** A tool id with markup, CDATA and quote characters, table pipes, a line break and a control character. */
export const EVIL_ID = 'evil<script>alert(1)</script>|</script><img src=x onerror=alert(1)>]]>&"|x\ny\u0001z';

/** A description with the same hazards (a test may add its own format's). */
export const EVIL_DESC = '<script>alert(1)</script> </script> <img src=x onerror=alert(1)> ]]> & " | broken | table\nnext line \u0001';

/**
 * A dataset named `name` of core tools: `list_files`, the `extra` tools, then the tool whose id is
 * {@link EVIL_ID}, described by `desc`; and the given cases.
 */
export function hostileDataset(name: string, desc: string, extra: readonly Tool[], cases: readonly Case[]): EvalInput {
  const catalog: Catalog = {
    tools: [
      makeTool({ source: 'core', name: 'list_files', summary: 'List files.', description: 'List the files in a folder.' }),
      ...extra,
      makeTool({ source: 'core', id: EVIL_ID, name: 'evil', summary: desc, description: desc }),
    ],
    skills: [],
    servers: [],
    plugins: [],
  };
  return { name, source: { kind: 'dataset', ref: 'evil', split: null }, catalog, cases: [...cases], catalogSha256: catalogHash(catalog) };
}
