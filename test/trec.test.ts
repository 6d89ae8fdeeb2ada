/**
 * The TREC export (`runs/qrels.txt`, `runs/<retriever>.trec`) evaluated from the files alone the
 * way `trec_eval -c -m P.1 -m recip_rank -m recall.5 -m ndcg_cut.10` does (docs/trec.md), against
 * results.json: on an evaluation whose floor leaves some cases with an empty ranking, with a case
 * that lists a gold tool twice, and with goldMode 'any' cases, which TREC qrels cannot represent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Case } from '../src/catalog/types.ts';
import { trecQrels, trecRun, writeRunDir } from '../src/eval/files.ts';
import type { EvalInput } from '../src/eval/input.ts';
import type { QueryDetail } from '../src/eval/results.ts';
import { makeConfig, runEval, type EvalRun } from '../src/eval/run.ts';
import { ndcgAtK, recallAtK } from '../src/metrics/ranking.ts';
import { tempDir, tinyInput } from './helpers.ts';

// ---------------------------------------------------------------------------------------------
// A small trec_eval (9.0.4 and later; measures as in its m_*.c, input checks as in form_res_rels.c)

interface TrecFigures {
  'P.1': number;
  recip_rank: number;
  'recall.5': number;
  'ndcg_cut.10': number;
}
const MEASURES = ['P.1', 'recip_rank', 'recall.5', 'ndcg_cut.10'] as const;

/** qrels: qid → docno → relevance; a (qid, docno) given twice is an error, as in trec_eval. */
function parseQrels(text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 4) throw new Error(`malformed qrels line: ${line}`);
    const [qid, , docno, rel] = fields as [string, string, string, string];
    const judged = qrels.get(qid) ?? new Map<string, number>();
    if (judged.has(docno)) throw new Error(`trec_eval.form_res_rels: duplicate docs ${docno}`);
    judged.set(docno, Number(rel));
    qrels.set(qid, judged);
  }
  return qrels;
}

/**
 * run: qid → docnos in trec_eval's order, which ignores the rank column: score descending, ties
 * broken by docno descending; a docno twice for a qid is an error.
 */
function parseRun(text: string): Map<string, string[]> {
  const byQid = new Map<string, Array<{ docno: string; sim: number }>>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 6) throw new Error(`malformed run line: ${line}`);
    const [qid, , docno, , sim] = fields as [string, string, string, string, string];
    byQid.set(qid, [...(byQid.get(qid) ?? []), { docno, sim: Number(sim) }]);
  }
  const run = new Map<string, string[]>();
  for (const [qid, docs] of byQid) {
    docs.sort((a, b) => (a.sim !== b.sim ? b.sim - a.sim : a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0));
    const ids = docs.map((d) => d.docno);
    if (new Set(ids).size !== ids.length) throw new Error(`trec_eval.form_res_qrels: duplicate docs in ${qid}`);
    run.set(qid, ids);
  }
  return run;
}

/** One query's figures; relevance level 1 (rel ≥ 1 is relevant, the gain is the rel value). */
function figures(ranked: readonly string[], judged: ReadonlyMap<string, number>): TrecFigures {
  const rel = (d: string) => judged.get(d) ?? 0;
  const numRel = [...judged.values()].filter((r) => r >= 1).length;
  const first = ranked.findIndex((d) => rel(d) >= 1);
  let dcg = 0;
  ranked.slice(0, 10).forEach((d, i) => {
    if (rel(d) > 0) dcg += rel(d) / Math.log2(i + 2);
  });
  let idcg = 0;
  [...judged.values()]
    .filter((r) => r > 0)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .forEach((g, i) => (idcg += g / Math.log2(i + 2)));
  return {
    'P.1': ranked.slice(0, 1).filter((d) => rel(d) >= 1).length,
    recip_rank: first < 0 ? 0 : 1 / (first + 1),
    'recall.5': numRel ? ranked.slice(0, 5).filter((d) => rel(d) >= 1).length / numRel : 0,
    'ndcg_cut.10': idcg > 0 ? dcg / idcg : dcg,
  };
}

/**
 * trec_eval over qrels and a run. `complete` (-c): every qid of the qrels counts, one missing from
 * the run scores 0; without it only qids in both count. A run qid without qrels never counts.
 */
function trecEval(qrelsText: string, runText: string, complete: boolean): { perQuery: Map<string, TrecFigures>; mean: TrecFigures; queries: number } {
  const qrels = parseQrels(qrelsText);
  const run = parseRun(runText);
  const perQuery = new Map<string, TrecFigures>();
  for (const [qid, judged] of qrels) {
    const ranked = run.get(qid);
    if (ranked === undefined && !complete) continue;
    perQuery.set(qid, figures(ranked ?? [], judged));
  }
  const mean = Object.fromEntries(MEASURES.map((m) => [m, [...perQuery.values()].reduce((s, f) => s + f[m], 0) / perQuery.size])) as unknown as TrecFigures;
  return { perQuery, mean, queries: perQuery.size };
}

// ---------------------------------------------------------------------------------------------

const tmp = tempDir('trec');

function aCase(id: string, expectedTools: string[] | undefined, goldMode?: 'all' | 'any'): Case {
  return { id, request: id, slices: [], ...(expectedTools ? { expectedTools } : {}), ...(goldMode ? { goldMode } : {}) };
}

function detail(caseId: string, ids: string[]): QueryDetail {
  return { caseId, ranked: ids.map((id, i) => [id, 1 - i / 100]), pinned: [], leaks: [], ms: 0 };
}

describe('TREC qrels and run', () => {
  it('write each (qid, docid) judgement once, in first-occurrence order, graded cases only', () => {
    const cases = [aCase('a', ['x', 'y', 'x']), aCase('none', []), aCase('skill', undefined), aCase('d', ['z', 'z', 'z']), aCase('e', ['y', 'x'], 'any')];
    expect(trecQrels(cases)).toBe('a 0 x 1\na 0 y 1\nd 0 z 1\ne 0 y 1\ne 0 x 1\n');
    expect(trecQrels(cases)).toBe(trecQrels(cases));
    expect(trecQrels([aCase('none', [])])).toBe('');
  });

  it('give an empty ranking no line, and a strictly decreasing score along the ranking', () => {
    const run = trecRun([detail('a', ['x', 'y']), detail('empty', []), detail('b', ['z'])], 'bm25', 10);
    expect(run).toBe('a Q0 x 1 10 bm25\na Q0 y 2 9 bm25\nb Q0 z 1 10 bm25\n');
    expect(trecRun([detail('empty', [])], 'bm25', 10)).toBe('');
  });

  it("match Backpack's kernels under goldMode 'all'; under 'any' with several alternatives recall.5 is lower and ndcg_cut.10 differs either way", () => {
    const cases = [
      aCase('all', ['a', 'b', 'a']),
      aCase('any-first', ['a', 'b'], 'any'), // only one alternative, at rank 1
      aCase('any-later', ['a', 'b'], 'any'), // both alternatives, at ranks 2 and 3
      aCase('any-none', ['a', 'b'], 'any'), // empty ranking
      aCase('any-single', ['a'], 'any'), // one alternative: TREC represents it exactly
    ];
    const ranked: Record<string, string[]> = {
      all: ['x', 'b', 'y', 'a'],
      'any-first': ['a', 'x', 'y'],
      'any-later': ['x', 'a', 'b'],
      'any-none': [],
      'any-single': ['x', 'a'],
    };
    const t = trecEval(
      trecQrels(cases),
      trecRun(
        cases.map((c) => detail(c.id, ranked[c.id]!)),
        'r',
        10,
      ),
      true,
    ).perQuery;
    const backpack = (c: Case) => ({
      recall: recallAtK(ranked[c.id]!, c.expectedTools!, 5, c.goldMode),
      ndcg: ndcgAtK(ranked[c.id]!, c.expectedTools!, 10, c.goldMode),
    });
    const trec = (id: string) => ({ recall: t.get(id)!['recall.5'], ndcg: t.get(id)!['ndcg_cut.10'] });
    const [all, anyFirst, anyLater, anyNone, anySingle] = cases as [Case, Case, Case, Case, Case];
    expect(trec('all').recall).toBeCloseTo(backpack(all).recall, 12);
    expect(trec('all').ndcg).toBeCloseTo(backpack(all).ndcg, 12);
    expect(trec('any-single')).toEqual(backpack(anySingle));
    expect(trec('any-none')).toEqual({ recall: 0, ndcg: 0 });
    expect(backpack(anyNone)).toEqual({ recall: 0, ndcg: 0 });
    // one of two alternatives at rank 1: Backpack 1 and 1; trec_eval 1/2 and 1 / (1 + 1/log2 3)
    expect(backpack(anyFirst)).toEqual({ recall: 1, ndcg: 1 });
    expect(trec('any-first').recall).toBe(0.5);
    expect(trec('any-first').ndcg).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12); // 0.613
    // both alternatives at ranks 2 and 3: Backpack counts only the first (1/log2 3 = 0.631), trec_eval both (0.693)
    expect(backpack(anyLater).recall).toBe(1);
    expect(trec('any-later').recall).toBe(1);
    expect(backpack(anyLater).ndcg).toBeCloseTo(1 / Math.log2(3), 12);
    expect(trec('any-later').ndcg).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)), 12);
    expect(trec('any-later').ndcg).toBeGreaterThan(backpack(anyLater).ndcg);
    // P.1 and recip_rank only look at the first relevant doc: the same under either mode
    for (const id of ['any-first', 'any-later', 'any-none']) {
      const first = ranked[id]!.findIndex((d) => d === 'a' || d === 'b');
      expect(t.get(id)!.recip_rank).toBe(first < 0 ? 0 : 1 / (first + 1));
    }
  });
});

describe('trec_eval -c on the exported files of an evaluation with a floor', async () => {
  // Seed 3: its 'any' cases include some where BM25 ranks one alternative but not all of them.
  const { input } = tinyInput(3);
  const ks = [1, 5, 10];
  // A floor that leaves about a third of the searched cases with an empty ranking and shortens many others.
  const unfloored = await runEval(input, makeConfig(['bm25'], ks, { bm25: null }, null));
  const tops = unfloored.details
    .bm25!.filter((d) => d.ranked.length)
    .map((d) => d.ranked[0]![1])
    .sort((a, b) => a - b);
  const floor = tops[Math.floor(tops.length / 3)]!;
  const byId = new Map(input.cases.map((c) => [c.id, c]));
  const isAnyMulti = (c: Case) => c.goldMode === 'any' && new Set(c.expectedTools).size >= 2;
  // Duplicated gold: a single-tool case found at rank 1 above the floor lists its tool twice; a multi-tool case repeats its first tool.
  const single = unfloored.details.bm25!.find((d) => {
    const c = byId.get(d.caseId)!;
    const top = d.ranked[0];
    return c.expectedTools?.length === 1 && top !== undefined && top[0] === c.expectedTools[0] && top[1] >= floor;
  })!;
  const multi = input.cases.find((c) => (c.expectedTools?.length ?? 0) >= 2 && c.goldMode !== 'any')!;
  const cases = input.cases.map((c) =>
    c.id === single.caseId || c.id === multi.id ? { ...c, expectedTools: [...c.expectedTools!, c.expectedTools![0]!] } : c,
  );
  const floored = makeConfig(['bm25'], ks, { bm25: floor }, null);

  async function exported(
    name: string,
    evalCases: Case[],
  ): Promise<{ run: EvalRun; qrels: string; trec: string; tsv: Array<{ qid: string; expected: string; mode: string }> }> {
    const evalInput: EvalInput = { ...input, cases: evalCases };
    const run = await runEval(evalInput, floored);
    const dir = join(tmp, name);
    writeRunDir(dir, run, evalCases, input.catalog);
    const read = (p: string) => readFileSync(join(dir, p), 'utf8');
    const tsv = read('runs/cases.tsv')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .map(([qid, expected, mode]) => ({ qid: qid!, expected: expected!, mode: mode! }));
    return { run, qrels: read('runs/qrels.txt'), trec: read('runs/bm25.trec'), tsv };
  }

  // The exact comparison: every graded case but the 'any' cases with several alternatives.
  const faithful = await exported(
    'faithful',
    cases.filter((c) => !isAnyMulti(c)),
  );
  // The whole evaluation: the 'any' cases with several alternatives are where trec_eval differs.
  const whole = await exported('whole', cases);

  it('has cases with an empty ranking, and duplicated gold tools in the source', () => {
    const details = whole.run.details.bm25!;
    const graded = new Set(cases.filter((c) => c.expectedTools?.length).map((c) => c.id));
    const emptyGraded = details.filter((d) => graded.has(d.caseId) && !d.ranked.length).length;
    expect(emptyGraded).toBeGreaterThan(20);
    expect(details.filter((d) => graded.has(d.caseId) && d.ranked.length).length).toBeGreaterThan(50);
    expect(details.filter((d) => byId.get(d.caseId)!.expectedTools?.length === 0 && !d.ranked.length).length).toBeGreaterThan(0);
    const inRun = new Set(
      whole.trec
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[0]),
    );
    for (const d of details) expect(inRun.has(d.caseId)).toBe(d.ranked.length > 0);
    expect(cases.find((c) => c.id === single.caseId)!.expectedTools).toHaveLength(2);
  });

  it('writes qrels with no duplicate (qid, docid) line, exactly the graded cases, each gold tool once', () => {
    for (const { qrels, tsv } of [faithful, whole]) {
      const lines = qrels.trim().split('\n');
      const pairs = lines.map((l) => l.split(' ')).map(([q, , d]) => `${q} ${d}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(() => parseQrels(qrels)).not.toThrow();
      expect(new Set(lines.map((l) => l.split(' ')[0]))).toEqual(new Set(tsv.filter((r) => r.expected === 'tool').map((r) => r.qid)));
      expect(lines.filter((l) => l.startsWith(`${single.caseId} `))).toEqual([`${single.caseId} 0 ${byId.get(single.caseId)!.expectedTools![0]} 1`]);
      expect(lines.filter((l) => l.startsWith(`${multi.id} `))).toHaveLength(new Set(multi.expectedTools).size);
    }
  });

  it("recomputes results.json's top1, mrr@10, recall@5 and ndcg@10 exactly with -c (no 'any' case with several alternatives)", () => {
    const m = faithful.run.results.retrievers.bm25!.metrics.overall;
    const c = trecEval(faithful.qrels, faithful.trec, true);
    expect(c.queries).toBe(m.gradedCases);
    expect(c.mean['P.1']).toBeCloseTo(m.top1!, 12);
    expect(c.mean.recip_rank).toBeCloseTo(m['mrr@10']!, 12);
    expect(c.mean['recall.5']).toBeCloseTo(m['recall@5']!, 12);
    expect(c.mean['ndcg_cut.10']).toBeCloseTo(m['ndcg@10']!, 12);
    // Without -c the cases with an empty ranking drop out and every figure is inflated.
    const noC = trecEval(faithful.qrels, faithful.trec, false);
    expect(noC.queries).toBeLessThan(m.gradedCases!);
    expect(noC.mean['recall.5']).toBeGreaterThan(m['recall@5']! + 0.05);
    expect(noC.mean['ndcg_cut.10']).toBeGreaterThan(m['ndcg@10']! + 0.05);
  });

  it("differs from results.json exactly on the 'any' cases with several alternatives", () => {
    const m = whole.run.results.retrievers.bm25!.metrics.overall;
    const c = trecEval(whole.qrels, whole.trec, true);
    expect(c.queries).toBe(m.gradedCases);
    const run = parseRun(whole.trec);
    const anyMulti = whole.tsv.filter((r) => r.mode === 'any' && (parseQrels(whole.qrels).get(r.qid)?.size ?? 0) >= 2).map((r) => r.qid);
    expect(anyMulti.length).toBeGreaterThan(5);
    // top1 and mrr@10 depend only on the first gold tool: the same for every case
    expect(c.mean['P.1']).toBeCloseTo(m.top1!, 12);
    expect(c.mean.recip_rank).toBeCloseTo(m['mrr@10']!, 12);
    // recall@5 and ndcg@10: trec_eval's figure on those cases replaced by Backpack's 'any' formula gives results.json
    let recallFix = 0;
    let ndcgFix = 0;
    let recallLower = 0;
    for (const qid of anyMulti) {
      const gold = [...parseQrels(whole.qrels).get(qid)!.keys()];
      const ranked = run.get(qid) ?? [];
      const first = ranked.slice(0, 10).findIndex((d) => gold.includes(d));
      const hits5 = ranked.slice(0, 5).filter((d) => gold.includes(d)).length;
      const t = c.perQuery.get(qid)!;
      expect(t['recall.5']).toBe(hits5 / gold.length);
      expect(t['recall.5']).toBeLessThanOrEqual(hits5 > 0 ? 1 : 0);
      if (t['recall.5'] < (hits5 > 0 ? 1 : 0)) recallLower++;
      recallFix += (hits5 > 0 ? 1 : 0) - t['recall.5'];
      ndcgFix += (first < 0 ? 0 : 1 / Math.log2(first + 2)) - t['ndcg_cut.10'];
    }
    expect(recallLower).toBeGreaterThan(0);
    expect(c.mean['recall.5']).toBeLessThan(m['recall@5']!);
    expect(c.mean['recall.5'] + recallFix / c.queries).toBeCloseTo(m['recall@5']!, 12);
    expect(Math.abs(ndcgFix)).toBeGreaterThan(1e-6);
    expect(c.mean['ndcg_cut.10'] + ndcgFix / c.queries).toBeCloseTo(m['ndcg@10']!, 12);
  });
});
