/** The Tool use section: what the agents called, per tool and per namespace, and what the tools never called cost. */
import type { Audit } from '../../eval/audit.ts';
import { neverCalledLine, standInNote } from '../../eval/audit.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { fmtInt, fmtPct } from './format.ts';
import { type Cell, code, type Column, NA, numCell, section, table } from './table.ts';

/** Rows of each table. */
const ROWS = 30;

const tokens = (v: number | null): Cell =>
  v === null ? { html: `<span class="na">${NA}</span>`, num: true, title: 'not applicable: known by its id only (no definition)' } : numCell(v, fmtInt);

/** The Tool use section (for runs whose scored cases record their calls). */
export function toolUseSection(a: Audit): string {
  const title = 'Tool use';
  const t = a.totals;
  const intro = `${esc(fmtInt(t.calledTools))} of ${esc(fmtInt(t.tools))} tools were ${a.basis === 'calls' ? 'called' : 'expected'} in the ${esc(fmtInt(t.requests))} scored requests (${esc(fmtInt(t.calls))} calls, ${esc(fmtInt(t.sessions))} sessions). Listing every tool eagerly costs ${esc(fmtInt(t.eagerTokens))} tokens a request (o200k, Anthropic tool format); ${esc(neverCalledLine(a))}.${standInNote(a) ? ` Note: ${esc(standInNote(a))}.` : ''}`;
  const toolColumns: Column[] = [
    { label: 'tool' },
    { label: 'server or plugin', title: 'its namespace: the MCP server, the plugin, or core' },
    { label: 'calls', num: true },
    { label: 'requests', title: 'share of the scored requests that called it', num: true },
    { label: 'sessions', num: true },
    { label: 'schema tokens', title: 'o200k tokens its definition adds to every request when listed eagerly', num: true },
    {
      label: 'tokens per use',
      title: 'schema tokens ÷ share of requests: the eager-listing tokens spent per request that used the tool',
      num: true,
      lowFirst: true,
    },
  ];
  const toolRows = a.tools
    .slice(0, ROWS)
    .map((u) => [
      code(u.id),
      code(u.namespace),
      numCell(u.calls, fmtInt),
      numCell(u.requestShare, fmtPct),
      numCell(u.sessions, fmtInt),
      tokens(u.schemaTokens),
      tokens(u.tokensPerUse),
    ]);
  const nsColumns: Column[] = [
    { label: 'server or plugin', title: 'the namespace: an MCP server, a plugin, or core (the harness’s own tools)' },
    { label: 'tools', num: true },
    { label: 'called', num: true },
    { label: 'calls', num: true },
    { label: 'requests', num: true },
    { label: 'schema tokens', num: true },
    { label: 'never-called tokens', title: 'tokens of its tools no request called', num: true, lowFirst: true },
  ];
  const nsRows = a.namespaces
    .slice(0, ROWS)
    .map((n) => [
      code(n.namespace),
      numCell(n.tools, fmtInt),
      numCell(n.calledTools, fmtInt),
      numCell(n.calls, fmtInt),
      numCell(n.requestShare, fmtPct),
      n.unknownTokenTools === n.tools ? tokens(null) : numCell(n.schemaTokens, fmtInt),
      numCell(n.neverCalledTokens, fmtInt),
    ]);
  const never = a.neverCalled.ids.slice(0, ROWS * 2);
  const neverHtml = a.neverCalled.tools
    ? `<p>Never ${a.basis === 'calls' ? 'called' : 'expected'} (${esc(fmtInt(a.neverCalled.tools))}): ${never.map((id) => `<code>${esc(id)}</code>`).join(' ')}${a.neverCalled.tools > never.length ? ` <span class="more">+${esc(fmtInt(a.neverCalled.tools - never.length))} more</span>` : ''}</p>`
    : '';
  const more = (n: number, what: string) =>
    n > ROWS
      ? `<p class="note">The ${ROWS} most called of ${esc(fmtInt(n))} ${what}; <code>backpack audit --dataset DIR --json</code> gives them all.</p>`
      : '';
  return section(
    'tool-use',
    title,
    intro,
    `<h3>Tools</h3>\n${table(toolColumns, toolRows, { sortable: true })}\n${more(a.tools.length, 'tools')}\n<h3>Servers and plugins</h3>\n${table(nsColumns, nsRows, { sortable: true })}\n${more(a.namespaces.length, 'servers and plugins')}\n${neverHtml}`,
  );
}
