/**
 * The report's Tool use part, for runs on datasets whose cases record the calls their agents made
 * (`backpack import`): the audit of `eval/audit.ts` over the scored cases (from the results
 * folder's `cases.jsonl`, and the schema tokens its `tools.jsonl` keeps, or the catalog a run
 * still holds), its section in the HTML report and its chart, calls against schema tokens.
 */
import type { ToolRecord } from '../eval/case-records.ts';
import { type Audit, type AuditTool, audit, auditTools, recordsCalls } from '../eval/audit.ts';
import { type ChartSpec, logBounds } from './charts.ts';
import type { ReportInput } from './formats.ts';

/** The audit tools of a results folder's tool records, or undefined when they keep no schema tokens (not an audited run). */
function recordTools(tools: readonly ToolRecord[]): AuditTool[] | undefined {
  if (!tools.some((t) => t.schemaTokens !== undefined)) return undefined;
  return tools.map((t) => ({
    id: t.id,
    namespace: t.namespace,
    ...(t.pinned ? { pinned: true } : {}),
    ...(t.standIn ? { standIn: true } : {}),
    schemaTokens: t.idOnly ? null : (t.schemaTokens ?? null),
  }));
}

/** The audit a report shows, or undefined when its cases record no calls (or the tools' tokens are not known). */
export function reportAudit(data: ReportInput): Audit | undefined {
  const cases = data.cases;
  if (!cases?.length || !recordsCalls(cases)) return undefined;
  const tools = data.catalog ? auditTools(data.catalog) : data.tools ? recordTools(data.tools) : undefined;
  return tools ? audit(cases, tools) : undefined;
}

/** Points drawn per series at most (the most called, or the largest never-called ones): a 50,000-tool chart would say nothing more. */
export const MAX_POINTS = 2000;

/** Called tools named on the chart (the most called). */
const LABELLED = 8;

/** The chart: each tool's calls against the tokens listing it costs per request; the never-called ones on the floor. */
export function toolUseChart(a: Audit, dataset: string): ChartSpec | undefined {
  const known = a.tools.filter((u) => u.schemaTokens !== null);
  if (!known.length) return undefined;
  const called = known.filter((u) => u.calls > 0).slice(0, MAX_POINTS);
  const never = known
    .filter((u) => u.calls === 0)
    .sort((x, y) => (y.schemaTokens ?? 0) - (x.schemaTokens ?? 0) || (x.id < y.id ? -1 : 1))
    .slice(0, MAX_POINTS);
  const point = (u: (typeof known)[number]) => ({ x: u.schemaTokens, y: u.calls });
  const tip = (u: (typeof known)[number]) => `${u.id}: ${u.calls.toLocaleString('en-US')} calls, ${(u.schemaTokens ?? 0).toLocaleString('en-US')} tokens`;
  // the most called tools and the largest never-called ones are named on the chart
  const labels = (list: typeof known, n: number) => list.map((u, i) => (i < n ? u.id : ''));
  const bounds = logBounds(known.map((u) => u.schemaTokens ?? 0));
  const cut = known.filter((u) => u.calls > 0).length > MAX_POINTS || known.filter((u) => u.calls === 0).length > MAX_POINTS;
  const what = a.basis === 'calls' ? 'calls' : 'cases expecting it';
  return {
    id: 'tool-use',
    title: `Tool use: ${what} against schema tokens`,
    caption: `Each tool's ${what} in the scored cases against the o200k tokens its definition adds to every request when listed eagerly (Anthropic tool format). Tools on the floor were never ${a.basis === 'calls' ? 'called' : 'expected'}: listing them costs ${a.neverCalled.tokens.toLocaleString('en-US')} tokens a request.${a.totals.unknownTokenTools ? ` ${a.totals.unknownTokenTools} tools known by id only are not drawn (their tokens are not known).` : ''}${a.totals.standInTools ? ` ${a.totals.standInTools} harness core tools are drawn at the tokens of Backpack's one-line stand-ins, below their real definitions'.` : ''}${cut ? ` At most ${MAX_POINTS.toLocaleString('en-US')} points a series: the most called, and the largest never-called tools.` : ''}`,
    config: {
      type: 'scatter',
      data: {
        datasets: [
          {
            label: `called (${known.filter((u) => u.calls > 0).length})`,
            data: called.map(point),
            tips: called.map(tip),
            pointLabels: labels(called, LABELLED),
            borderColor: '#4477AA',
            backgroundColor: '#4477AA',
            pointRadius: 5,
          },
          {
            label: `never ${a.basis === 'calls' ? 'called' : 'expected'} (${known.filter((u) => u.calls === 0).length})`,
            data: never.map(point),
            tips: never.map(tip),
            pointLabels: labels(never, 3),
            borderColor: '#EE6677',
            backgroundColor: '#EE6677',
            borderWidth: 2,
            pointStyle: 'crossRot',
            pointRadius: 8,
          },
        ],
      },
      options: {
        responsive: false,
        animation: false,
        plugins: {
          title: { display: true, text: `Tool use: ${what} vs schema tokens — ${dataset}`, font: { size: 20, weight: 'bold' } },
          legend: { position: 'right', labels: { font: { size: 14 }, usePointStyle: true } },
          backpackLabels: { display: true, font: { size: 14 } },
        },
        scales: {
          x: {
            type: 'logarithmic',
            min: bounds.min,
            max: bounds.max,
            title: { display: true, text: 'schema tokens per request when listed (o200k, log scale)', font: { size: 16 } },
            ticks: { font: { size: 14 } },
          },
          y: {
            type: 'linear',
            min: 0,
            title: { display: true, text: a.basis === 'calls' ? 'calls in the scored cases' : 'cases expecting the tool', font: { size: 16 } },
            ticks: { font: { size: 14 } },
          },
        },
      },
    },
  };
}
