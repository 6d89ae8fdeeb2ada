/**
 * One colour (and line/point style) per strategy, the same in every chart and table of a report.
 *
 * Palette (17 colours, all colour-blind safe): the colours of Okabe & Ito (2008) but yellow and
 * black, then the 9 colours of Paul Tol's "muted" scheme, then Okabe–Ito's yellow (faint on white)
 * and black (like the axes and text), which only a report of 16 or more names needs. Past 17, the
 * colours repeat with another point style and a dashed line, so no two series look alike.
 *
 * Assignment: the strategies of the main job ({@link FIXED_STYLE_NAMES}, 15 names) each own one of
 * the first 15 palette colours, in every report, comparison and history chart: `claude-code` is the
 * same colour whatever else a report holds. Every other name (another built-in, a plugin, a
 * harness's skill listing that is no strategy) takes, in sorted order (UTF-16 code units, each name
 * once), the next style no name of the report holds: the colours the fixed names present leave
 * free first, then the later rounds (another point style and a dash). So within a report no two
 * names share a style, a fixed name's colour never depends on the report, and another name's
 * depends only on the set of names in it, never on which strategies a chart shows nor their order.
 */
import { MAIN_JOB_PROFILES, MAIN_JOB_RETRIEVERS } from '../eval/main-job.ts';
import type { Results } from '../eval/results.ts';

/** Okabe–Ito, yellow and black last. */
export const OKABE_ITO: readonly string[] = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

/** Paul Tol's muted scheme (without its pale grey for bad data). */
export const TOL_MUTED: readonly string[] = ['#332288', '#88CCEE', '#44AA99', '#117733', '#999933', '#DDCC77', '#CC6677', '#882255', '#AA4499'];

/** Every colour a strategy may get, in assignment order. */
export const STRATEGY_PALETTE: readonly string[] = [...OKABE_ITO.slice(0, 6), ...TOL_MUTED, ...OKABE_ITO.slice(6)];

/** Point styles by round through the palette (chart.js names). */
const POINT_STYLES = ['circle', 'rectRot', 'triangle', 'rect', 'star', 'crossRot'] as const;
/** Line dashes by round through the palette (none on the first). */
const DASHES: ReadonlyArray<readonly number[]> = [[], [10, 6], [2, 4], [12, 4, 2, 4], [6, 3], [1, 3]];

/** How one series is drawn: its colour, its point style and its line dash (empty: solid). */
export interface SeriesStyle {
  colour: string;
  pointStyle: string;
  dash: number[];
}

/** The style of the i-th name: palette colour `i mod 17`, then point style and dash by round. */
export function styleAt(i: number): SeriesStyle {
  const n = STRATEGY_PALETTE.length;
  const round = Math.floor(i / n);
  return {
    colour: STRATEGY_PALETTE[i % n]!,
    pointStyle: POINT_STYLES[round % POINT_STYLES.length]!,
    dash: [...DASHES[round % DASHES.length]!],
  };
}

/**
 * The main job's strategies (`backpack run`: its retrievers, then its profiles), which own the
 * first palette colours in every report (the run command takes its defaults from the same lists).
 */
export const FIXED_STYLE_NAMES: readonly string[] = [...MAIN_JOB_RETRIEVERS, ...MAIN_JOB_PROFILES];

/** The names sorted by UTF-16 code units, each once. */
function sortedUnique(names: readonly string[]): string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The style of every name: the i-th of the sorted, de-duplicated names gets {@link styleAt}(i).
 * Pass the report's full list of names (not a chart's), so that every chart agrees.
 */
export function strategyStyles(names: readonly string[]): Map<string, SeriesStyle> {
  const all = sortedUnique(names);
  const out = new Map<string, SeriesStyle>();
  const taken = new Set<number>();
  for (const name of all) {
    const i = FIXED_STYLE_NAMES.indexOf(name);
    if (i < 0) continue;
    out.set(name, styleAt(i));
    taken.add(i);
  }
  let next = 0;
  for (const name of all) {
    if (out.has(name)) continue;
    while (taken.has(next)) next++;
    out.set(name, styleAt(next));
    taken.add(next);
  }
  return new Map(all.map((name) => [name, out.get(name)!]));
}

/**
 * The colour (`#RRGGBB`) of every name, as {@link strategyStyles}: the same name gets the same colour
 * whatever the order of `names`; distinct names get distinct colours up to 17 names.
 */
export function strategyColours(names: readonly string[]): Map<string, string> {
  return new Map([...strategyStyles(names)].map(([name, s]) => [name, s.colour]));
}

/**
 * The names a report colours: every retriever and profile, and every skill listing of the skills
 * comparison (its listings are named after harnesses, `claude-code`, `codex`…, so a harness has one
 * colour in the profile charts and in the skills chart).
 */
export function reportNames(r: Results): string[] {
  const listings = Object.keys(r.skills?.sizes?.[0]?.listings ?? {});
  return sortedUnique([...Object.keys(r.retrievers ?? {}), ...Object.keys(r.profiles ?? {}), ...listings]);
}

/** The style of every strategy (and skill listing) of a report: what every chart of `chartsOf` (charts.ts) uses. */
export function reportStyles(r: Results): Map<string, SeriesStyle> {
  return strategyStyles(reportNames(r));
}

/**
 * The colour of every strategy (and skill listing) of a report, for tables and legends outside the
 * charts: `reportColours(r).get(name)` is the colour the charts draw `name` in. The values are
 * `#RRGGBB` literals, safe in a `style` attribute; the names are untrusted (escape them).
 */
export function reportColours(r: Results): Map<string, string> {
  return strategyColours(reportNames(r));
}

/** `#RRGGBB` with an alpha (0..1) as `rgba(…)`, for a lighter fill of a strategy's colour. */
export function withAlpha(hex: string, alpha: number): string {
  const v = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(v >> 16) & 255}, ${(v >> 8) & 255}, ${v & 255}, ${alpha})`;
}
