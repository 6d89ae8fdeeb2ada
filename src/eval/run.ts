/**
 * The runner: every retriever over every case of the (shard of the) dataset, through the policy
 * layer, then the metrics. Deterministic except for timings.
 */
import { Policy } from '../retrievers/policy.ts';
import { createRetriever } from '../retrievers/registry.ts';
import { hasIndexStats, isDescribable, reportsIndexProgress, type Retriever, type RetrieverOptions } from '../retrievers/types.ts';
import type { EvalInput } from './input.ts';
import { catalogFacts, envelope, percentile, retrieverResults, type EvalConfig, type QueryDetail, type Results } from './results.ts';
import { casesOfShard, type Shard } from './shard.ts';
import type { Trace } from './traces.ts';

export interface RunOptions {
  shard?: Shard | null;
  traces?: ReadonlyMap<string, Trace>;
  /** Called as cases are searched: (retriever, done, total). */
  progress?: (retriever: string, done: number, total: number) => void;
  /** Build retrievers (tests pass their own); default: the registry. */
  create?: (name: string) => Retriever;
  /** Options for the registry's retrievers (`--model`). */
  retrieverOptions?: RetrieverOptions;
  /** Called while a retriever builds its index, when it reports progress: (retriever, done, total). */
  indexProgress?: (retriever: string, done: number, total: number) => void;
}

export interface EvalRun {
  results: Results;
  /** Per retriever, per case in dataset order. */
  details: Record<string, QueryDetail[]>;
}

/** Resolve the cut-offs and depth: ks ascending and unique, depth = max(ks, 10). */
export function makeConfig(retrievers: string[], ks: number[], floors: Record<string, number | null>, traces: string | null, sticky = false): EvalConfig {
  const sorted = [...new Set(ks)].sort((a, b) => a - b);
  return { retrievers, ks: sorted, depth: Math.max(10, sorted[sorted.length - 1] ?? 10), floors, ...(sticky ? { sticky: true } : {}), traces };
}

export async function runEval(input: EvalInput, config: EvalConfig, opts: RunOptions = {}): Promise<EvalRun> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const cases = casesOfShard(input.cases, opts.shard ?? null);
  const facts = catalogFacts(input.catalog);
  const create = opts.create ?? ((name: string) => createRetriever(name, { ...(input.roles ? { roles: input.roles } : {}), ...opts.retrieverOptions }));
  const results: Results['retrievers'] = {};
  const details: Record<string, QueryDetail[]> = {};
  for (const name of config.retrievers) {
    const retriever = create(name);
    // A fresh policy per retriever: sticky sessions must not carry one retriever's tool sets into the next.
    const policy = new Policy(input.catalog);
    if (opts.indexProgress) wireIndexProgress(retriever, (done, total) => opts.indexProgress!(name, done, total));
    const t0 = performance.now();
    await retriever.index(input.catalog);
    const indexMs = performance.now() - t0;
    const floor = config.floors[name] ?? undefined;
    const list: QueryDetail[] = [];
    opts.progress?.(name, 0, cases.length);
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      if (c.expectedTools === undefined) {
        // A skill-only case is not labelled for tools: nothing to search for.
        list.push({ caseId: c.id, ranked: [], pinned: [], leaks: [], ms: 0 });
        continue;
      }
      const q0 = performance.now();
      const exposure = await policy.expose(
        retriever,
        c.request,
        {
          ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}),
          ...(c.role !== undefined ? { role: c.role } : {}),
          ...(c.sessionId !== undefined ? { session: { id: c.sessionId, turn: c.turn ?? 0 } } : {}),
        },
        { depth: config.depth, ...(floor !== undefined ? { floor } : {}), ...(config.sticky ? { sticky: true } : {}) },
      );
      const ms = performance.now() - q0;
      list.push({ caseId: c.id, ranked: exposure.ranked.map((h) => [h.id, h.score]), pinned: exposure.pinned, leaks: exposure.leaks, ...(exposure.kept ? { kept: true } : {}), ms: round3(ms) });
      if ((i & 63) === 63 || i === cases.length - 1) opts.progress?.(name, i + 1, cases.length);
    }
    const ms = list.filter((_, j) => cases[j]!.expectedTools !== undefined).map((d) => d.ms);
    const latency = { indexMs: round3(indexMs), p50Ms: percentile(ms, 0.5), p95Ms: percentile(ms, 0.95), peakRssMb: peakRssMb(), ...indexCounters(retriever) };
    results[name] = retrieverResults(cases, list, facts, config, isDescribable(retriever) ? retriever.describe() : {}, latency, opts.traces);
    details[name] = list;
  }
  return {
    results: envelope({
      dataset: { name: input.name, source: input.source, catalogSha256: input.catalogSha256, tools: input.catalog.tools.length, cases: cases.length },
      config,
      shard: opts.shard && opts.shard.count > 1 ? { ...opts.shard } : null,
      retrievers: results,
      timings: { startedAt, durationMs: Date.now() - started },
    }),
    details,
  };
}

/** Numeric index counters of a retriever, or of the first of its children that has them. */
function indexCounters(r: Retriever): { index?: Record<string, number> } {
  if (hasIndexStats(r)) {
    const numbers = Object.entries(r.stats()).filter((e): e is [string, number] => typeof e[1] === 'number');
    if (numbers.length) return { index: Object.fromEntries(numbers) };
  }
  const children = (r as { children?: unknown }).children;
  if (Array.isArray(children)) for (const c of children) if (c && typeof (c as Retriever).search === 'function') {
    const found = indexCounters(c as Retriever);
    if (found.index) return found;
  }
  return {};
}

/** Hand an index-progress callback to a retriever and to the retrievers it is composed of. */
function wireIndexProgress(r: Retriever, cb: (done: number, total: number) => void): void {
  if (reportsIndexProgress(r)) r.setProgress(cb);
  const children = (r as { children?: unknown }).children;
  if (Array.isArray(children)) for (const c of children) if (c && typeof (c as Retriever).search === 'function') wireIndexProgress(c as Retriever, cb);
}

export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
