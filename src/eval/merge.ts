/**
 * Merge the results of a sharded evaluation (`--shard i/n` on n machines) into the results an
 * unsharded run gives, from the shards' results folders alone (no dataset): the per-query details
 * are put back in the input's order (`shard-positions.json`) and the metrics recomputed from them,
 * so everything but timings is identical.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { readTextFile } from '../util/bounded.ts';
import { InputError, setting } from '../util/errors.ts';
import { parseJson } from '../util/jsonl.ts';
import { describeJson, isObject } from '../catalog/loaders/common.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import { EVAL_SNAPSHOT_FILE } from '../snapshot/for-catalog.ts';
import type { Case } from '../catalog/types.ts';
import { readRunFolder, runInputSource } from './files.ts';
import type { DatasetSource } from './results.ts';
import { casesHash, DEFAULT_CACHE_PRICES, envelope, percentile, type QueryDetail } from './results.ts';
import { exposureMeans } from './profile-figures.ts';
import { profileResult, retrieverResult } from './assemble.ts';
import { type CaseRecords, CASES_FILE, factsOfRecords, SHARD_POSITIONS_FILE, TOOLS_FILE, type ToolRecord } from './case-records.ts';
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

/** One shard's results folder, read: its run and the case and tool records it keeps. */
export interface ShardFolder {
  dir: string;
  run: EvalRun;
  /** `cases.jsonl`, `tools.jsonl` and `shard-positions.json` (undefined: a folder written before shards kept them). */
  records: CaseRecords | undefined;
}

/** A shard's results folder, read and checked (`readRunFolder`). */
export function readShardFolder(dir: string, warn?: (message: string) => void): ShardFolder {
  // the records readRunFolder checked the details against (every case id of the details among them)
  const { run, records } = readRunFolder(dir, warn);
  return { dir, run, records };
}

/** What a merge gives: the run an unsharded evaluation would have given, and the case and tool records of its folder. */
export interface MergedRun {
  run: EvalRun;
  records: CaseRecords;
}

/**
 * The shards' cases back in the order of the whole input (each shard keeps where its cases stand),
 * checked: every place filled once, and the same cases hash the shards recorded.
 */
function inputCases(shards: ReadonlyArray<ShardFolder>, casesSha256: string | undefined): Case[] {
  const total = shards[0]!.records!.shard!.inputCases;
  const placed: Array<Case | undefined> = new Array(total);
  for (const { dir, records } of shards) {
    const { shard, cases } = records!;
    if (shard!.inputCases !== total)
      throw new InputError(`${SHARD_POSITIONS_FILE} says the input has ${shard!.inputCases} cases, the first shard's says ${total}`, { file: dir });
    shard!.positions.forEach((p, i) => {
      if (placed[p] !== undefined) throw new InputError(`case place ${p} is taken by two shards ("${placed[p]!.id}" and "${cases[i]!.id}")`, { file: dir });
      placed[p] = cases[i]!;
    });
  }
  const gap = placed.findIndex((c) => c === undefined);
  if (gap >= 0 || placed.length !== total)
    throw new InputError(
      `the shards cover ${placed.filter(Boolean).length} of the input's ${total} cases (place ${gap} is in none): a shard's results are incomplete`,
    );
  const ordered = placed as Case[];
  if (casesSha256 !== undefined && casesHash(ordered) !== casesSha256)
    throw new InputError(`the shards' ${CASES_FILE} files, put back in order, are not the cases the shards were run on (cases sha256 differs)`);
  return ordered;
}

/** Every shard's tool records (the same tools, in the same order), with the summaries of every shard's gold tools. */
function mergedTools(shards: ReadonlyArray<ShardFolder>): ToolRecord[] {
  const summaries = new Map<string, string>();
  for (const { records } of shards) for (const t of records!.tools) if (t.summary !== undefined && !summaries.has(t.id)) summaries.set(t.id, t.summary);
  const first = shards[0]!.records!.tools;
  for (const { dir, records } of shards) {
    const tools = records!.tools;
    const odd = tools.length !== first.length ? Math.min(tools.length, first.length) : tools.findIndex((t, i) => t.id !== first[i]!.id);
    if (odd >= 0)
      throw new InputError(`its ${TOOLS_FILE} lists other tools than the first shard's (from line ${odd + 1}): the shards were run on other catalogs`, {
        file: dir,
      });
  }
  return first.map(({ summary: _s, ...t }) => ({ ...t, ...(summaries.has(t.id) ? { summary: summaries.get(t.id)! } : {}) }));
}

/**
 * Merge the results folders of every shard of one run (`eval --shard i/n`, n folders) into the run
 * an unsharded evaluation gives, from the folders alone: the cases back in input order, each
 * strategy's records assembled as the runner does, the skill comparison and token table the shards
 * carry (computed over the whole input). `loadTraces`: reads the agent traces the shards replayed, checked against the merged cases and tools.
 */
export async function mergeRuns(
  shards: ReadonlyArray<ShardFolder>,
  loadTraces?: (cases: readonly Case[], tools: readonly ToolRecord[]) => ReadonlyMap<string, Trace>,
): Promise<MergedRun> {
  if (shards.length === 0) throw new InputError('nothing to merge: name the shard results folders');
  const first = shards[0]!.run.results;
  const count = first.shard?.count;
  const seenShards = new Set<number>();
  for (const { dir, run, records } of shards) {
    const r = run.results;
    if (!r.shard) throw new InputError(`holds an unsharded run; merge takes the results of ${setting('shard')} i/n runs`, { file: dir });
    if (r.configHash !== first.configHash)
      throw new InputError(`was run with another configuration (configHash ${r.configHash.slice(0, 12)}… vs ${first.configHash.slice(0, 12)}…)`, { file: dir });
    if (r.dataset.catalogSha256 !== first.dataset.catalogSha256)
      throw new InputError(
        `was run on another catalog than the first shard (sha256 ${r.dataset.catalogSha256.slice(0, 12)}… vs ${first.dataset.catalogSha256.slice(0, 12)}…)`,
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
    if (r.dataset.casesSha256 !== first.dataset.casesSha256)
      throw new InputError(
        `was run on other cases than the first shard (cases sha256 ${r.dataset.casesSha256?.slice(0, 12)}… vs ${first.dataset.casesSha256?.slice(0, 12)}…)`,
        { file: dir },
      );
    if (!records?.shard)
      throw new InputError(
        `keeps no ${records ? SHARD_POSITIONS_FILE : `${CASES_FILE} and ${TOOLS_FILE}`} (written by an earlier Backpack): run the shards again with this version to merge them`,
        { file: dir },
      );
    seenShards.add(r.shard.index);
  }
  const missing = Array.from({ length: count! }, (_, i) => i + 1).filter((i) => !seenShards.has(i));
  if (missing.length) throw new InputError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`);

  const cases = inputCases(shards, first.dataset.casesSha256);
  const tools = mergedTools(shards);
  const facts = factsOfRecords(tools);
  const traces = loadTraces?.(cases, tools);
  const config = first.config;
  const retrievers: EvalRun['results']['retrievers'] = {};
  const profiles: NonNullable<EvalRun['results']['profiles']> = {};
  const details: Record<string, QueryDetail[]> = {};
  /** A strategy's records over every shard, in the input's case order, with its merged latency. */
  const mergeOne = (name: string, kind: 'retriever' | 'profile') => {
    const byCase = new Map<string, QueryDetail>();
    for (const { run } of shards) for (const d of run.details[name] ?? []) byCase.set(d.caseId, d);
    const gap = cases.find((c) => !byCase.has(c.id));
    if (gap) throw new InputError(`the shards' details/${name}.jsonl have no record of case "${gap.id}" for ${kind} ${name}: a shard's details are incomplete`);
    const list = cases.map((c) => byCase.get(c.id)!);
    const lat = shards.map(({ run }) => (kind === 'retriever' ? run.results.retrievers[name] : run.results.profiles?.[name])!.latency);
    const ms = list.map((d) => d.ms);
    const latency = {
      indexMs: Math.max(...lat.map((l) => l.indexMs)),
      p50Ms: percentile(ms, 0.5),
      p95Ms: percentile(ms, 0.95),
      peakRssMb: Math.max(...lat.map((l) => l.peakRssMb)),
    };
    const own = kind === 'retriever' ? first.retrievers[name]! : first.profiles![name]!;
    details[name] = list;
    return { cases, details: list, facts, config, own: own.config, latency, ...(traces ? { traces } : {}) };
  };
  const cache = config.cache ?? DEFAULT_CACHE_PRICES;
  for (const name of config.retrievers) {
    retrievers[name] = retrieverResult({ ...mergeOne(name, 'retriever'), sessions: { sticky: config.sticky === true, placement: 'prefix', cache } });
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
  const startedAt = shards.map(({ run }) => run.results.timings.startedAt).sort()[0]!;
  // Every shard read the whole input: the same warnings, said once, in shard order (not argument
  // order); the same token table and skill comparison (both over the whole input), taken from shard 1.
  const byShard = [...shards].sort((a, b) => a.run.results.shard!.index - b.run.results.shard!.index);
  const warnings = [...new Set(byShard.flatMap(({ run }) => run.results.warnings ?? []))];
  const { tokenTable, skills } = byShard[0]!.run.results;
  return {
    run: {
      results: envelope({
        dataset: { ...first.dataset, cases: cases.length },
        ...(warnings.length ? { warnings } : {}),
        config,
        shard: null,
        retrievers,
        ...(config.profiles?.length ? { profiles } : {}),
        tokenTable,
        ...(skills ? { skills } : {}),
        timings: { startedAt, durationMs: shards.reduce((a, { run }) => a + run.results.timings.durationMs, 0) },
      }),
      details,
    },
    records: { cases, tools },
  };
}
