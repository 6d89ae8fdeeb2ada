/** The Tokens section: the tool block by tool count, and what each profile puts in front of the model. */
import type { Results } from '../../eval/results.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { contextFit, fitMark, fitNote, overall, type StrategyView } from '../view.ts';
import { DASH, fmtCalls, fmtInt, fmtPct, isNum } from './format.ts';
import { absent, compactTable, type Cell, NA, NOT_IN_RUN, numCell, section, table, text, type Column } from './table.ts';

/** The Tokens section. */
export function tokensSection(r: Results, all: readonly StrategyView[]): string {
  const parts: string[] = [];
  const rows = r.tokenTable?.rows ?? [];
  if (rows.length) {
    const t = r.tokenTable;
    const columns: Column[] = [
      { label: 'tools', num: true },
      { label: 'OpenAI tokens', title: 'function tools serialization', num: true },
      { label: 'Anthropic tokens', title: 'tools JSON serialization', num: true },
      { label: 'tokens / tool (Anthropic)', num: true },
      { label: 'window share', title: `share of a ${fmtInt(t.contextWindow)}-token window (Anthropic)`, num: true },
      { label: `${t.turns}-turn conversation, uncached`, num: true },
    ];
    const body = rows.map((x) => [
      numCell(x.tools, fmtInt),
      numCell(x.blockTokens.openai, fmtInt),
      numCell(x.blockTokens.anthropic, fmtInt),
      numCell(x.tokensPerTool.anthropic, (v) => (isNum(v) ? v.toFixed(1) : DASH)),
      numCell(x.windowShare, fmtPct),
      numCell(x.uncachedConversationTokens, fmtInt),
    ]);
    parts.push(
      `<h3>Tool block by tool count</h3>\n<p class="intro">Tokens (${esc(t.counter)}) of the serialized tool block for n tools sampled from this catalog (${esc(t.sample)}).</p>\n${table(columns, body)}`,
    );
  } else parts.push(`<h3>Tool block by tool count</h3>\n${absent()}`);
  const profiles = all.filter((s) => s.profile);
  if (profiles.length) {
    const anyFit = profiles.some((s) => contextFit(s, r) !== undefined);
    const anyCalls = profiles.some((s) => s.profile!.calls !== undefined);
    const anyWire = profiles.some((s) => s.profile!.tokens.wire !== undefined);
    const anyCore = profiles.some((s) => (s.profile!.exposure.coreEager?.tools ?? 0) > 0);
    const columns: Column[] = [
      { label: 'profile' },
      { label: 'search', title: 'how a search result reaches the model (limit)' },
      { label: 'eager tools', num: true, extra: true },
      { label: 'before search', title: 'tokens before any search, unrestricted caller', num: true },
      ...(anyCore
        ? [
            {
              label: 'core tools',
              title: "the harness's own tools listed before any search (unrestricted caller): pinned for the no-tool false-positive rate",
              num: true,
              extra: true,
            },
            { label: 'core tokens', title: 'tokens of their definitions (part of before search)', num: true, lowFirst: true, extra: true },
          ]
        : []),
      { label: 'per search', num: true },
      { label: 'per request', title: 'before search (own caller) + the search', num: true },
      { label: 'visible', num: true },
      { label: 'visible / 1k tokens', num: true, extra: true },
      { label: '12 turns uncached', num: true, extra: true },
      { label: '12 turns cached', num: true },
      ...(anyCalls
        ? [
            {
              label: 'calls / request',
              title:
                'model calls per request that needs a tool: searches (retries counted), describe or load calls, namespaces opened, tool calls or one code-mode run',
              num: true,
              lowFirst: true,
            },
            {
              label: 'calls / success',
              title:
                'model calls per request whose gold tools all reached the model (visible = 1): what a success costs, so showing nothing is not cheap; n/a when no request succeeded',
              num: true,
              lowFirst: true,
            },
            { label: 'searches / request', num: true, lowFirst: true, extra: true },
            { label: 'calls / 12 turns', title: 'a 12-turn session: 12 × the mean calls per session turn', num: true, lowFirst: true, extra: true },
          ]
        : []),
      ...(anyWire
        ? [
            {
              label: 'wire tokens',
              title:
                'definitions that cross the wire before any search without the model reading them (admitted deferred definitions); not in the other token figures',
              num: true,
              lowFirst: true,
              extra: true,
            },
          ]
        : []),
      ...(anyFit
        ? [
            { label: 'fits context', title: 'share of the tool-labelled cases whose prompt (before search + the search) fits the context window', num: true },
            { label: 'context window', title: 'tokens', num: true, extra: true },
            { label: 'overflow cases', title: 'tool-labelled cases whose prompt does not fit', num: true, lowFirst: true, extra: true },
          ]
        : []),
    ];
    const body = profiles.map((s) => {
      const p = s.profile!;
      const fit = contextFit(s, r);
      const mark = fitMark(fit);
      return [
        { html: `${esc(s.name)}${mark ? ` <span class="tag fit">${esc(mark)}</span>` : ''}` },
        text(p.exposure.search ? `${p.exposure.form}, ${p.exposure.searchLimit}` : 'none'),
        numCell(p.exposure.unrestricted.eagerTools, fmtInt),
        numCell(p.tokens.beforeSearch, fmtInt),
        ...(anyCore ? [numCell(p.exposure.coreEager?.tools, fmtInt), numCell(p.exposure.coreEager?.tokens, fmtInt)] : []),
        numCell(p.tokens.perSearch, fmtInt),
        numCell(p.tokens.perCase, fmtInt),
        numCell(overall(s, 'visible')),
        numCell(p.tokens.visiblePer1kTokens),
        numCell(p.tokens.session12Uncached, fmtInt),
        numCell(p.tokens.session12Cached, fmtInt),
        ...(anyCalls
          ? [
              numCell(p.calls?.perCase, fmtCalls),
              callsPerSuccessCell(p.calls?.perSuccess),
              numCell(p.calls?.searchesPerCase, fmtCalls),
              numCell(p.calls?.perSession, fmtCalls),
            ]
          : []),
        ...(anyWire ? [numCell(p.tokens.wire?.perCase, fmtInt)] : []),
        ...(anyFit
          ? [
              { ...numCell(fit?.share, fmtPct), ...(fit && fit.share < 1 ? { title: fitNote(fit)! } : {}) },
              numCell(fit?.window, fmtInt),
              numCell(fit?.overflowCases, fmtInt),
            ]
          : []),
      ];
    });
    parts.push(
      `<h3>What each profile puts in front of the model</h3>\n${compactTable('profiles-table', columns, table(columns, body, { sortable: true, id: 'profiles-table' }))}`,
    );
  } else parts.push(`<h3>What each profile puts in front of the model</h3>\n${absent(`${NOT_IN_RUN}: no profile was evaluated.`)}`);
  return section('tokens', 'Tokens', '', parts.join('\n'));
}

/** Calls per success: the figure, "n/a" (with why) when no request's gold reached the model, "–" in results written before it was counted. */
function callsPerSuccessCell(v: number | null | undefined): Cell {
  if (v === null) return { html: `<span class="na">${NA}</span>`, num: true, title: "not applicable: no request's gold tools reached the model" };
  return numCell(v, fmtCalls);
}
