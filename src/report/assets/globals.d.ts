/**
 * The globals of the report pages' scripts (this folder), for their type check alone
 * (tsconfig.assets.json, run by `npm run typecheck` and `npm test`): what the page gives them
 * (chart.js's UMD build, inlined before them by src/report/html/inline.ts), what one script gives
 * another (`backpackChartPlugins` is declared by chart-plugins.js itself; `window.backpackExplorer`
 * by explorer.js, for compare.js), and the shapes of what the report writes for them: the chart
 * specs' datasets (src/report/charts/) and the case explorer's JSON (src/report/explorer.ts).
 * A declaration file: the build does not copy it and no page includes it.
 */

/** chart.js: its UMD build, inlined before the page's scripts. */
declare const Chart: typeof import('chart.js').Chart;

/** A chart.js chart, as the plugins' hooks receive it. */
type BackpackChart = import('chart.js').Chart;

/** A chart.js `Chart` class that `backpackChartPlugins.install` has set up (or not yet). */
type BackpackChartClass = typeof import('chart.js').Chart & { __backpackPlugins?: boolean };

/** A chart.js plugin of Backpack's, with the options it reads under `options.plugins[id]`. */
type BackpackPlugin<O> = import('chart.js').Plugin<import('chart.js').ChartType, O>;

/** A font of a plugin's options (chart.js's `font` option). */
interface BackpackFont {
  size?: unknown;
  weight?: unknown;
  family?: unknown;
}

/**
 * What the plugins read of a chart spec's dataset (src/report/charts/, the spec's JSON): each
 * `unknown`, as the plugins check every value before they use it.
 */
interface BackpackDataset {
  data?: unknown;
  errorBars?: unknown;
  errorBarColour?: unknown;
  errorBarWidth?: unknown;
  errorBarOffset?: unknown;
  pointLabels?: unknown;
  tips?: unknown;
  hideInLegend?: unknown;
}

/** What the plugins read of a drawn element (a point or a bar) of a dataset. */
interface BackpackElement {
  x: number;
  y: number;
  skip?: boolean;
  width?: unknown;
  options?: { radius?: unknown };
}

/** What explorer.js gives the page: compare.js opens a changed case's rankings with `openId`. */
interface BackpackExplorer {
  open(i: number): void;
  openId(id: string | null): void;
  apply(): void;
}

interface Window {
  backpackExplorer?: BackpackExplorer;
}

/** A case of the explorer's data: its id, request, slices, gold tools (null: a skill-only case) and their namespaces, as indices. */
type ExplorerCase = [id: string, request: string, slices: number[], gold: number[] | null, namespaces: number[]];

/**
 * One strategy in one run: its outcome codes (one digit a case, an index into `outcomes`) and each
 * case's ranking (`[tool, score, …]`, tools as indices); null when the run has no such strategy.
 */
type ExplorerStrategyRun = [outcomes: string, ranked: number[][]] | null;

/** The case explorer's data: the JSON block `#x-data` (`explorerData` in src/report/explorer.ts). */
interface ExplorerData {
  metric: string;
  /** The source of the character class shown as `[U+XXXX]` (`INVISIBLE_SOURCE` in src/util/escape.ts). */
  invisible: string;
  depth: number;
  outcomes: string[];
  runs: string[];
  strategies: string[];
  tools: string[];
  summaries: Record<number, string>;
  slices: string[];
  namespaces: string[];
  cases: ExplorerCase[];
  perRun: ExplorerStrategyRun[][];
}
