/**
 * The summary `eval`, `run` and `merge` print: the headline figures of each strategy, aligned.
 */
import { consoleLabel, metricLabel } from '../metrics/ids.ts';
import type { FloorSetting, Results } from '../eval/results.ts';
import { fitMark, floorNumber, THIN_CASES, thinness } from '../report/view.ts';
import { DEFAULT_CONTEXT_WINDOW } from '../profiles/types.ts';

/** A compact table of the headline figures of each retriever. */
export function formatRunSummary(r: Results): string {
  const ks = r.config.ks;
  const profiles = Object.entries(r.profiles ?? {});
  const cols = ['top1', ...ks.map((k) => `recall@${k}`), 'mrr@10', ...(profiles.length ? ['visible'] : []), 'noToolFalsePositiveRate', 'scopeLeakCount'];
  const head = ['strategy', ...cols.map(consoleLabel), 'floor', metricLabel('p50Ms')];
  const rows = [...Object.entries(r.retrievers), ...profiles].map(([name, x]) => [
    name,
    ...cols.map((c) => {
      const v = x.metrics.overall[c];
      if (v === undefined) return 'n/a';
      if (c === 'scopeLeakCount') return String(v);
      return thinness(x.metrics.overall, c) ? `${v.toFixed(3)}†` : v.toFixed(3);
    }),
    floorLabel(r.config.floors[name]),
    x.latency.p50Ms.toFixed(3),
  ]);
  const shard = r.shard ? ` (shard ${r.shard.index}/${r.shard.count})` : '';
  const out = [
    `${r.dataset.name}${shard}: ${r.dataset.cases.toLocaleString('en-US')} cases, ${r.dataset.tools.toLocaleString('en-US')} tools`,
    ...alignRows(head, rows),
  ];
  const thin = [...Object.values(r.retrievers), ...profiles.map(([, p]) => p)].flatMap((x) =>
    cols.map((c) => thinness(x.metrics.overall, c)).filter((t): t is string => t !== undefined),
  );
  if (thin.length)
    out.push(
      `† thin: a mean over fewer than ${THIN_CASES} cases of the kind it counts (${[...new Set(thin.map((t) => t.replace(/^thin: a mean over /, '').replace(/ \(fewer than \d+\)$/, '')))].join('; ')}): one case moves it by a tenth or more`,
    );
  if (profiles.length) {
    const int = (x: number) => Math.round(x).toLocaleString('en-US');
    const tokenHead = ['profile tokens (o200k)', 'before search', 'per search', 'per case', 'visible/1k tok', '12 turns', '12 turns cached', 'context fit'];
    const tokenRows = profiles.map(([name, p]) => [
      name,
      int(p.tokens.beforeSearch),
      int(p.tokens.perSearch),
      int(p.tokens.perCase),
      p.tokens.visiblePer1kTokens.toFixed(4),
      int(p.tokens.session12Uncached),
      int(p.tokens.session12Cached),
      fitMark({ share: p.tokens.fitsContext ?? 1, window: p.tokens.contextWindow ?? DEFAULT_CONTEXT_WINDOW }) ?? 'fits',
    ]);
    out.push('', ...alignRows(tokenHead, tokenRows));
    if (profiles.some(([, p]) => (p.tokens.fitsContext ?? 1) < 1))
      out.push(
        `(a case whose prompt does not fit the ${int(profiles[0]![1].tokens.contextWindow ?? DEFAULT_CONTEXT_WINDOW)}-token context window counts as not visible and as no hit for recall; ${consoleLabel('noToolFalsePositiveRate')} counts any tool in front of the model that is neither pinned nor the harness's own core tool)`,
      );
  }
  return out.join('\n');
}

/** A floor as the summary table shows it: `-` (none), a score, or `auto score` (`auto: n/a` where floors do not apply). */
function floorLabel(f: FloorSetting | undefined): string {
  if (f === null || f === undefined) return '-';
  if (typeof f === 'number') return floorNumber(f);
  return f.value === null ? 'auto: n/a' : `auto ${floorNumber(f.value)}`;
}

/** Rows of cells as aligned lines: the first column left-aligned, the others right-aligned. */
export function alignRows(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)];
}
