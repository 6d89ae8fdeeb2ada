/**
 * `backpack report BASE HEAD`: two runs of the same cases on catalogs that differ by one tool's
 * description. The comparison's changes are the results' own differences, their intervals are
 * the paired bootstrap's, and its changed cases are exactly those whose per-case recall@5 (or, for
 * a no-tool case, false positive) changed, recomputed here from the details by hand.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCaseRecords } from '../src/eval/case-records.ts';
import { readRunDir } from '../src/eval/files.ts';
import { compareRuns } from '../src/report/compare/model.ts';
import { changeCharts } from '../src/report/compare/charts.ts';
import { COMMENT_FIGURES, comparisonComment } from '../src/report/compare/comment.ts';
import { comparisonHtml } from '../src/report/compare/html.ts';
import { strategyColours } from '../src/report/colours.ts';
import { runGate } from '../src/gate/gate.ts';
import { runCli, tempDir } from './helpers.ts';

const tmp = tempDir('report-compare');
const CHANGED = 'mcp__slack__create_message';
const STRATEGIES = ['--retrievers', 'bm25,bm25-plain', '--profiles', 'static,codex'];

/** The dataset folder with one tool's description and summary replaced (its stored hash dropped, the folder re-signed by eval). */
function withChangedTool(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const file = join(to, 'corpus.jsonl');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const out = lines.map((line) => {
    const t = JSON.parse(line) as Record<string, unknown>;
    if (t._id !== CHANGED) return line;
    delete t.hash;
    return JSON.stringify({ ...t, description: 'Deprecated. Internal maintenance helper; do not use.', summary: 'Deprecated helper.' });
  });
  writeFileSync(file, `${out.join('\n')}\n`);
}

/** recall@5 of one case from a details record, by hand: the share of the distinct gold tools in the top 5. */
function recall5(ranked: Array<[string, number]>, gold: readonly string[]): number {
  const top = new Set(ranked.slice(0, 5).map(([id]) => id));
  const distinct = [...new Set(gold)];
  return distinct.filter((g) => top.has(g)).length / distinct.length;
}

describe('backpack report BASE HEAD', () => {
  const base = join(tmp, 'base');
  const head = join(tmp, 'head');

  beforeAll(async () => {
    const data = join(tmp, 'data');
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', data, '--quiet')).code).toBe(0);
    withChangedTool(data, join(tmp, 'data2'));
    expect((await runCli('eval', '--dataset', data, ...STRATEGIES, '--out', base, '--quiet')).code).toBe(0);
    const h = await runCli('eval', '--dataset', join(tmp, 'data2'), '--re-sign', ...STRATEGIES, '--out', head, '--quiet');
    expect(h.code, h.err).toBe(0);
  }, 120_000);

  const load = (dir: string) => {
    const run = readRunDir(dir);
    const saved = readCaseRecords(dir)!;
    return { label: dir.split('/').pop()!, dir, run, cases: saved.cases, tools: saved.tools };
  };

  it('gives each figure in both runs, its change, and a paired interval that holds the change', () => {
    const [b, h] = [load(base), load(head)];
    const c = compareRuns([b, h]);
    expect(c.pairs).toHaveLength(1);
    const bm25 = c.pairs[0]!.strategies.find((s) => s.name === 'bm25')!;
    for (const f of bm25.figures) {
      expect(f.base, f.figure).toBe(b.run.results.retrievers.bm25!.metrics.overall[f.figure]);
      expect(f.head, f.figure).toBe(h.run.results.retrievers.bm25!.metrics.overall[f.figure]);
      expect(f.delta, f.figure).toBe(f.head! - f.base!);
      expect(f.ci95![0], f.figure).toBeLessThanOrEqual(f.delta! + 1e-4);
      expect(f.ci95![1], f.figure).toBeGreaterThanOrEqual(f.delta! - 1e-4);
      // "better" or "worse" only when the change rule says the figure changed; too few changed cases for a test: they are named
      expect(f.verdict === 'better' || f.verdict === 'worse', f.figure).toBe(f.significant === true);
      if (f.basis === 'cases') expect(f.cases!.up.length + f.cases!.down.length, f.figure).toBeLessThan(6);
    }
    // a profile without a search is compared on what it shows, never on ranking figures
    const staticFigures = c.pairs[0]!.strategies.find((s) => s.name === 'static')!.figures.map((f) => f.figure);
    expect(staticFigures).toContain('visible');
    expect(staticFigures).not.toContain('recall@5');
  });

  it('gives the verdict the gate gives the same pair of runs, on every figure: one rule, one p-value, the same named cases', async () => {
    const file = join(tmp, 'expected.yaml');
    expect((await runCli('bless', '--results', base, '--expect', file, '--reason', 'the base run')).code).toBe(0);
    const gate = runGate({ expect: file, results: head, baseline: base });
    const c = compareRuns([load(base), load(head)]);
    let compared = 0;
    let changed = 0;
    for (const s of c.pairs[0]!.strategies) {
      for (const f of s.figures) {
        const v = gate.verdicts.find((x) => x.strategy === s.name && x.figure === f.figure);
        if (!v?.change) continue; // a figure the file does not gate (searchNoToolFalsePositiveRate of a profile is)
        compared++;
        const where = `${s.name} ${f.figure}`;
        expect(v.change.changed, where).toBe(f.significant);
        expect(v.change.basis, where).toBe(f.basis);
        expect(v.significance!.p, where).toBe(f.p);
        expect(v.change.verdict === 'noise' ? 'same' : v.change.verdict, where).toBe(f.verdict);
        if (f.basis === 'cases') expect(v.change.cases, where).toEqual(f.cases);
        // the statuses follow: no FAIL the report calls within noise, no "worse" the gate lets pass beyond its tolerance
        if (v.status === 'FAIL') expect(f.verdict, where).toBe('worse');
        if (f.verdict === 'same') expect(v.status, where).not.toBe('FAIL');
        if (f.significant) changed++;
      }
    }
    expect(compared).toBeGreaterThan(20);
    expect(changed).toBeGreaterThan(0); // the pair differs somewhere, or the agreement is vacuous
  });

  it("charts each strategy's change of the headline figure with its interval, in the strategy's colour", () => {
    const c = compareRuns([load(base), load(head)]);
    const [chart] = changeCharts(c);
    expect(chart!.id).toBe('change-1');
    const ds = chart!.config.data.datasets[0] as { data: number[]; errorBars: Array<[number, number] | null>; backgroundColor: string[] };
    const p = c.pairs[0]!;
    const want = p.strategies.map((s) => s.figures.find((f) => f.figure === c.headline) ?? s.figures.find((f) => f.figure === 'visible')!);
    expect(ds.data).toEqual(want.map((f) => f.delta));
    expect(ds.errorBars).toEqual(want.map((f) => f.ci95));
    const colours = strategyColours(p.strategies.map((s) => s.name));
    expect(ds.backgroundColor).toEqual(p.strategies.map((s) => colours.get(s.name)));
    // the profile without a search is charted on visible, and says so
    expect(chart!.config.data.labels).toContain('static (visible)');
    const html = comparisonHtml(c);
    expect(html).toContain('<canvas id="chart-change-1"');
    expect(html).toContain('data-chart="chart-change-1"');
  });

  it('lists exactly the cases whose recall@5 (or no-tool false positive) changed, with both rankings', () => {
    const [b, h] = [load(base), load(head)];
    const c = compareRuns([b, h]);
    for (const name of ['bm25', 'bm25-plain']) {
      const s = c.pairs[0]!.strategies.find((x) => x.name === name)!;
      const hb = new Map(h.run.details[name]!.map((d) => [d.caseId, d]));
      const won: string[] = [];
      const lost: string[] = [];
      for (const d of b.run.details[name]!) {
        const cs = b.cases.find((x) => x.id === d.caseId)!;
        if (cs.expectedTools === undefined) continue;
        const hd = hb.get(d.caseId)!;
        // a no-tool case: 1 when nothing (no non-pinned tool) was shown; the tiny catalog's pinned tools never rank here
        const score = (ranked: Array<[string, number]>) => (cs.expectedTools!.length ? recall5(ranked, cs.expectedTools!) : ranked.length ? 0 : 1);
        const [x, y] = [score(d.ranked), score(hd.ranked)];
        if (y > x) won.push(d.caseId);
        if (y < x) lost.push(d.caseId);
      }
      expect(
        s.won.map((w) => w.caseId),
        name,
      ).toEqual(won);
      expect(
        s.lost.map((l) => l.caseId),
        name,
      ).toEqual(lost);
      for (const l of s.lost) {
        expect(l.baseRanked).toEqual(b.run.details[name]!.find((d) => d.caseId === l.caseId)!.ranked.slice(0, 5));
        expect(l.headRanked).toEqual(hb.get(l.caseId)!.ranked.slice(0, 5));
      }
    }
    // the changed tool fell out of the plain baseline's top 5 somewhere: the change is visible
    const plain = c.pairs[0]!.strategies.find((x) => x.name === 'bm25-plain')!;
    expect(plain.lost.some((l) => l.expected.includes(CHANGED) && l.baseRanked.some(([id]) => id === CHANGED))).toBe(true);
  });

  it('writes report.html and summary.md from the CLI, escapes requests, and links summary.md to --report-url', async () => {
    // a hostile request text in both runs' saved cases (the same cases, so they still compare)
    const lost = compareRuns([load(base), load(head)]).pairs[0]!.strategies.find((x) => x.name === 'bm25-plain')!.lost[0]!;
    for (const dir of [base, head]) {
      const file = join(dir, 'cases.jsonl');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace(JSON.stringify(lost.request), JSON.stringify('<img src=x onerror=alert(1)> | **bold**')));
    }
    const out = join(tmp, 'cmp');
    const r = await runCli('report', base, head, '--out', out, '--title', 'Registry PR #42', '--report-url', 'https://ci.example/artifacts/report.html');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/png, junit describe one run/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<title>Registry PR #42</title>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('id="case-search"');
    expect(html).toMatch(
      new RegExp(`data-strategy="bm25-plain" data-outcome="lost"[^>]*><th scope="row"><button type="button" class="open-case" data-case="${lost.caseId}"`),
    );
    // results before provenance
    expect(html.indexOf('id="changes-1"')).toBeLessThan(html.indexOf('id="provenance"'));
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md.split('\n')[0]).toBe('# Registry PR \\#42');
    expect(md).toContain('[Full report](https://ci.example/artifacts/report.html)');
    expect(r.out).toContain('comment.md');
    expect(readFileSync(join(out, 'comment.md'), 'utf8')).toContain('[Full report](https://ci.example/artifacts/report.html)');
    expect(md).toContain('&lt;img src=x onerror=alert\\(1\\)&gt; \\| \\*\\*bold\\*\\*');
    const b = readRunDir(base).results.retrievers.bm25!.metrics.overall;
    const h = readRunDir(head).results.retrievers.bm25!.metrics.overall;
    expect(md).toContain(`| bm25 | recall@5 | ${b['recall@5']!.toFixed(3)} | ${h['recall@5']!.toFixed(3)} |`);
  });

  it('writes comment.md with only the moved figures (worse first) and the cases that changed for the most strategies', () => {
    const c = compareRuns([load(base), load(head)]);
    const body = comparisonComment(c, { reportLink: '[Full report](https://ci.example/r)' });
    const p = c.pairs[0]!;
    const moved = p.strategies.flatMap((s) => s.figures.filter((f) => ['better', 'worse', 'changed'].includes(f.verdict)).map((f) => ({ s: s.name, f })));
    expect(moved.length).toBeGreaterThan(0);
    const rows = body.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| strategy') && !l.startsWith('| ---'));
    expect(rows).toHaveLength(Math.min(moved.length, COMMENT_FIGURES));
    const verdictOrder = rows.map((r) => (r.includes('▼ worse') ? 0 : r.includes('◆ changed') ? 1 : 2));
    expect([...verdictOrder].sort((a, b) => a - b)).toEqual(verdictOrder);
    for (const r of rows) expect(r).not.toMatch(/= same|= within noise/);
    const all = p.strategies.reduce((n, s) => n + s.figures.length, 0);
    expect(body).toContain(`**${moved.length} of ${all} figures moved**`);
    // the case listed first changed for at least as many strategies as any other
    const count = new Map<string, number>();
    for (const s of p.strategies) for (const x of [...s.lost, ...s.won]) count.set(x.caseId, (count.get(x.caseId) ?? 0) + 1);
    const firstCase = /^- `([^`]+)`/m.exec(body)![1]!;
    expect(count.get(firstCase)).toBe(Math.max(...count.values()));
    expect(body.trimEnd().endsWith('[Full report](https://ci.example/r)')).toBe(true);
    // a run against itself: nothing moved, no table, no case
    const same = comparisonComment(compareRuns([load(base), { ...load(base), label: 'again' }]));
    expect(same).toMatch(/^\*\*No figure moved\*\*: all \d+ compared are the same or within noise\.\n\nNo case changed its recall@5\.\n$/);
  });

  it('refuses runs over other cases, naming the folder', async () => {
    const shard = join(tmp, 'shard');
    expect((await runCli('eval', '--dataset', join(tmp, 'data'), '--retrievers', 'bm25', '--shard', '1/2', '--out', shard, '--quiet')).code).toBe(0);
    const r = await runCli('report', base, shard);
    expect(r.code).toBe(2);
    expect(r.err).toContain(shard);
    expect(r.err).toMatch(/was scored on other cases than .*base .*a comparison needs runs over the same cases/);
  });
});

describe('backpack report --fail-below / --fail-above', () => {
  it('writes a failing JUnit test case and exits 100 when a rule is missed; 0 when every rule holds', async () => {
    const data = join(tmp, 'fail-data');
    const res = join(tmp, 'fail-res');
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '6', '--out', data, '--quiet')).code).toBe(0);
    expect((await runCli('eval', '--dataset', data, '--retrievers', 'bm25', '--out', res, '--quiet')).code).toBe(0);
    const r5 = readRunDir(res).results.retrievers.bm25!.metrics.overall['recall@5']!;
    const missed = await runCli('report', res, '--format', 'junit', '--fail-below', `recall@5=${(r5 + 0.05).toFixed(3)}`);
    expect(missed.code).toBe(100);
    expect(missed.err).toMatch(/failed: bm25: recall@5 = [0-9.]+, expected ≥/);
    const xml = readFileSync(join(res, 'report', 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testcase classname="tiny-6\.bm25" name="recall@5">\s*<failure message="recall@5 = /);
    const held = await runCli(
      'report',
      res,
      '--format',
      'junit',
      '--fail-below',
      `bm25:recall@5=${(r5 - 0.05).toFixed(3)}`,
      '--fail-above',
      'scopeLeakCount=0',
    );
    expect(held.code, held.err).toBe(0);
    const bad = await runCli('report', res, '--fail-below', 'recall@5');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--fail-below: "recall@5" is not metric=value/);
  });
});
