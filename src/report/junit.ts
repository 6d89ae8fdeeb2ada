/**
 * JUnit XML of a results file, so CI systems (GitHub checks, GitLab, Jenkins, Buildkite) show the
 * figures natively: one `<testsuite>` per strategy (retrievers, then profiles, in run order).
 *
 * A test case is a threshold, something that can fail: `scopeLeakCount ≤ 0` for every strategy
 * ({@link defaultChecks}), and the rules of `backpack report --fail-below / --fail-above`
 * ({@link thresholdChecks}). A check that the metric misses is a `<failure type="threshold">` whose
 * message and body carry expected, actual and delta; one that cannot be evaluated (the metric is
 * absent or not a number, the strategy is not in the results, the metric id does not parse) is an
 * `<error>`. Every other headline figure is a suite `<property>`: its value, or `n/a: <why>` where
 * it does not apply (see `figure` in view.ts), and its bootstrap interval as `<figure>.ci95`
 * ("low high"); a profile's `contextWindow`, `fitsContext` and, when some prompt overflows,
 * `fitsContext.note`.
 *
 * With a threshold, a figure that does not apply: a no-tool figure when the scored cases have no
 * no-tool case is `<skipped>` (the data cannot say); a quality figure of a profile whose prompt
 * fits the context window in no case is a `<failure type="context-window">` (the profile cannot
 * deliver the figure asked of it).
 *
 * Everything is XML-escaped (strategy, dataset and slice names are untrusted). Deterministic: the
 * only date is the run's `timings.startedAt`.
 */
import type { Results } from '../eval/results.ts';
import { parseMetricId } from '../metrics/ids.ts';
import { escapeXml } from '../util/escape.ts';
import { headlineMetrics } from './markdown.ts';
import { contextFit, figure, fitNote, fitsNowhere, goldRemovedCases, NO_NO_TOOL_CASE, strategies, type StrategyView, thinness } from './view.ts';

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
  status: 'pass' | 'failure' | 'error' | 'skipped';
  /** Failures: each bound missed, with its delta (actual − bound). */
  misses: Array<{ bound: string; value: number; delta: number }>;
  /** Failures, errors and skips: what happened; passes: an extra note for `<system-out>`. */
  message?: string;
  /** Errors: what could not be evaluated. */
  errorType?: 'missing-strategy' | 'bad-metric' | 'missing-metric';
  /** Failures: `threshold` (a bound missed) or `context-window` (the figure does not apply: the profile's prompt fits in no case). */
  failureType?: 'threshold' | 'context-window';
}

/**
 * The checks every report makes: scope leaks must be 0. The other headline figures have no
 * threshold of their own, so they are not test cases (a test case that cannot fail says nothing):
 * they are the suite's `<properties>`, with their 95% intervals. Thresholds come from
 * `backpack report --fail-below / --fail-above` ({@link thresholdChecks}) and from `backpack gate
 * --junit` (the expected figures).
 */
export function defaultChecks(_r?: Results): Check[] {
  return [{ metric: 'scopeLeakCount', max: 0 }];
}

/**
 * Checks from `--fail-below` / `--fail-above` rules: `metric=value` (every strategy) or
 * `strategy:metric=value`, comma-separated. A strategy that lacks the metric (a profile without a
 * search has no recall) is left out rather than failed when the rule names no strategy.
 */
export function thresholdChecks(rules: string, bound: 'min' | 'max'): Check[] {
  return rules
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((rule) => {
      const m = /^(?:([^:=\s]+):)?([^:=\s]+)=(-?\d+(?:\.\d+)?)$/.exec(rule);
      if (!m) throw new Error(`"${rule}" is not metric=value or strategy:metric=value`);
      parseMetricId(m[2]!);
      const value = Number(m[3]);
      return { ...(m[1] !== undefined ? { strategy: m[1] } : { optional: true }), metric: m[2]!, [bound]: value };
    });
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
  const bounded = c.min !== undefined || c.max !== undefined || c.expected !== undefined;
  const fig = figure(s, c.metric);
  if (fig.reason === NO_NO_TOOL_CASE) return { ...base, status: 'skipped', message: `not applicable: ${fig.reason}` };
  const actual: unknown = s.results.metrics?.overall?.[c.metric];
  if (actual === undefined) return { ...base, status: 'error', errorType: 'missing-metric', message: `metric ${c.metric} is missing for ${strategyName}` };
  if (typeof actual !== 'number' || !Number.isFinite(actual)) {
    if (!bounded) return { ...base, status: 'skipped', message: 'not applicable: no value' };
    return { ...base, status: 'error', errorType: 'missing-metric', message: `metric ${c.metric} of ${strategyName} is not a number (${String(actual)})` };
  }
  if (fig.value === undefined) {
    if (!bounded) return { ...base, status: 'skipped', message: `not applicable: ${fig.reason}` };
    return {
      ...base,
      status: 'failure',
      failureType: 'context-window',
      message: `${c.metric} of ${strategyName} does not apply: the profile ${fig.reason} (expected ${expectation(c)})`,
    };
  }
  const tol = c.tolerance ?? 0;
  const eps = (v: number): number => tol + 1e-12 * Math.max(1, Math.abs(v));
  const misses: CheckOutcome['misses'] = [];
  if (c.min !== undefined && actual < c.min - eps(c.min)) misses.push({ bound: `≥ ${num(c.min)}`, value: c.min, delta: actual - c.min });
  if (c.max !== undefined && actual > c.max + eps(c.max)) misses.push({ bound: `≤ ${num(c.max)}`, value: c.max, delta: actual - c.max });
  if (c.expected !== undefined && Math.abs(actual - c.expected) > eps(c.expected))
    misses.push({ bound: `= ${num(c.expected)}${tol ? ` ± ${num(tol)}` : ''}`, value: c.expected, delta: actual - c.expected });
  const partial = fitNote(contextFit(s));
  if (!misses.length) return { ...base, actual, status: 'pass', ...(partial ? { message: `the profile ${partial}` } : {}) };
  const message = `${c.metric} = ${num(actual)}, expected ${misses.map((m) => `${m.bound} (delta ${signed(m.delta)})`).join(' and ')}${partial ? `; the profile ${partial}` : ''}`;
  return { ...base, actual, status: 'failure', failureType: 'threshold', misses, message };
}

/**
 * The headline figures of a strategy as properties: each one's value (or `n/a: <why>` where it
 * does not apply) and, beside it, `<figure>.ci95` = "low high"; a profile's context window and how
 * many of its prompts fit it.
 */
function figureProperties(r: Results, s: StrategyView): Array<[string, string]> {
  const props: Array<[string, string]> = [];
  const fit = contextFit(s);
  if (fit) props.push(['contextWindow', num(fit.window)]);
  const fitOutcome = contextFitOutcome(s);
  if (fitOutcome)
    props.push(
      ['fitsContext', num(fitOutcome.actual!)],
      ...(fitOutcome.status === 'skipped' ? [['fitsContext.note', fitOutcome.message!] as [string, string]] : []),
    );
  for (const metric of headlineMetrics(r)) {
    if (metric === 'scopeLeakCount') continue;
    const fig = figure(s, metric);
    const raw = s.results.metrics?.overall?.[metric];
    if (fig.value === undefined) {
      if (raw !== undefined || fig.reason === NO_NO_TOOL_CASE) props.push([metric, `n/a: ${fig.reason}`]);
      continue;
    }
    props.push([metric, num(fig.value)]);
    const ci = s.results.metrics.ci95?.overall[metric];
    if (ci) props.push([`${metric}.ci95`, `${num(ci[0])} ${num(ci[1])}`]);
    const thin = thinness(s.results.metrics.overall, metric);
    if (thin) props.push([`${metric}.thin`, thin]);
  }
  return props;
}

/** The `fitsContext` testcase of a profile whose results say how many of its prompts fit the context window (undefined otherwise). */
export function contextFitOutcome(s: StrategyView): CheckOutcome | undefined {
  const fit = contextFit(s);
  if (!fit) return undefined;
  const base = { strategy: s.name, metric: 'fitsContext', misses: [], actual: fit.share };
  const overflow = fit.overflowCases !== undefined ? `; ${num(fit.overflowCases)} tool-labelled cases overflow` : '';
  if (fit.share >= 1)
    return { ...base, status: 'pass', message: `every prompt fits the ${Math.round(fit.window).toLocaleString('en-US')}-token context window` };
  return {
    ...base,
    status: 'skipped',
    message: `${fitNote(fit)!} (fitsContext ${num(fit.share)}${overflow})${fitsNowhere(s) ? '; its quality figures do not apply' : ''}`,
  };
}

function expectation(c: Pick<Check, 'min' | 'max' | 'expected' | 'tolerance'>): string {
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

/**
 * Every check evaluated on the strategies it names (all of them when it names none), in check
 * order: what `junitXml` writes and what `backpack report --fail-below` exits on. An optional figure
 * a strategy lacks makes no outcome, unless it is a no-tool figure the data cannot give (skipped,
 * saying so); a check naming a strategy the results lack is an error outcome.
 */
export function checkOutcomes(r: Results, checks: readonly Check[]): Array<{ check: Check; outcome: CheckOutcome }> {
  const list = strategies(r);
  const byName = new Map(list.map((s) => [s.name, s]));
  const out: Array<{ check: Check; outcome: CheckOutcome }> = [];
  for (const c of checks) {
    const targets = c.strategy === undefined ? list.map((s) => s.name) : [c.strategy];
    for (const name of targets) {
      const s = byName.get(name);
      if (c.optional && s && s.results.metrics?.overall?.[c.metric] === undefined && figure(s, c.metric).reason !== NO_NO_TOOL_CASE) continue;
      out.push({ check: c, outcome: evaluateCheck(s, name, c) });
    }
  }
  return out;
}

/** The JUnit XML of a results file; `checks` default to {@link defaultChecks}. */
export function junitXml(r: Results, checks?: readonly Check[]): string {
  const list = strategies(r);
  const byName = new Map(list.map((s) => [s.name, s]));
  const suites: Suite[] = list.map((s) => ({ name: s.name, kind: s.kind === 'retriever' ? 'retriever' : 'profile', cases: [] }));
  const suiteOf = new Map(suites.map((x) => [x.name, x]));
  for (const x of checkOutcomes(r, checks ?? defaultChecks(r))) {
    const name = x.outcome.strategy;
    let suite = suiteOf.get(name);
    if (!suite) {
      suite = { name, kind: 'missing', cases: [] };
      suites.push(suite);
      suiteOf.set(name, suite);
    }
    suite.cases.push(x);
  }

  const dataset = String(r.dataset?.name ?? 'results');
  const count = (cs: Suite['cases'], st: CheckOutcome['status']): number => cs.filter((x) => x.outcome.status === st).length;
  const all = suites.flatMap((s) => s.cases);
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.exec(String(r.timings?.startedAt ?? ''))?.[0];
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="backpack" tests="${all.length}" failures="${count(all, 'failure')}" errors="${count(all, 'error')}" skipped="${count(all, 'skipped')}">`,
  );
  for (const suite of suites) {
    out.push(
      `  <testsuite name="${attr(suite.name)}" tests="${suite.cases.length}" failures="${count(suite.cases, 'failure')}" errors="${count(suite.cases, 'error')}" skipped="${count(suite.cases, 'skipped')}"${at ? ` timestamp="${at}"` : ''}>`,
    );
    const props: Array<[string, string]> = [
      ['kind', suite.kind],
      ['dataset', dataset],
      ['catalogSha256', String(r.dataset?.catalogSha256 ?? '')],
      ['backpack', String(r.backpack?.version ?? '')],
      ['gitSha', String(r.backpack?.gitSha ?? '')],
      ...Object.entries(r.dataset?.goldRemoved ?? {}).map(([id, cases]): [string, string] => [`goldRemoved.${id}`, goldRemovedCases(cases)]),
      ...Object.entries(r.dataset?.goldRenamed ?? {}).map(([id, a]): [string, string] => [`goldRenamed.${id}`, `${a.to}; ${goldRemovedCases(a.cases)}`]),
    ];
    const strategy = byName.get(suite.name);
    if (strategy) props.push(...figureProperties(r, strategy));
    out.push('    <properties>');
    for (const [k, v] of props) out.push(`      <property name="${attr(k)}" value="${attr(v)}"/>`);
    out.push('    </properties>');
    for (const { check, outcome } of suite.cases) {
      const open = `    <testcase classname="${attr(`${dataset}.${suite.name}`)}" name="${attr(check.metric)}">`;
      const expected = expectation(check);
      if (outcome.status === 'pass') {
        out.push(
          `${open}<system-out>${text(`${check.metric} = ${num(outcome.actual!)} (${expected})${outcome.message ? `: ${outcome.message}` : ''}`)}</system-out></testcase>`,
        );
      } else if (outcome.status === 'skipped') {
        out.push(`${open}<skipped message="${attr(outcome.message!)}"/></testcase>`);
      } else if (outcome.status === 'failure' && outcome.failureType === 'context-window') {
        out.push(open);
        out.push(`      <failure message="${attr(outcome.message!)}" type="context-window">${text(`expected: ${expected}\nactual: not applicable`)}</failure>`);
        out.push('    </testcase>');
      } else if (outcome.status === 'failure') {
        const body = [
          `expected: ${outcome.misses.map((m) => m.bound).join(' and ')}`,
          `actual: ${num(outcome.actual!)}`,
          `delta: ${outcome.misses.map((m) => signed(m.delta)).join(', ')}`,
        ].join('\n');
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
