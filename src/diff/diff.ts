/**
 * `diffCatalogs`: the registry diff. What changed between two catalogs (by content hash), how the
 * change moves the retriever's rankings of labelled cases (who took whose top-1, who dropped out
 * of the top k, which namespaces lost recall), near-duplicate tools in the new catalog, and
 * whether a review is required. "Adding a tool is a migration": a new tool can steal top-1 from
 * an existing one, and this names both.
 *
 * The report is a deterministic function of the inputs and options (same inputs, byte-identical
 * JSON); only `timings` (present when asked for) varies.
 */
import type { RoleMap } from '../catalog/roles.ts';
import { catalogHash } from '../catalog/manifest.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { InputError, setting } from '../util/errors.ts';
import type { Retriever, RetrieverOptions } from '../retrievers/types.ts';
import { DEFAULT_RANKINGS_DIR } from './cache.ts';
import { catalogChanges, statusMap, type CatalogChanges } from './changes.ts';
import { movement, type Dropout, type Figures, type MovedCase, type NamespaceDrop, type ReviewTool, type Takeover } from './movement.ts';
import {
  analysePairs,
  analysePairsFrom,
  DEFAULT_SIMILARITY,
  fewEnoughFresh,
  nearDuplicates,
  type NearDuplicateReport,
  type PairAnalysis,
} from './near-duplicates.ts';
import { readPairCache, writePairCache } from './pair-cache.ts';
import { rankBoth, type SideStats } from './rankings.ts';

export const DIFF_SCHEMA_VERSION = 1;
export const DEFAULT_DIFF_RETRIEVER = 'bm25';
export const DEFAULT_DIFF_K = 5;
/** Default review threshold: an existing tool losing top-1 on this many cases requires a review. */
export const DEFAULT_THRESHOLD = 1;

export interface DiffSide {
  /** How the user named it (a path or a dataset name): shown, never read again. */
  label: string;
  catalog: Catalog;
  /** `catalogHash(catalog)` when already known (a dataset's checked manifest); computed when absent. */
  catalogSha256?: string;
  roles?: RoleMap;
}

export interface DiffInput {
  old: DiffSide;
  new: DiffSide;
  /** Labelled cases, checked against the new catalog (or both). */
  cases: Case[];
  /** Where the cases came from (shown). */
  casesFrom: string;
}

export interface DiffOptions {
  retriever?: string;
  k?: number;
  threshold?: number;
  similarity?: number;
  retrieverOptions?: RetrieverOptions;
  /** Rankings cache folder (default `rankings/` in Backpack's cache folder), which also keeps the base catalog's near-duplicate pairs (`pair-cache.ts`); null: neither. */
  cacheDir?: string | null;
  /** Tests: build retrievers. */
  create?: (name: string, options: RetrieverOptions) => Retriever;
  /** Tests: force (or forbid) the tool-local shortcut. */
  toolLocal?: boolean;
  progress?: (stage: string, done: number, total: number) => void;
}

export interface DiffTimings {
  totalMs: number;
  loadMs?: number;
  old: SideStats;
  new: SideStats;
  nearDuplicatesMs: number;
  /** How the pairs were found: the whole catalog joined, or the added and changed tools compared with the old catalog's pairs. */
  nearDuplicatesFrom: 'whole catalog' | 'cached base' | 'base computed and cached';
}

export interface DiffReport {
  schemaVersion: number;
  old: { catalog: string; catalogSha256: string; tools: number };
  new: { catalog: string; catalogSha256: string; tools: number };
  cases: { from: string; total: number; toolLabelled: number; graded: number };
  retriever: { name: string; toolLocal: boolean; config: Record<string, unknown> };
  k: number;
  depth: number;
  changes: CatalogChanges;
  overall: { old: Figures; new: Figures };
  moved: { top1: number; topK: number };
  takeovers: Takeover[];
  dropouts: Dropout[];
  neverSurfaceNow: string[];
  namespaces: NamespaceDrop[];
  review: { required: boolean; threshold: number; rule: string; tools: ReviewTool[] };
  /** Every existing tool that lost top-1 on some case (the review looks at those at or above the threshold). */
  lostTop1: ReviewTool[];
  nearDuplicates: NearDuplicateReport;
  movedCases: MovedCase[];
  /** Varies run to run: only with `withTimings`. */
  timings?: DiffTimings;
}

export const REVIEW_RULE =
  'a review is required when a tool present in both catalogs loses top-1, as the labelled tool of the case and to a tool that is not, on at least `threshold` cases, or when a removed tool is the labelled tool of at least `threshold` cases (they lose their answer; a rename is reported beside it)';

export async function diffCatalogs(input: DiffInput, options: DiffOptions = {}): Promise<{ report: DiffReport; timings: DiffTimings }> {
  const t0 = performance.now();
  const retriever = options.retriever ?? DEFAULT_DIFF_RETRIEVER;
  const k = options.k ?? DEFAULT_DIFF_K;
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const similarity = options.similarity ?? DEFAULT_SIMILARITY;
  if (!Number.isInteger(k) || k < 1 || k > 1000) throw new InputError(`--k must be a whole number from 1 to 1000 (got ${k})`);
  if (!Number.isInteger(threshold) || threshold < 1) throw new InputError(`${setting('threshold')} must be a whole number ≥ 1 (got ${threshold})`);
  if (!(similarity > 0 && similarity <= 1)) throw new InputError(`${setting('similarity')} must be a number in (0, 1] (got ${similarity})`);
  const depth = Math.max(10, k);
  const changes = catalogChanges(input.old.catalog, input.new.catalog);
  const status = statusMap(changes, input.new.catalog);
  const oldSha = input.old.catalogSha256 ?? catalogHash(input.old.catalog);
  const newSha = input.new.catalogSha256 ?? catalogHash(input.new.catalog);
  const runs = await rankBoth(
    { catalog: input.old.catalog, catalogSha256: oldSha, ...(input.old.roles ? { roles: input.old.roles } : {}) },
    { catalog: input.new.catalog, catalogSha256: newSha, ...(input.new.roles ? { roles: input.new.roles } : {}) },
    input.cases,
    changes,
    {
      retriever,
      depth,
      cacheDir: options.cacheDir === undefined ? DEFAULT_RANKINGS_DIR : options.cacheDir,
      ...(options.retrieverOptions ? { retrieverOptions: options.retrieverOptions } : {}),
      ...(options.create ? { create: options.create } : {}),
      ...(options.toolLocal !== undefined ? { toolLocal: options.toolLocal } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
    },
  );
  const m = movement(input.cases, runs.old.rankings, runs.new.rankings, { old: input.old.catalog, new: input.new.catalog }, status, k);
  const t1 = performance.now();
  const focus = new Set([...changes.added, ...changes.changed].map((t) => t.id));
  const cacheDir = options.cacheDir === undefined ? DEFAULT_RANKINGS_DIR : options.cacheDir;
  const incremental = cacheDir !== null ? pairsFromBase(cacheDir, input.old.catalog, oldSha, input.new.catalog, focus, similarity) : undefined;
  const dups = nearDuplicates(input.new.catalog.tools, { similarity, focus, ...(incremental ? { analysis: incremental.analysis } : {}) });
  const nearDuplicatesMs = performance.now() - t1;
  // only labelled answers count: a tool that was the wrong answer losing top-1 is no regression
  const review = m.lostTop1.filter((r) => r.goldLost >= threshold);
  // a removed tool that cases name as their answer: they lose it whatever ranks now
  const labelled = new Map<string, number>();
  for (const c of input.cases) for (const id of new Set(c.expectedTools ?? [])) labelled.set(id, (labelled.get(id) ?? 0) + 1);
  for (const t of changes.removed) {
    const n = labelled.get(t.id) ?? 0;
    if (n >= threshold) review.push({ tool: t.id, status: 'removed', lostTop1: 0, goldLost: n });
  }
  const report: DiffReport = {
    schemaVersion: DIFF_SCHEMA_VERSION,
    old: { catalog: input.old.label, catalogSha256: oldSha, tools: input.old.catalog.tools.length },
    new: { catalog: input.new.label, catalogSha256: newSha, tools: input.new.catalog.tools.length },
    cases: { from: input.casesFrom, total: input.cases.length, toolLabelled: m.cases, graded: m.overall.new.graded },
    retriever: { name: retriever, toolLocal: runs.toolLocal, config: runs.config },
    k,
    depth,
    changes,
    overall: m.overall,
    moved: { top1: m.top1Changed, topK: m.topKChanged },
    takeovers: m.takeovers,
    dropouts: m.dropouts,
    neverSurfaceNow: m.neverSurfaceNow,
    namespaces: m.namespaces,
    review: { required: review.length > 0, threshold, rule: REVIEW_RULE, tools: review },
    lostTop1: m.lostTop1,
    nearDuplicates: dups,
    movedCases: m.moved,
  };
  const timings: DiffTimings = {
    totalMs: performance.now() - t0,
    old: runs.old.stats,
    new: runs.new.stats,
    nearDuplicatesMs,
    nearDuplicatesFrom: incremental === undefined ? 'whole catalog' : incremental.baseCached ? 'cached base' : 'base computed and cached',
  };
  return { report, timings };
}

/**
 * The new catalog's near-duplicate pairs from the old catalog's (read from the cache, or computed
 * and cached for the next diff from the same base), comparing only the added and changed tools;
 * undefined when those are too many for that to pay (`analysePairsFrom`).
 */
function pairsFromBase(
  cacheDir: string,
  old: Catalog,
  oldSha: string,
  next: Catalog,
  fresh: ReadonlySet<string>,
  similarity: number,
): { analysis: PairAnalysis; baseCached: boolean } | undefined {
  if (!fewEnoughFresh(fresh.size, next.tools.length)) return undefined;
  let base = readPairCache(cacheDir, oldSha, similarity);
  // The file is keyed by the old catalog's hash; it must also name exactly the old catalog's tools.
  if (base !== undefined) {
    const named = new Set(base.ids);
    if (named.size !== old.tools.length || !old.tools.every((t) => named.has(t.id))) base = undefined;
  }
  const baseCached = base !== undefined;
  if (base === undefined) {
    base = { ids: old.tools.map((t) => t.id), analysis: analysePairs(old.tools, similarity) };
    writePairCache(cacheDir, oldSha, base.ids, base.analysis);
  }
  const analysis = analysePairsFrom(base.analysis, base.ids, next.tools, fresh);
  return analysis ? { analysis, baseCached } : undefined;
}

/** The report as JSON text (2-space indent, trailing newline); with timings when given. */
export function diffJson(report: DiffReport, timings?: DiffTimings): string {
  return `${JSON.stringify(timings ? { ...report, timings: roundTimings(timings) } : report, null, 2)}\n`;
}

function roundTimings(t: DiffTimings): DiffTimings {
  const r = (x: number) => Math.round(x * 10) / 10;
  const side = (s: SideStats): SideStats => ({ ...s, indexMs: r(s.indexMs), searchMs: r(s.searchMs) });
  return {
    ...t,
    totalMs: r(t.totalMs),
    ...(t.loadMs !== undefined ? { loadMs: r(t.loadMs) } : {}),
    old: side(t.old),
    new: side(t.new),
    nearDuplicatesMs: r(t.nearDuplicatesMs),
  };
}
