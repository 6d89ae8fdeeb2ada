/**
 * Merge the results of a sharded evaluation (`--shard i/n` on n machines) into the results an
 * unsharded run gives: the per-query details are put back in dataset order and the metrics
 * recomputed from them, so everything but timings is identical.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readTextFile } from '../util/bounded.ts';
import { InputError } from '../util/errors.ts';
import { parseJson } from '../util/jsonl.ts';
import { describeJson, isObject } from '../catalog/loaders/common.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import { EVAL_SNAPSHOT_FILE } from '../snapshot/for-catalog.ts';
import { runInputSource } from './files.ts';
import type { EvalInput } from './input.ts';
import { DEFAULT_CONTEXT_WINDOW } from '../profiles/types.ts';
import { DEFAULT_COUNTER } from '../tokens/count.ts';
import { retrieverTokens, TokenMeter } from './tokens.ts';
import type { DatasetSource } from './results.ts';
import { casesHash, catalogFacts, DEFAULT_CACHE_PRICES, envelope, percentile, type QueryDetail } from './results.ts';
import { catalogTokenTable, exposureMeans } from './profile-figures.ts';
import { profileResult, retrieverResult } from './assemble.ts';
import { skillsOfRun } from './skills.ts';
import type { EvalRun } from './run.ts';
import type { Trace } from './traces.ts';

/** The snapshot of an `mcpServers` configuration the shards were evaluated on (eval --catalog CONFIG). */
export interface ShardSnapshot {
  /** Where to load the catalog from now: the first shard's `catalog-snapshot.json`. */
  loadSource: DatasetSource;
  /** The source the merged results record: the snapshot copied into the merged folder `out`. */
  recordedSource(out: string): DatasetSource;
  /** Files to add to the merged folder. */
  files: Record<string, string>;
}

/** sha256 of a snapshot bundle without its `takenAt` fields: shards snapshot at different times. */
function snapshotSha256(text: string, file: string): string {
  const value = parseJson(text, file);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`a configuration snapshot must be a bundle {"snapshot":{…},"servers":[…]} (got ${describeJson(value)})`, { file, where: '$' });
  const bundle = value as { snapshot?: Record<string, unknown>; servers?: Array<{ snapshot?: Record<string, unknown> }> };
  const timeless = {
    ...bundle,
    ...(isObject(bundle.snapshot) ? { snapshot: { ...bundle.snapshot, takenAt: null } } : {}),
    ...(Array.isArray(bundle.servers)
      ? { servers: bundle.servers.map((s) => (isObject(s) && isObject(s.snapshot) ? { ...s, snapshot: { ...s.snapshot, takenAt: null } } : s)) }
      : {}),
  };
  return sha256(canonicalJson(timeless));
}

/**
 * When the shards were evaluated on a configuration (each keeps its snapshot as
 * `catalog-snapshot.json`): the snapshot to load and to copy into the merged folder, after checking
 * that every shard snapshotted the same servers and tools (same sha256 apart from the time fields).
 * Otherwise undefined.
 */
export function shardSnapshot(runs: ReadonlyArray<{ dir: string; run: EvalRun }>): ShardSnapshot | undefined {
  if (runs.length === 0) return undefined;
  const sources = runs.map(({ dir, run }) => runInputSource(dir, run.results));
  const first = sources[0]!;
  if (first.kind !== 'files' || basename(first.catalog) !== EVAL_SNAPSHOT_FILE) return undefined;
  let text = '';
  let firstSha = '';
  runs.forEach(({ dir }, i) => {
    const s = sources[i]!;
    if (s.kind !== 'files' || basename(s.catalog) !== EVAL_SNAPSHOT_FILE)
      throw new InputError('was not evaluated on a configuration snapshot, unlike the first shard', { file: dir });
    if (!existsSync(s.catalog)) throw new InputError(`the configuration snapshot ${EVAL_SNAPSHOT_FILE} is missing`, { file: dir });
    const t = readTextFile(s.catalog);
    const sha = snapshotSha256(t, s.catalog);
    if (i === 0) {
      text = t;
      firstSha = sha;
    } else if (sha !== firstSha) {
      throw new InputError(
        `its ${EVAL_SNAPSHOT_FILE} differs from the first shard's (sha256 ${sha.slice(0, 12)}… vs ${firstSha.slice(0, 12)}…, time fields aside): the servers listed other tools`,
        { file: dir },
      );
    }
  });
  return {
    loadSource: first,
    recordedSource: (out) => ({ ...first, catalog: join(resolve(out), EVAL_SNAPSHOT_FILE) }),
    files: { [EVAL_SNAPSHOT_FILE]: text },
  };
}

export async function mergeRuns(runs: ReadonlyArray<{ dir: string; run: EvalRun }>, input: EvalInput, traces?: ReadonlyMap<string, Trace>): Promise<EvalRun> {
  if (runs.length === 0) throw new InputError('nothing to merge: name the shard results folders');
  const first = runs[0]!.run.results;
  const count = first.shard?.count;
  const seenShards = new Set<number>();
  for (const { dir, run } of runs) {
    const r = run.results;
    if (!r.shard) throw new InputError('holds an unsharded run; merge takes the results of --shard i/n runs', { file: dir });
    if (r.configHash !== first.configHash)
      throw new InputError(`was run with another configuration (configHash ${r.configHash.slice(0, 12)}… vs ${first.configHash.slice(0, 12)}…)`, { file: dir });
    if (r.dataset.catalogSha256 !== input.catalogSha256)
      throw new InputError(
        `was run on another catalog (sha256 ${r.dataset.catalogSha256.slice(0, 12)}…, the dataset now has ${input.catalogSha256.slice(0, 12)}…)`,
        { file: dir },
      );
    if (r.shard.count !== count) throw new InputError(`is shard ${r.shard.index}/${r.shard.count}, others are of ${count}`, { file: dir });
    if (seenShards.has(r.shard.index)) throw new InputError(`shard ${r.shard.index}/${count} is given twice`, { file: dir });
    if (canonicalJson(r.dataset.reSigned ?? null) !== canonicalJson(first.dataset.reSigned ?? null)) {
      throw new InputError(
        'read the dataset folder re-signed otherwise than the first shard did (eval --re-sign between the shards): run every shard on the folder as it is now',
        { file: dir },
      );
    }
    seenShards.add(r.shard.index);
  }
  const missing = Array.from({ length: count! }, (_, i) => i + 1).filter((i) => !seenShards.has(i));
  if (missing.length) throw new InputError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`);

  const facts = catalogFacts(input.catalog);
  const config = first.config;
  const retrievers: EvalRun['results']['retrievers'] = {};
  const profiles: NonNullable<EvalRun['results']['profiles']> = {};
  const details: Record<string, QueryDetail[]> = {};
  /** A strategy's records over every shard, in the dataset's case order, with its merged latency. */
  const mergeOne = (name: string, kind: 'retriever' | 'profile') => {
    const byCase = new Map<string, QueryDetail>();
    for (const { run } of runs) for (const d of run.details[name] ?? []) byCase.set(d.caseId, d);
    const ordered = input.cases.filter((c) => byCase.has(c.id));
    if (ordered.length !== input.cases.length) {
      const gap = input.cases.find((c) => !byCase.has(c.id))!;
      throw new InputError(
        `the shards' details/${name}.jsonl cover ${ordered.length} of the dataset's ${input.cases.length} cases for ${kind} ${name} (case "${gap.id}" is in none): a shard's details are incomplete, or the shards were run on other cases`,
      );
    }
    const list = ordered.map((c) => byCase.get(c.id)!);
    const lat = runs.map(({ run }) => (kind === 'retriever' ? run.results.retrievers[name] : run.results.profiles?.[name])!.latency);
    const ms = list.map((d) => d.ms);
    const latency = {
      indexMs: Math.max(...lat.map((l) => l.indexMs)),
      p50Ms: percentile(ms, 0.5),
      p95Ms: percentile(ms, 0.95),
      peakRssMb: Math.max(...lat.map((l) => l.peakRssMb)),
    };
    const own = kind === 'retriever' ? first.retrievers[name]! : first.profiles![name]!;
    details[name] = list;
    return { cases: ordered, details: list, facts, config, own: own.config, latency, ...(traces ? { traces } : {}) };
  };
  const cache = config.cache ?? DEFAULT_CACHE_PRICES;
  const meter = new TokenMeter(input.catalog, 'anthropic', DEFAULT_COUNTER);
  for (const name of config.retrievers) {
    retrievers[name] = retrieverResult({
      ...mergeOne(name, 'retriever'),
      sessions: { sticky: config.sticky === true, placement: 'prefix', cache, retrieverTokens: retrieverTokens(meter) },
    });
  }
  for (const name of config.profiles ?? []) {
    const records = mergeOne(name, 'profile');
    const { exposure, tokens, calls } = first.profiles![name]!;
    const before = {
      total: tokens.beforeSearch,
      ...tokens.beforeSearchParts,
      ...(tokens.estimate ? { estimate: tokens.estimate.beforeSearch } : {}),
      ...(tokens.wire ? { wire: tokens.wire.beforeSearch } : {}),
    };
    const meta = {
      counter: tokens.counter,
      provider: tokens.provider,
      placement: tokens.placement as 'history' | 'prefix',
      search: exposure.search,
      ...(tokens.estimate ? { estimator: tokens.estimate.counter } : {}),
    };
    profiles[name] = profileResult({
      ...records,
      sessions: { sticky: config.sticky === true || exposure.sticky, placement: meta.placement, cache },
      searches: exposure.search,
      exposure: { ...exposure, perCase: exposureMeans(records.details) },
      before,
      meta,
      tokenCache: tokens.cache,
      ...(calls ? { protocol: calls.protocol } : {}),
    });
  }
  // over all cases: a shard without skill cases has no skills section, the whole run may
  const skills = await skillsOfRun(input.catalog, input.cases, config.contextWindow ?? DEFAULT_CONTEXT_WINDOW, config.skills);
  const startedAt = runs.map(({ run }) => run.results.timings.startedAt).sort()[0]!;
  // every shard read the whole input: the same warnings, said once, in shard order (not argument order)
  const byShard = [...runs].sort((a, b) => a.run.results.shard!.index - b.run.results.shard!.index);
  const warnings = [...new Set(byShard.flatMap(({ run }) => run.results.warnings ?? []))];
  return {
    results: envelope({
      dataset: { ...first.dataset, casesSha256: casesHash(input.cases), cases: input.cases.length },
      ...(warnings.length ? { warnings } : {}),
      config,
      shard: null,
      retrievers,
      ...(config.profiles?.length ? { profiles } : {}),
      tokenTable: catalogTokenTable(input.catalog),
      ...(skills ? { skills } : {}),
      timings: { startedAt, durationMs: runs.reduce((a, { run }) => a + run.results.timings.durationMs, 0) },
    }),
    details,
  };
}
