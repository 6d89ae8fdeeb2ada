import { describe, expect, it } from 'vitest';
import type { GateReport, Verdict } from './gate.ts';
import { gateMarkdown } from './report.ts';

function report(verdicts: Verdict[], strict = false, warnings: string[] = []): GateReport {
  const counts = { OK: 0, OKISH: 0, IMPROVED: 0, FAIL: 0, MISSING: 0 };
  for (const v of verdicts) counts[v.status]++;
  const failures = counts.FAIL + counts.MISSING + (strict ? counts.IMPROVED : 0);
  return {
    file: 'eval/expected.yaml',
    results: 'out',
    baseline: null,
    dataset: { expected: { name: 'd', catalogSha256: 'a'.repeat(64) }, actual: { name: 'd', catalogSha256: 'a'.repeat(64) } },
    strict,
    significance: { method: 'randomization', samples: 10000, alpha: 0.05, require: false, computed: false },
    warnings,
    verdicts,
    counts,
    failures,
    exitCode: failures ? 100 : 0,
  };
}

const v = (strategy: string, figure: string, status: Verdict['status'], expected: number, actual: number | null, extra: Partial<Verdict> = {}): Verdict => ({
  strategy,
  figure,
  status,
  expected,
  actual,
  delta: actual === null ? null : actual - expected,
  tolerance: 0.005,
  direction: 'higher',
  ...extra,
});

describe('gateMarkdown', () => {
  it('orders FAIL, MISSING, IMPROVED, OKISH, OK (file order within each) and bolds what fails', () => {
    const md = gateMarkdown(
      report([
        v('a', 'top1', 'OK', 0.5, 0.5),
        v('a', 'mrr@10', 'IMPROVED', 0.5, 0.6),
        v('b', 'top1', 'FAIL', 0.5, 0.4),
        v('b', 'recall@3', 'MISSING', 0.5, null, { note: 'recall@3 is not in the results for b' }),
        v('c', 'top1', 'OKISH', 0.5, 0.494),
        v('c', 'recall@5', 'FAIL', 0.5, 0.3),
      ]),
      'backpack bless --results out --expect eval/expected.yaml --reason "…"',
    );
    const rows = md.split('\n').filter((l) => /^\| [a-c] \|/.test(l));
    expect(rows.map((r) => r.split(' | ').slice(0, 2).join(' '))).toEqual(['| b top1', '| c recall@5', '| b recall@3', '| a mrr@10', '| c top1', '| a top1']);
    expect(rows[0]).toBe('| b | top1 | 0.5 | 0.4 | -0.1 | ±0.005 | **FAIL** |');
    expect(rows[2]).toBe('| b | recall@3 | 0.5 | – | – | ±0.005 | **MISSING** (recall@3 is not in the results for b) |');
    expect(rows[3]).toBe('| a | mrr@10 | 0.5 | 0.6 | +0.1 | ±0.005 | IMPROVED |');
    expect(md).toMatch(
      /^### Backpack gate: failed \(exit 100\)\n\n6 figures of d against eval\/expected\.yaml: 1 OK, 1 OKISH, 1 IMPROVED, 2 FAIL, 1 MISSING\.\n/,
    );
    expect(md).toContain('1 figure improved beyond tolerance: lock it in with `backpack bless --results out --expect eval/expected.yaml --reason "…"`.');
  });

  it('bolds an IMPROVED under --strict and says it passed when nothing fails', () => {
    expect(gateMarkdown(report([v('a', 'top1', 'IMPROVED', 0.5, 0.6)], true), 'x')).toContain('| a | top1 | 0.5 | 0.6 | +0.1 | ±0.005 | **IMPROVED** |');
    expect(gateMarkdown(report([v('a', 'top1', 'OK', 0.5, 0.5)]), 'x')).toMatch(/^### Backpack gate: passed\n/);
  });

  it('escapes strategy names, notes and warnings: no extra cell, no HTML, no link', () => {
    const md = gateMarkdown(
      report([v('x|<img src=x onerror=alert(1)>', 'top1', 'FAIL', 0.5, 0.4, { note: '[click](http://evil)' })], false, ['dataset "<script>"\n| injected |']),
      'x',
    );
    expect(md).not.toMatch(/<img|<script/);
    expect(md).toContain('x\\|&lt;img src=x onerror=alert\\(1\\)&gt;');
    expect(md).toContain('\\[click\\]\\(http://evil\\)');
    const row = md.split('\n').find((l) => l.includes('onerror'))!;
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(7); // seven cells
    expect(md.split('\n').filter((l) => l.includes('injected'))).toEqual(['- warning: dataset &quot;&lt;script&gt;&quot; \\| injected \\|']);
  });
});
