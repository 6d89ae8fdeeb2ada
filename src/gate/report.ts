/**
 * The gate's verdicts for people (aligned lines; a Markdown table for a job summary or a pull
 * request comment), for scripts (JSON) and for CI systems (JUnit
 * XML: one `<testsuite>` per strategy, one `<testcase>` per figure, `<failure>` for a FAIL — and
 * for an IMPROVED under `--strict` — and `<error>` for a MISSING figure).
 *
 * The JUnit here is written by the gate rather than by `src/report/junit.ts`: that reporter's
 * checks are two-sided bounds on metric ids, and cannot carry OKISH, IMPROVED, p-values or token
 * figures. The escaping is the same (`escapeXml`).
 */
import { escapeMarkdown, escapeXml } from '../util/escape.ts';
import { changedCasesText, pValue } from '../metrics/change.ts';
import type { GateReport, Verdict } from './gate.ts';

/** Changed case ids named per direction on a line. */
const CASES_NAMED = 5;

/** A figure value: at most 6 significant digits. */
export function num(x: number): string {
  return String(Number(x.toPrecision(6)));
}

/** A delta, signed, at most 4 significant digits. */
export function signed(x: number): string {
  const s = String(Number(x.toPrecision(4)));
  return x > 0 ? `+${s}` : x === 0 ? '0' : s;
}

export { pValue };

/** The status column: `OKISH (within noise, p=0.210)` for a FAIL the change rule did not confirm (`OKISH (within noise)` when the changed cases cancel out). */
export function statusText(v: Verdict): string {
  if (!v.notSignificant) return v.status;
  return v.change?.basis === 'cases' ? 'OKISH (within noise)' : `OKISH (within noise, p=${pValue(v.significance!.p)})`;
}

/**
 * What the change rule shared with `backpack report BASE HEAD` says about a figure against the
 * baseline, in the words the comparison report uses: with enough changed cases, the p-value and
 * the verdict (`p=0.003 (120 paired cases): worse`); with too few for any test, the changed cases
 * by name instead of a p-value that cannot reach significance (`changed cases: 1 lost (q7): worse`).
 */
export function changeText(v: Verdict): string | undefined {
  const s = v.significance;
  const c = v.change;
  if (!s) return undefined;
  if (!c) return `p=${pValue(s.p)} (${s.pairs} paired cases)`;
  const word = VERDICT_WORDS[c.verdict];
  if (c.basis === 'test') return `p=${pValue(s.p)} (${s.pairs} paired cases): ${word}`;
  if (!c.cases || c.up + c.down === 0) return `no case changed (${s.pairs} paired cases)`;
  const higher = v.direction === 'higher' ? true : v.direction === 'lower' ? false : null;
  return `changed cases: ${changedCasesText(c.cases, higher, CASES_NAMED)}: ${word}, too few for a test`;
}

/** The comparison report's verdict words. */
const VERDICT_WORDS: Record<NonNullable<Verdict['change']>['verdict'], string> = {
  better: 'better',
  worse: 'worse',
  changed: 'changed',
  noise: 'within noise',
  same: 'same',
};

/** One line per figure, then hints and a summary line (warnings are separate: `report.warnings`). */
export function gateLines(report: GateReport, blessCommand: string): string[] {
  const vs = report.verdicts;
  const w = (f: (v: Verdict) => string) => Math.max(...vs.map((v) => f(v).length));
  const ws = w(statusText);
  const wn = w((v) => v.strategy);
  const wf = w((v) => v.figure);
  const lines = vs.map((v) => {
    const head = `${statusText(v).padEnd(ws)}  ${v.strategy.padEnd(wn)}  ${v.figure.padEnd(wf)}`;
    if (v.status === 'MISSING') return `${head}  expected ${num(v.expected)}  actual -  (${v.note})`;
    const parts = [`expected ${num(v.expected)}`, `actual ${num(v.actual!)}`, `delta ${signed(v.delta!)}`, `tolerance ±${num(v.tolerance)}`];
    const change = changeText(v);
    if (change) parts.push(change);
    if (v.note) parts.push(`(${v.note})`);
    return `${head}  ${parts.join('  ')}`;
  });
  const c = report.counts;
  if (c.IMPROVED) {
    lines.push(
      `hint: ${c.IMPROVED} figure${c.IMPROVED > 1 ? 's' : ''} improved beyond tolerance${report.strict ? ', which fails under --strict' : ''}: ` +
        `lock ${c.IMPROVED > 1 ? 'them' : 'it'} in with ${blessCommand}`,
    );
  }
  const parts = (['OK', 'OKISH', 'IMPROVED', 'FAIL', 'MISSING'] as const).filter((s) => c[s]).map((s) => `${c[s]} ${s}`);
  lines.push(
    `gate: ${vs.length} figure${vs.length === 1 ? '' : 's'}: ${parts.join(', ')} → ${report.exitCode === 0 ? 'passed' : `failed (exit ${report.exitCode})`}`,
  );
  return lines;
}

/** The report as JSON for scripts (the documented shape in docs/gate.md). */
export function gateJson(report: GateReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function attr(s: string): string {
  return escapeXml(s).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function describe(v: Verdict): string {
  if (v.status === 'MISSING') return `${v.figure}: ${v.note ?? 'missing'} (expected ${num(v.expected)})`;
  const change = changeText(v);
  const p = change ? `, ${change}` : '';
  return `${v.figure} ${statusText(v)}: expected ${num(v.expected)}, actual ${num(v.actual!)}, delta ${signed(v.delta!)}, tolerance ±${num(v.tolerance)}${p}${v.note ? ` (${v.note})` : ''}`;
}

/** JUnit XML of the verdicts (strategies in file order). */
export function gateJunit(report: GateReport): string {
  const failed = (v: Verdict) => v.status === 'FAIL' || (report.strict && v.status === 'IMPROVED');
  const byStrategy = new Map<string, Verdict[]>();
  for (const v of report.verdicts) {
    const list = byStrategy.get(v.strategy) ?? [];
    list.push(v);
    byStrategy.set(v.strategy, list);
  }
  const all = report.verdicts;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="backpack gate" tests="${all.length}" failures="${all.filter(failed).length}" errors="${all.filter((v) => v.status === 'MISSING').length}">`,
  );
  const dataset = report.dataset.actual.name;
  for (const [name, vs] of byStrategy) {
    out.push(
      `  <testsuite name="${attr(name)}" tests="${vs.length}" failures="${vs.filter(failed).length}" errors="${vs.filter((v) => v.status === 'MISSING').length}" skipped="0">`,
    );
    out.push('    <properties>');
    for (const [k, v] of [
      ['dataset', dataset],
      ['catalogSha256', report.dataset.actual.catalogSha256],
      ['expectedCatalogSha256', report.dataset.expected.catalogSha256],
      ['strict', String(report.strict)],
    ] as const) {
      out.push(`      <property name="${attr(k)}" value="${attr(v)}"/>`);
    }
    out.push('    </properties>');
    for (const v of vs) {
      const open = `    <testcase classname="${attr(`${dataset}.${name}`)}" name="${attr(v.figure)}">`;
      const text = escapeXml(describe(v)).replace(/\r/g, '&#13;');
      if (v.status === 'MISSING') out.push(`${open}<error message="${attr(describe(v))}" type="missing">${text}</error></testcase>`);
      else if (failed(v))
        out.push(
          `${open}<failure message="${attr(describe(v))}" type="${v.status === 'FAIL' ? 'regression' : 'improved-strict'}">${text}</failure></testcase>`,
        );
      else out.push(`${open}<system-out>${text}</system-out></testcase>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** The order of the Markdown table: what fails first, then what may need a look, then the rest. */
const MARKDOWN_ORDER = ['FAIL', 'MISSING', 'IMPROVED', 'OKISH', 'OK'] as const;

/** Whether a verdict fails the gate. */
function fails(report: GateReport, v: Verdict): boolean {
  return v.status === 'FAIL' || v.status === 'MISSING' || (report.strict && v.status === 'IMPROVED');
}

/**
 * The verdicts as GitHub-flavoured Markdown: a heading with the outcome, warnings, a table
 * (strategy, figure, expected, actual, delta, tolerance, verdict, and p when a test ran) with the
 * failing rows first (FAIL, MISSING, IMPROVED, OKISH, OK; file order within each), then the bless
 * hint. Strategy names, figure keys, notes and warnings come from files others write: escaped.
 */
export function gateMarkdown(report: GateReport, blessCommand: string): string {
  const c = report.counts;
  const md = escapeMarkdown;
  const parts = STATUS_ORDER.filter((s) => c[s]).map((s) => `${c[s]} ${s}`);
  const out = [`### Backpack gate: ${report.exitCode === 0 ? 'passed' : `failed (exit ${report.exitCode})`}`, ''];
  out.push(
    `${report.verdicts.length} figure${report.verdicts.length === 1 ? '' : 's'} of ${md(report.dataset.actual.name)} against ${md(report.file)}: ${parts.join(', ')}.`,
    '',
  );
  for (const w of report.warnings) out.push(`- warning: ${md(w)}`);
  if (report.warnings.length) out.push('');
  const withP = report.verdicts.some((v) => v.significance);
  const head = [
    `| strategy | figure | expected | actual | delta | tolerance | verdict |${withP ? ' against the baseline |' : ''}`,
    `| --- | --- | ---: | ---: | ---: | ---: | --- |${withP ? ' ---: |' : ''}`,
  ];
  const rank = (v: Verdict) => MARKDOWN_ORDER.indexOf(v.status);
  const rows = report.verdicts.map((v, i) => ({ v, i })).sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i);
  const line = (v: Verdict): string => {
    const status = fails(report, v) ? `**${md(statusText(v))}**` : md(statusText(v));
    const verdict = v.note ? `${status} (${md(v.note)})` : status;
    const cells = [
      md(v.strategy),
      md(v.figure),
      num(v.expected),
      v.actual === null ? '–' : num(v.actual),
      v.delta === null ? '–' : signed(v.delta),
      `±${num(v.tolerance)}`,
      verdict,
    ];
    if (withP) cells.push(md(changeText(v) ?? ''));
    return `| ${cells.join(' | ')} |`;
  };
  // The figures that moved (or are missing) in the table; the ones that held, collapsed below it.
  const moved = rows.filter(({ v }) => v.status !== 'OK');
  const held = rows.filter(({ v }) => v.status === 'OK');
  if (moved.length) out.push(...head, ...moved.map(({ v }) => line(v)));
  else out.push('Every figure is within its tolerance.');
  if (held.length)
    out.push(
      '',
      `<details><summary>${held.length} figure${held.length === 1 ? '' : 's'} OK</summary>`,
      '',
      ...head,
      ...held.map(({ v }) => line(v)),
      '',
      '</details>',
    );
  if (c.IMPROVED)
    out.push(
      '',
      `${c.IMPROVED} figure${c.IMPROVED > 1 ? 's' : ''} improved beyond tolerance${report.strict ? ' (a failure under --strict)' : ''}: lock ${c.IMPROVED > 1 ? 'them' : 'it'} in with \`${blessCommand.replace(/`/g, "'")}\`.`,
    );
  return `${out.join('\n')}\n`;
}

const STATUS_ORDER = ['OK', 'OKISH', 'IMPROVED', 'FAIL', 'MISSING'] as const;
