/**
 * JUnit XML of a results file, so CI systems (GitHub checks, GitLab, Jenkins, Buildkite) show the
 * figures natively: one `<testsuite>` per strategy (retrievers, then profiles, in run order), one
 * `<testcase classname="<dataset>.<strategy>" name="<metric>">` per checked metric.
 *
 * A check that the metric misses is a `<failure type="threshold">` whose message and body carry
 * expected, actual and delta; a check that cannot be evaluated (the metric is absent or not a
 * number for that strategy, the strategy is not in the results, the metric id does not parse) is
 * an `<error>`: `<failure>` for a metric miss, `<error>` for an execution error.
 *
 * Without checks: `scopeLeakCount` must be 0 for every strategy (a real gate), and every headline
 * metric the strategy has is a passing testcase with its value in the suite's `<properties>` and
 * the testcase's `<system-out>`.
 *
 * Everything is XML-escaped (strategy, dataset and slice names are untrusted). Deterministic: the
 * only date is the run's `timings.startedAt`.
 */
import type { Results } from '../eval/results.ts';
import { parseMetricId } from '../metrics/ids.ts';
import { escapeXml } from './escape.ts';
import { headlineMetrics } from './markdown.ts';
import { strategies, type StrategyView } from './view.ts';

export interface Check {
  /** Strategy (retriever or profile) name; every strategy when absent. */
  strategy?: string;
  /** Metric id of the overall table: `recall@5`, `top1`, `scopeLeakCount`, … */
  metric: string;
  /** Passes when actual ≥ min − tolerance. */
  min?: number;
  /** Passes when actual ≤ max + tolerance. */
  max?: number;
  /** Passes when |actual − expected| ≤ tolerance. */
  expected?: number;
  /** Slack on every bound (default 0; a relative 1e-12 absorbs floating-point noise). */
  tolerance?: number;
  /** No testcase (rather than an `<error>`) for a strategy that lacks the metric: a profile without search has no `top1`. */
  optional?: boolean;
}

/** What became of one check on one strategy. */
export interface CheckOutcome {
  strategy: string;
  metric: string;
  actual?: number;
  status: 'pass' | 'failure' | 'error';
  /** Failures: each bound missed, with its delta (actual − bound). */
  misses: Array<{ bound: string; value: number; delta: number }>;
  message?: string;
  /** Errors: what could not be evaluated. */
  errorType?: 'missing-strategy' | 'bad-metric' | 'missing-metric';
}

/** The checks used when none are given: scope leaks must be 0 (a gate), the other headline metrics are reported (always pass). */
export function defaultChecks(r: Results): Check[] {
  return [{ metric: 'scopeLeakCount', max: 0 }, ...headlineMetrics(r).filter((m) => m !== 'scopeLeakCount').map((metric) => ({ metric, optional: true }))];
}

function num(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(12)));
}

function signed(x: number): string {
  return x > 0 ? `+${num(x)}` : num(x);
}

/** An attribute value: escaped, with tab, LF and CR as character references (parsers normalise them to spaces otherwise). */
function attr(s: string): string {
  return escapeXml(s).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** Element text: escaped, with CR as a character reference (parsers turn CRLF into LF otherwise). */
function text(s: string): string {
  return escapeXml(s).replace(/\r/g, '&#13;');
}

/** Evaluate one check against one strategy. */
export function evaluateCheck(s: StrategyView | undefined, strategyName: string, c: Check): CheckOutcome {
  const base = { strategy: strategyName, metric: c.metric, misses: [] };
  if (!s) return { ...base, status: 'error', errorType: 'missing-strategy', message: `strategy "${strategyName}" is not in the results` };
  try {
    parseMetricId(c.metric);
  } catch (e) {
    return { ...base, status: 'error', errorType: 'bad-metric', message: (e as Error).message };
  }
  const actual: unknown = s.results.metrics?.overall?.[c.metric];
  if (actual === undefined) return { ...base, status: 'error', errorType: 'missing-metric', message: `metric ${c.metric} is missing for ${strategyName}` };
  if (typeof actual !== 'number' || !Number.isFinite(actual)) return { ...base, status: 'error', errorType: 'missing-metric', message: `metric ${c.metric} of ${strategyName} is not a number (${String(actual)})` };
  const tol = c.tolerance ?? 0;
  const eps = (v: number): number => tol + 1e-12 * Math.max(1, Math.abs(v));
  const misses: CheckOutcome['misses'] = [];
  if (c.min !== undefined && actual < c.min - eps(c.min)) misses.push({ bound: `≥ ${num(c.min)}`, value: c.min, delta: actual - c.min });
  if (c.max !== undefined && actual > c.max + eps(c.max)) misses.push({ bound: `≤ ${num(c.max)}`, value: c.max, delta: actual - c.max });
  if (c.expected !== undefined && Math.abs(actual - c.expected) > eps(c.expected)) misses.push({ bound: `= ${num(c.expected)}${tol ? ` ± ${num(tol)}` : ''}`, value: c.expected, delta: actual - c.expected });
  if (!misses.length) return { ...base, actual, status: 'pass' };
  const message = `${c.metric} = ${num(actual)}, expected ${misses.map((m) => `${m.bound} (delta ${signed(m.delta)})`).join(' and ')}`;
  return { ...base, actual, status: 'failure', misses, message };
}

function expectation(c: Check): string {
  const parts: string[] = [];
  if (c.min !== undefined) parts.push(`≥ ${num(c.min)}`);
  if (c.max !== undefined) parts.push(`≤ ${num(c.max)}`);
  if (c.expected !== undefined) parts.push(`= ${num(c.expected)}`);
  if (c.tolerance) parts.push(`tolerance ${num(c.tolerance)}`);
  return parts.length ? parts.join(', ') : 'reported';
}

interface Suite {
  name: string;
  kind: string;
  cases: Array<{ check: Check; outcome: CheckOutcome }>;
}

/** The JUnit XML of a results file; `checks` default to {@link defaultChecks}. */
export function junitXml(r: Results, checks?: readonly Check[]): string {
  const list = strategies(r);
  const byName = new Map(list.map((s) => [s.name, s]));
  const used = checks ?? defaultChecks(r);

  const suites: Suite[] = list.map((s) => ({ name: s.name, kind: s.kind === 'retriever' ? 'retriever' : 'profile', cases: [] }));
  const suiteOf = new Map(suites.map((x) => [x.name, x]));
  for (const c of used) {
    const targets = c.strategy === undefined ? list.map((s) => s.name) : [c.strategy];
    for (const name of targets) {
      const s = byName.get(name);
      if (c.optional && s && s.results.metrics?.overall?.[c.metric] === undefined) continue;
      let suite = suiteOf.get(name);
      if (!suite) {
        suite = { name, kind: 'missing', cases: [] };
        suites.push(suite);
        suiteOf.set(name, suite);
      }
      suite.cases.push({ check: c, outcome: evaluateCheck(s, name, c) });
    }
  }

  const dataset = String(r.dataset?.name ?? 'results');
  const count = (cs: Suite['cases'], st: CheckOutcome['status']): number => cs.filter((x) => x.outcome.status === st).length;
  const all = suites.flatMap((s) => s.cases);
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.exec(String(r.timings?.startedAt ?? ''))?.[0];
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="backpack" tests="${all.length}" failures="${count(all, 'failure')}" errors="${count(all, 'error')}">`);
  for (const suite of suites) {
    out.push(`  <testsuite name="${attr(suite.name)}" tests="${suite.cases.length}" failures="${count(suite.cases, 'failure')}" errors="${count(suite.cases, 'error')}" skipped="0"${at ? ` timestamp="${at}"` : ''}>`);
    const props: Array<[string, string]> = [
      ['kind', suite.kind],
      ['dataset', dataset],
      ['catalogSha256', String(r.dataset?.catalogSha256 ?? '')],
      ['backpack', String(r.backpack?.version ?? '')],
      ['gitSha', String(r.backpack?.gitSha ?? '')],
    ];
    const seen = new Set<string>();
    for (const { outcome } of suite.cases) {
      if (outcome.actual === undefined || seen.has(outcome.metric)) continue;
      seen.add(outcome.metric);
      props.push([outcome.metric, num(outcome.actual)]);
    }
    out.push('    <properties>');
    for (const [k, v] of props) out.push(`      <property name="${attr(k)}" value="${attr(v)}"/>`);
    out.push('    </properties>');
    for (const { check, outcome } of suite.cases) {
      const open = `    <testcase classname="${attr(`${dataset}.${suite.name}`)}" name="${attr(check.metric)}">`;
      const expected = expectation(check);
      if (outcome.status === 'pass') {
        out.push(`${open}<system-out>${text(`${check.metric} = ${num(outcome.actual!)} (${expected})`)}</system-out></testcase>`);
      } else if (outcome.status === 'failure') {
        const body = [`expected: ${outcome.misses.map((m) => m.bound).join(' and ')}`, `actual: ${num(outcome.actual!)}`, `delta: ${outcome.misses.map((m) => signed(m.delta)).join(', ')}`].join('\n');
        out.push(open);
        out.push(`      <failure message="${attr(outcome.message!)}" type="threshold">${text(body)}</failure>`);
        out.push(`      <system-out>${text(`${check.metric} = ${num(outcome.actual!)}`)}</system-out>`);
        out.push('    </testcase>');
      } else {
        out.push(open);
        out.push(`      <error message="${attr(outcome.message!)}" type="${outcome.errorType}">${text(`${outcome.message!}\nexpected: ${expected}`)}</error>`);
        out.push('    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
