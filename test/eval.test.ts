import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleScope } from '../src/catalog/roles.ts';
import { readRunDir, writeRunDir } from '../src/eval/files.ts';
import type { EvalInput } from '../src/eval/input.ts';
import { mergeRuns, readShardFolder, type ShardFolder } from '../src/eval/merge.ts';
import { runRecords } from '../src/eval/case-records.ts';
import { makeConfig, runEval, type EvalRun } from '../src/eval/run.ts';
import { createRetriever } from '../src/retrievers/registry.ts';
import type { Retriever } from '../src/retrievers/types.ts';
import type { Case } from '../src/catalog/types.ts';
import { TokenMeter } from '../src/eval/tokens.ts';
import { SEARCH_TOOLS } from '../src/profiles/seed/index.ts';
import { Policy } from '../src/retrievers/policy.ts';
import type { Profile } from '../src/profiles/types.ts';
import { DEFAULT_COUNTER } from '../src/tokens/count.ts';
import { tinyInput, tempDir } from './helpers.ts';

const tmp = tempDir('eval');
const { g, input } = tinyInput();
const config = makeConfig(['bm25', 'bm25-plain'], [1, 3, 5, 10], { bm25: null, 'bm25-plain': null }, null);

/** Everything in results.json that must not vary between runs: all but timings and latency. */
function stable(run: EvalRun): unknown {
  const { timings: _t, ...rest } = run.results;
  const noLatency = <T extends { latency: unknown }>(m: Record<string, T>) =>
    Object.fromEntries(Object.entries(m).map(([n, r]) => [n, { ...r, latency: null }]));
  return { ...rest, retrievers: noLatency(rest.retrievers), ...(rest.profiles ? { profiles: noLatency(rest.profiles) } : {}) };
}

describe('profiles in an evaluation run', () => {
  const withRoles: EvalInput = { ...input, ...(g.dataset.roles ? { roles: g.dataset.roles } : {}) };
  // One query style for all (deferred's model would write keywords): deferred's search is then bm25's, to the case.
  const profileConfig = {
    ...makeConfig(['bm25'], [1, 5, 10], { bm25: null, static: null, deferred: null, 'role-gating': null }, null, false, ['static', 'deferred', 'role-gating']),
    queryStyle: 'raw' as const,
  };
  // The unsharded run, evaluated once for the two tests that read it.
  let whole: EvalRun;
  beforeAll(async () => {
    whole = await runEval(withRoles, profileConfig);
  });

  it('scores what reaches the model: visible for every profile, ranking metrics only where there is a search', () => {
    const run = whole;
    const p = run.results.profiles!;
    expect(Object.keys(p)).toEqual(['static', 'deferred', 'role-gating']);
    // static: every gold tool is in front of the model (gold tools are always within the caller's scopes).
    expect(p.static!.metrics.overall.visible).toBe(1);
    expect(p.static!.metrics.overall.top1).toBeUndefined();
    expect(p.static!.exposure).toMatchObject({ search: false, searchLimit: 0, unrestricted: { eagerTools: input.catalog.tools.length } });
    // deferred searches with bm25 under the same mask, 5 results: bm25's top-1 and recall@5 exactly.
    const bm25 = run.results.retrievers.bm25!.metrics.overall;
    expect(p.deferred!.metrics.overall.top1).toBe(bm25.top1);
    expect(p.deferred!.metrics.overall['recall@5']).toBe(bm25['recall@5']);
    expect(p.deferred!.metrics.overall['recall@10']).toBe(bm25['recall@5']); // a search returns 5
    expect(p.deferred!.metrics.overall.visible).toBeGreaterThanOrEqual(bm25['recall@5']!);
    expect(p.deferred!.exposure.perCase.loadedTools).toBeLessThanOrEqual(5);
    for (const d of run.details.deferred!) expect(d.ranked.length).toBeLessThanOrEqual(5);
    // role gating: a case's gold tool is visible iff the role sees it (or the caller has no role).
    const roles = g.dataset.roles!;
    const byId = new Map(input.catalog.tools.map((t) => [t.id, t]));
    let sum = 0;
    let n = 0;
    for (const c of input.cases) {
      if (!c.expectedTools?.length) continue;
      const scope = c.role !== undefined ? roleScope(roles, c.role) : undefined;
      const gold = [...new Set(c.expectedTools)];
      const seen = gold.filter((id) => !scope || scope.sees(byId.get(id)!)).length;
      sum += c.goldMode === 'any' ? (seen > 0 ? 1 : 0) : seen / gold.length;
      n++;
    }
    expect(p['role-gating']!.metrics.overall.visible).toBeCloseTo(sum / n, 12);
  });

  it('merged shards give the unsharded profile results, byte for byte', async () => {
    const parts: ShardFolder[] = [];
    for (let i = 1; i <= 2; i++) {
      const dir = join(tmp, `profile-shard-${i}`);
      writeRunDir(dir, await runEval(withRoles, profileConfig, { shard: { index: i, count: 2 } }), input.cases, input.catalog);
      parts.push(readShardFolder(dir));
    }
    expect(JSON.stringify(stable((await mergeRuns(parts)).run))).toBe(JSON.stringify(stable(whole)));
  });
});

describe('an evaluation run', () => {
  // One run of `config`, evaluated once: the first of the two runs compared, the run checked against
  // an independent computation, and the unsharded run the shards must merge into.
  let first: EvalRun;
  beforeAll(async () => {
    first = await runEval(input, config);
  });

  it('is deterministic apart from timings', async () => {
    const a = first;
    const b = await runEval(input, config);
    expect(JSON.stringify(stable(a))).toBe(JSON.stringify(stable(b)));
    expect(a.details.bm25!.map((d) => [d.caseId, d.ranked])).toEqual(b.details.bm25!.map((d) => [d.caseId, d.ranked]));
  });

  it('agrees with an independent computation from the TREC run, qrels and cases files', () => {
    const run = first;
    const dir = join(tmp, 'independent');
    writeRunDir(dir, run, input.cases, input.catalog);
    const pinned = new Set(input.catalog.tools.filter((t) => t.pinned).map((t) => t.id));
    const qrels = new Map<string, Set<string>>();
    for (const line of readFileSync(join(dir, 'runs/qrels.txt'), 'utf8').trim().split('\n')) {
      const [q, , doc, rel] = line.split(' ');
      if (Number(rel) > 0) qrels.set(q!, (qrels.get(q!) ?? new Set()).add(doc!));
    }
    const kinds = new Map<string, { expected: string; mode: string }>();
    for (const line of readFileSync(join(dir, 'runs/cases.tsv'), 'utf8').trim().split('\n').slice(1)) {
      const [q, expected, mode] = line.split('\t');
      kinds.set(q!, { expected: expected!, mode: mode! });
    }
    for (const name of config.retrievers) {
      const ranking = new Map<string, Array<{ doc: string; rank: number; score: number }>>();
      for (const line of readFileSync(join(dir, `runs/${name}.trec`), 'utf8')
        .trim()
        .split('\n')) {
        const [q, q0, doc, rank, score, tag] = line.split(' ');
        expect(q0).toBe('Q0');
        expect(tag).toBe(name);
        ranking.set(q!, [...(ranking.get(q!) ?? []), { doc: doc!, rank: Number(rank), score: Number(score) }]);
      }
      // trec_eval sorts by score: the score column must give Backpack's order
      for (const list of ranking.values()) for (let i = 1; i < list.length; i++) expect(list[i]!.score).toBeLessThan(list[i - 1]!.score);
      const docs = (q: string) => [...(ranking.get(q) ?? [])].sort((a, b) => b.score - a.score).map((x) => x.doc);
      let graded = 0;
      let top1 = 0;
      const recall: Record<number, number> = { 1: 0, 3: 0, 5: 0, 10: 0 };
      let rr = 0;
      let ndcg = 0;
      let noTool = 0;
      let fp = 0;
      let multi = 0;
      let allGold5 = 0;
      for (const [q, { expected, mode }] of kinds) {
        const ranked = docs(q);
        if (expected === 'none') {
          noTool++;
          if (ranked.some((d) => !pinned.has(d))) fp++;
          continue;
        }
        if (expected !== 'tool') continue;
        const gold = qrels.get(q)!;
        graded++;
        if (gold.has(ranked[0] ?? '')) top1++;
        for (const k of [1, 3, 5, 10]) {
          const found = ranked.slice(0, k).filter((d) => gold.has(d)).length;
          recall[k]! += mode === 'any' ? (found > 0 ? 1 : 0) : found / gold.size;
        }
        const first = ranked.slice(0, 10).findIndex((d) => gold.has(d));
        rr += first >= 0 ? 1 / (first + 1) : 0;
        if (mode === 'any') ndcg += first >= 0 ? 1 / Math.log2(first + 2) : 0;
        else {
          let dcg = 0;
          ranked.slice(0, 10).forEach((d, i) => (dcg += gold.has(d) ? 1 / Math.log2(i + 2) : 0));
          let idcg = 0;
          for (let i = 0; i < Math.min(gold.size, 10); i++) idcg += 1 / Math.log2(i + 2);
          ndcg += dcg / idcg;
        }
        if (mode === 'all' && gold.size >= 2) {
          multi++;
          if ([...gold].every((d) => ranked.slice(0, 5).includes(d))) allGold5++;
        }
      }
      const m = run.results.retrievers[name]!.metrics.overall;
      expect(graded).toBeGreaterThan(100);
      expect(noTool).toBeGreaterThan(30);
      expect(multi).toBeGreaterThan(5);
      expect(m.gradedCases).toBe(graded);
      expect(m.noToolCases).toBe(noTool);
      expect(m.top1).toBeCloseTo(top1 / graded, 12);
      for (const k of [1, 3, 5, 10]) expect(m[`recall@${k}`]).toBeCloseTo(recall[k]! / graded, 12);
      expect(m['mrr@10']).toBeCloseTo(rr / graded, 12);
      expect(m['ndcg@10']).toBeCloseTo(ndcg / graded, 12);
      expect(m.noToolFalsePositiveRate).toBeCloseTo(fp / noTool, 12);
      expect(m['allGold@5']).toBeCloseTo(allGold5 / multi, 12);
      expect(m.scopeLeakCount).toBe(0);
    }
  });

  it('merged shards give the metrics of the unsharded run, byte for byte', async () => {
    const whole = first;
    const parts: ShardFolder[] = [];
    for (let i = 1; i <= 3; i++) {
      const part = await runEval(input, config, { shard: { index: i, count: 3 } });
      expect(part.results.shard).toEqual({ index: i, count: 3 });
      const dir = join(tmp, `shard-${i}`);
      writeRunDir(dir, part, input.cases, input.catalog);
      parts.push(readShardFolder(dir));
    }
    const sizes = parts.map((p) => p.run.results.dataset.cases);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(input.cases.length);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    const merged = await mergeRuns(parts);
    expect(JSON.stringify(stable(merged.run))).toBe(JSON.stringify(stable(whole)));
    // the folder's records too: the whole input's cases in order, and the unsharded tool records
    expect(merged.records.cases).toEqual(input.cases);
    expect(merged.records).toEqual(runRecords(whole, input.cases, input.catalog));
    await expect(mergeRuns(parts.slice(0, 2))).rejects.toThrow(/shard 3\/3 missing/);
    await expect(mergeRuns([parts[0]!, parts[0]!])).rejects.toThrow(/given twice/);
    // a shard folder written before shards kept their cases' places
    const { shard: _positions, ...unplaced } = parts[1]!.records!;
    await expect(mergeRuns([parts[0]!, { ...parts[1]!, records: unplaced }, parts[2]!])).rejects.toThrow(/keeps no shard-positions\.json/);
  });

  it('keeps sticky sessions apart between retrievers: results do not depend on the retriever order', async () => {
    const sticky = (names: string[]) => makeConfig(names, [5], Object.fromEntries(names.map((n) => [n, null])), null, true);
    const alone = await runEval(input, sticky(['bm25']));
    const after = await runEval(input, sticky(['bm25-plain', 'bm25']));
    expect(after.results.retrievers.bm25!.metrics).toEqual(alone.results.retrievers.bm25!.metrics);
    expect(alone.details.bm25!.some((d) => d.kept)).toBe(true);
  });

  it("catches a retriever that ignores the caller's scopes", async () => {
    const leaky = (): Retriever => {
      const inner = createRetriever('bm25');
      return { name: 'leaky', index: (c) => inner.index(c), search: (q, ctx) => inner.search(q, { k: ctx.k }) };
    };
    const run = await runEval(input, makeConfig(['bm25', 'leaky'], [5], { bm25: null, leaky: null }, null), {
      create: (n) => (n === 'leaky' ? leaky() : createRetriever(n)),
    });
    expect(run.results.retrievers.bm25!.metrics.overall.scopeLeakCount).toBe(0);
    expect(run.results.retrievers.leaky!.metrics.overall.scopeLeakCount).toBeGreaterThan(0);
    // the leaked tools are withheld from what the model would see
    const scoped = input.cases.filter((c) => c.callerScopes);
    const byId = new Map(input.catalog.tools.map((t) => [t.id, t]));
    for (const d of run.details.leaky!.filter((x) => scoped.some((c) => c.id === x.caseId))) {
      const c = scoped.find((x) => x.id === d.caseId)!;
      for (const [id] of d.ranked) expect(byId.get(id)!.scopes.every((s) => c.callerScopes!.includes(s))).toBe(true);
    }
  });

  it('writes a results folder atomically and keeps the previous one when writing fails', async () => {
    const run = await runEval(input, makeConfig(['bm25'], [5], { bm25: null }, null));
    const dir = join(tmp, 'atomic');
    writeRunDir(dir, run, input.cases, input.catalog);
    const before = readFileSync(join(dir, 'results.json'), 'utf8');
    const broken: EvalRun = {
      ...run,
      results: {
        ...run.results,
        retrievers: {
          bm25: {
            ...run.results.retrievers.bm25!,
            config: {
              bad: {
                toJSON: () => {
                  throw new Error('disk full');
                },
              },
            },
          },
        },
      },
    };
    expect(() => writeRunDir(dir, broken, input.cases, input.catalog)).toThrow(/disk full/);
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe(before);
    expect(readdirSync(tmp).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(existsSync(join(dir, 'runs', 'bm25.trec'))).toBe(true);
    expect(existsSync(join(dir, 'never-surfaced', 'bm25.txt'))).toBe(true);
  });

  it('a writer killed between the two renames of a swap: the previous complete run is put back on the next read or write', async () => {
    const run = await runEval(input, makeConfig(['bm25'], [5], { bm25: null }, null));
    const dir = join(tmp, 'interrupted');
    writeRunDir(dir, run, input.cases, input.catalog);
    const before = readFileSync(join(dir, 'results.json'), 'utf8');
    // what a kill after `rename(dir, dir.old-PID)` leaves: no folder, the old one beside it (its writer gone)
    renameSync(dir, `${dir}.old-99999999`);
    const warnings: string[] = [];
    expect(readRunDir(dir, (m) => warnings.push(m)).results.configHash).toBe(run.results.configHash);
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe(before);
    expect(existsSync(`${dir}.old-99999999`)).toBe(false);
    expect(warnings.join('')).toMatch(/previous complete run is back in place/);
    // a folder left by a writer still running is not touched
    renameSync(dir, `${dir}.old-${process.pid}`);
    expect(() => readRunDir(dir)).toThrow(/no results.json/);
    renameSync(`${dir}.old-${process.pid}`, dir);
  });

  it('swaps in the results with what the writer adds (a report, timings) in one rename: a failure while adding keeps the previous complete folder', async () => {
    const run = await runEval(input, makeConfig(['bm25'], [5], { bm25: null }, null));
    const dir = join(tmp, 'atomic-fill');
    writeRunDir(dir, run, input.cases, input.catalog, {}, (t) => writeFileSync(join(t, 'timings.json'), '{"v":1}\n'));
    expect(readFileSync(join(dir, 'timings.json'), 'utf8')).toBe('{"v":1}\n');
    const before = readFileSync(join(dir, 'results.json'), 'utf8');
    // the report stage dies after writing part of its files
    expect(() =>
      writeRunDir(dir, run, input.cases, input.catalog, {}, (t) => {
        writeFileSync(join(t, 'timings.json'), '{"v":2}\n');
        throw new Error('killed while writing the report');
      }),
    ).toThrow(/killed/);
    expect(readFileSync(join(dir, 'timings.json'), 'utf8')).toBe('{"v":1}\n');
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe(before);
    expect(readdirSync(tmp).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });
});

describe('model calls, code-mode callable tools, expansions, wire tokens, query style and default floors in a run', () => {
  // A probe profile whose every figure is hand-checkable: tool 0 is what its search finds (tool 1
  // scores under its default floor), tool 2 is callable from its advertisement, tool 3 crosses the
  // wire unread, tool 4 comes with every search beyond the ranking (an expansion).
  // (MCP and plugin tools: the harness's own core tools would count as pinned for the no-tool FP)
  const tools = input.catalog.tools.filter((t) => !t.pinned && t.source !== 'core').slice(0, 5);
  const [t0, t1, t2, t3, t4] = tools.map((t) => t.id) as [string, string, string, string, string];
  const queries: string[] = [];
  const probe = (name: string): Profile => ({
    name,
    searchLimit: 5,
    calls: { search: 1, perFoundTool: 1, perNamespace: 1, call: 'each' },
    queryStyle: 'keywords',
    defaultFloor: 0.5,
    async index() {},
    searcher: () => ({
      name: 'probe-search',
      async index() {},
      async search(q: string) {
        queries.push(q);
        return [
          { id: t0, score: 1 },
          { id: t1, score: 0.25 },
        ];
      },
    }),
    beforeSearch: () => ({ eager: [], metaTools: [SEARCH_TOOLS], advertisement: '', callable: [t2], wire: [t3] }),
    afterSearch: (hits) => ({ form: 'metadata', loaded: [...hits.map((h) => h.id), t4], text: 'x', searches: 2, namespacesOpened: 1 }),
    describe: () => ({}),
  });
  const cases: Case[] = [
    { id: 'c1', request: 'please find the Alpha report 42', expectedTools: [t0], slices: [] },
    { id: 'c2', request: 'run the Bravo export', expectedTools: [t2], slices: [] },
    { id: 'c3', request: 'open the Charlie board', expectedTools: [t4], slices: [] },
    { id: 'c4', request: 'thanks!', expectedTools: [], slices: ['no-tool'] },
  ];
  const probeInput: EvalInput = { ...input, cases };

  it('counts calls from the protocol, sees callable and expanded gold tools, reports wire tokens apart, sends keywords and applies the default floor', async () => {
    queries.length = 0;
    const run = await runEval(probeInput, makeConfig([], [1, 5], {}, null, false, ['probe']), { createProfile: probe });
    const p = run.results.profiles!.probe!;
    expect(queries).toEqual(['find Alpha report', 'run Bravo export', 'open Charlie board']);
    expect(run.details.probe!.map((d) => d.ranked.map(([id]) => id))).toEqual([[t0], [t0], [t0], []]);
    expect(p.metrics.overall.visible).toBe(1);
    expect(p.exposure.queryStyle).toBe('keywords');
    // c1: 2 searches + 1 namespace + 1 load (t0 found) + 1 call = 5; c2: t2 is callable, no load: 4; c3: t4 expanded: 5
    expect(run.details.probe!.map((d) => d.exposure!.calls)).toEqual([
      { searches: 2, total: 5 },
      { searches: 2, total: 4 },
      { searches: 2, total: 5 },
      { searches: 0, total: 0 },
    ]);
    expect(p.calls).toMatchObject({ perCase: 14 / 3, searchesPerCase: 2, noToolPerCase: 0, perSession: 12 * (14 / 4), sessionBasis: 'cases' });
    const wire = new TokenMeter(input.catalog, 'anthropic', DEFAULT_COUNTER).toolTokens(t3);
    expect(p.tokens.wire).toEqual({ beforeSearch: wire, perCase: wire });
    // the callable tool is a non-pinned tool in front of the model: the no-tool case is a false positive
    expect(p.metrics.overall.noToolFalsePositiveRate).toBe(1);
  });

  it('a no-tool case is a false positive of the search when the search expands a non-pinned tool, even with an empty ranking', async () => {
    const expander = (name: string): Profile => ({
      ...probe(name),
      searcher: () => ({ name: 'below-floor', async index() {}, search: async () => [{ id: t1, score: 0.25 }] }),
      beforeSearch: () => ({ eager: [], metaTools: [SEARCH_TOOLS], advertisement: '' }),
    });
    const noTool: Case[] = [{ id: 'n1', request: 'describe the weather on Mars', expectedTools: [], slices: ['no-tool'] }];
    const run = await runEval({ ...input, cases: noTool }, makeConfig([], [1, 5], {}, null, false, ['expander']), { createProfile: expander });
    expect(run.details.expander![0]!.ranked).toEqual([]);
    expect(run.details.expander![0]!.exposure!.loadedUnpinned).toBe(1);
    expect(run.results.profiles!.expander!.metrics.overall.noToolFalsePositiveRate).toBe(1);
    expect(run.results.profiles!.expander!.metrics.overall.searchNoToolFalsePositiveRate).toBe(1);
  });

  it("the harness's own core tools listed eagerly count as pinned for the no-tool FP and are reported apart with their tokens; any other eager tool still makes every no-tool case a false positive", async () => {
    const core = input.catalog.tools.filter((t) => t.source === 'core' && !t.pinned).map((t) => t.id);
    expect(core.length).toBeGreaterThan(1);
    const other = input.catalog.tools.find((t) => t.source !== 'core')!.id;
    // the search finds t0 on the first no-tool case only
    const lister =
      (eager: string[]) =>
      (name: string): Profile => ({
        ...probe(name),
        searcher: () => ({ name: 'first-only', async index() {}, search: async (q: string) => (q.includes('Mars') ? [{ id: t0, score: 1 }] : []) }),
        beforeSearch: () => ({ eager, metaTools: [SEARCH_TOOLS], advertisement: '' }),
        afterSearch: (hits) => ({ form: 'metadata', loaded: hits.map((h) => h.id), text: 'x' }),
      });
    const noTool: Case[] = [
      { id: 'n1', request: 'describe the weather on Mars', expectedTools: [], slices: ['no-tool'] },
      { id: 'n2', request: 'thanks, that is all', expectedTools: [], slices: ['no-tool'] },
      { id: 'n3', request: 'good morning to you', expectedTools: [], slices: ['no-tool'] },
      { id: 'n4', request: 'tell me a joke please', expectedTools: [], slices: ['no-tool'] },
    ];
    const cfg = { ...makeConfig([], [1, 5], {}, null, false, ['lister']), queryStyle: 'raw' as const };
    const coreOnly = await runEval({ ...input, cases: noTool }, cfg, { createProfile: lister(core) });
    const p = coreOnly.results.profiles!.lister!;
    // one of four no-tool cases got a search hit: 0.25, and nothing more for the core tools
    expect(p.metrics.overall.searchNoToolFalsePositiveRate).toBe(0.25);
    expect(p.metrics.overall.noToolFalsePositiveRate).toBe(0.25);
    const meter = new TokenMeter(input.catalog, 'anthropic', DEFAULT_COUNTER);
    expect(p.exposure.coreEager).toEqual({ tools: core.length, tokens: core.reduce((a, id) => a + meter.toolTokens(id), 0) });
    expect(coreOnly.details.lister!.map((d) => [d.exposure!.eagerUnpinned, d.exposure!.coreEager])).toEqual(noTool.map(() => [core.length, core.length]));
    // one MCP or plugin tool listed beside them: every no-tool case is a false positive again
    const withOther = await runEval({ ...input, cases: noTool }, cfg, { createProfile: lister([...core, other]) });
    expect(withOther.results.profiles!.lister!.metrics.overall.noToolFalsePositiveRate).toBe(1);
    expect(withOther.results.profiles!.lister!.metrics.overall.searchNoToolFalsePositiveRate).toBe(0.25);
  });

  it('a floor the run configures wins over the default, and --query-style raw sends the request', async () => {
    queries.length = 0;
    const run = await runEval(probeInput, { ...makeConfig([], [1, 5], { probe: null }, null, false, ['probe']), queryStyle: 'raw' }, { createProfile: probe });
    expect(queries).toEqual(cases.map((c) => c.request));
    expect(run.details.probe![0]!.ranked.map(([id]) => id)).toEqual([t0, t1]);
    expect(run.results.profiles!.probe!.exposure.queryStyle).toBe('raw');
  });
});

describe('scope leaks wherever they happen', () => {
  // One restricted caller; a profile that plants a tool the caller's scopes forbid in one place of
  // what it shows: scopeLeakCount must see it wherever it is.
  const restricted = input.cases.find((c) => c.callerScopes && c.expectedTools?.length)!;
  const mask = new Policy(input.catalog).allowedMask(restricted.callerScopes)!;
  const forbidden = input.catalog.tools.find((t, i) => mask[i] !== 1 && !t.pinned)!.id;
  const permitted = input.catalog.tools.find((t, i) => mask[i] === 1 && !t.pinned)!.id;
  type Plant = 'eager' | 'callable' | 'wire' | 'advertisement' | 'long advertisement' | 'loaded' | 'none';
  const planted =
    (where: Plant) =>
    (name: string): Profile => ({
      name,
      searchLimit: 5,
      calls: { search: 1, perFoundTool: 0, call: 'each' },
      queryStyle: 'raw',
      async index() {},
      searcher: () => ({ name: 'one', async index() {}, search: async () => [{ id: permitted, score: 1 }] }),
      beforeSearch: (caller) => {
        // a correct profile masks its lists; the planted one forgets the mask for one of them
        const leak = caller.allowed ? [forbidden] : [];
        return {
          eager: where === 'eager' ? leak : [],
          metaTools: [SEARCH_TOOLS],
          advertisement:
            where === 'advertisement'
              ? `Deferred tools:\n- ${leak.join('\n- ')}: does things\n`
              : where === 'long advertisement'
                ? // over 20,000 characters: scanned line by line, each distinct line once
                  `Deferred tools:\n${`- ${permitted}: does things\n`.repeat(800)}- ${leak.join('\n- ')}: does things\n${`- ${permitted}: does things\n`.repeat(800)}`
                : '',
          ...(where === 'callable' ? { callable: leak } : {}),
          ...(where === 'wire' ? { wire: leak } : {}),
        };
      },
      afterSearch: (hits) => ({ form: 'schemas', loaded: [...hits.map((h) => h.id), ...(where === 'loaded' ? [forbidden] : [])], text: '' }),
      describe: () => ({}),
    });

  it.each(['eager', 'callable', 'wire', 'advertisement', 'long advertisement', 'loaded'] as const)(
    'a tool the scopes forbid, planted in %s, is a leak of the restricted case',
    async (where) => {
      const run = await runEval({ ...input, cases: [restricted] }, makeConfig([], [1, 5], {}, null, false, ['leaky']), { createProfile: planted(where) });
      expect(run.details.leaky![0]!.leaks).toEqual([forbidden]);
      expect(run.results.profiles!.leaky!.metrics.overall.scopeLeakCount).toBe(1);
    },
  );

  it('a profile that keeps to the scopes has none, and an unrestricted caller cannot leak', async () => {
    const unrestricted: Case = { ...restricted, id: 'open' };
    delete (unrestricted as { callerScopes?: unknown }).callerScopes;
    const run = await runEval({ ...input, cases: [restricted, unrestricted] }, makeConfig([], [1, 5], {}, null, false, ['leaky']), {
      createProfile: planted('none'),
    });
    expect(run.results.profiles!.leaky!.metrics.overall.scopeLeakCount).toBe(0);
    // the built-in profiles keep to the scopes on every case of the tiny company that has scopes (only
    // those can leak, as the run above shows), with the whole session of any that is in one
    const sessions = new Set(input.cases.filter((c) => c.callerScopes).map((c) => c.sessionId));
    const scoped = input.cases.filter((c) => c.callerScopes || (c.sessionId !== undefined && sessions.has(c.sessionId)));
    expect(scoped.length).toBeGreaterThanOrEqual(20);
    const all = await runEval(
      { ...input, cases: scoped },
      makeConfig([], [1, 5], {}, null, false, ['static', 'codex', 'claude-code', 'hermes', 'deepseek-code', 'deferred', 'namespace-routing']),
    );
    for (const [name, p] of Object.entries(all.results.profiles!)) expect(p.metrics.overall.scopeLeakCount, name).toBe(0);
  });
});
