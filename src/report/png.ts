/**
 * The charts of a results file as PNG images for slides and design reviews: the same chart.js
 * configurations the HTML report embeds (`chartsOf`), drawn server-side by chart.js on an
 * @napi-rs/canvas canvas (prebuilt binaries: nothing to compile when installing). 1600×900 by
 * default (16:9, legible on a slide), white background, fonts as the spec gives them; `writePngs`
 * also writes each chart at twice the pixels (`<id>@2x.png`, 3200×1800: the same layout drawn
 * with a device pixel ratio of 2, so text and lines are twice as sharp, for slides).
 * Deterministic: the same spec gives the same bytes.
 *
 * Backpack's chart.js plugins (error bars, point labels, reference lines: assets/chart-plugins.js)
 * are the same file the HTML report inlines, evaluated here once in a sandbox (`node:vm`) and
 * registered on chart.js, so both renderers draw the same thing from the same spec.
 *
 * `chart.js/auto` registers every controller, element and scale (the logarithmic one included);
 * nothing is tree-shaken away. Both chart.js and the canvas are loaded on the first render, so
 * commands that draw no chart do not pay for them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { makeDirs, writeFileAtomic } from '../util/atomic-write.ts';
import type { Results } from '../eval/results.ts';
import { chartsOf, type ChartSpec } from './charts.ts';

export interface PngSize {
  width: number;
  height: number;
}

export const DEFAULT_PNG_SIZE: Readonly<PngSize> = Object.freeze({ width: 1600, height: 900 });

/** The pixel ratio of the `@2x` PNGs `writePngs` writes beside the others. */
export const SLIDE_PIXEL_RATIO = 2;

/** The slice of chart.js used here. */
interface ChartInstance {
  destroy(): void;
}
interface ChartClass {
  new (context: unknown, config: unknown): ChartInstance;
}
/** The slice of @napi-rs/canvas used here. */
interface NodeCanvas {
  getContext(kind: '2d'): unknown;
  toBuffer(mime: 'image/png'): Buffer;
}
interface Drawing {
  Chart: ChartClass;
  createCanvas(width: number, height: number): NodeCanvas;
}

let drawing: Drawing | undefined;

/**
 * chart.js (its CommonJS build, which registers everything, as `chart.js/auto`) and
 * `createCanvas`, loaded once. Paints the canvas white under each chart (the plugin runs before
 * chart.js draws and fills behind whatever is drawn).
 */
function load(): Drawing {
  if (drawing) return drawing;
  const require = createRequire(import.meta.url);
  const Chart = require('chart.js/auto') as ChartClass & { register(plugin: object): void };
  const { createCanvas } = require('@napi-rs/canvas') as { createCanvas(width: number, height: number): NodeCanvas };
  chartPlugins().install(Chart);
  Chart.register({
    id: 'backpack-white-background',
    beforeDraw(chart: { ctx: CanvasRenderingContext2DLike; width: number; height: number }) {
      const ctx = chart.ctx;
      ctx.save();
      ctx.globalCompositeOperation = 'destination-over';
      ctx.fillStyle = 'white';
      ctx.fillRect(0, 0, chart.width, chart.height);
      ctx.restore();
    },
  });
  drawing = { Chart, createCanvas };
  return drawing;
}

/** What assets/chart-plugins.js defines (`backpackChartPlugins`). */
interface ChartPlugins {
  plugins: Array<{ id: string }>;
  install(chart: unknown): void;
  tipOf(item: unknown): string | string[] | undefined;
}

let pluginsLoaded: ChartPlugins | undefined;

/**
 * Backpack's chart.js plugins (assets/chart-plugins.js, the file the HTML report inlines),
 * evaluated once in a fresh context: the file defines only `backpackChartPlugins`.
 */
export function chartPlugins(): ChartPlugins {
  if (!pluginsLoaded) {
    const source = readFileSync(new URL('./assets/chart-plugins.js', import.meta.url), 'utf8');
    pluginsLoaded = runInNewContext(`${source}\nbackpackChartPlugins;`, {}, { filename: 'chart-plugins.js' }) as ChartPlugins;
  }
  return pluginsLoaded;
}

interface CanvasRenderingContext2DLike {
  save(): void;
  restore(): void;
  globalCompositeOperation: string;
  fillStyle: string;
  fillRect(x: number, y: number, w: number, h: number): void;
}

function checkSize(size: PngSize): void {
  const { width, height } = size;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0)
    throw new Error(`PNG size must be positive whole pixels, got ${width}×${height}`);
}

/**
 * One chart as a PNG. The configuration is deep-copied first: chart.js writes into the
 * configuration it is given. Not responsive and not animated: the chart is drawn once, at the
 * canvas's size, when it is created; the canvas is then encoded synchronously.
 *
 * @param size the layout size (CSS pixels: fonts, paddings and point radii are laid out for it).
 * @param pixelRatio pixels per layout pixel (a whole number ≥ 1): the PNG is `size × pixelRatio`
 *   pixels, everything drawn that much sharper (2 for the `@2x` slide images).
 */
export function renderPng(spec: ChartSpec, size: PngSize = DEFAULT_PNG_SIZE, pixelRatio = 1): Buffer {
  checkSize(size);
  if (!Number.isInteger(pixelRatio) || pixelRatio < 1) throw new Error(`PNG pixel ratio must be a whole number ≥ 1, got ${pixelRatio}`);
  const { Chart, createCanvas } = load();
  const config = structuredClone(spec.config) as { options?: Record<string, unknown> };
  config.options = { ...(config.options ?? {}), responsive: false, animation: false, devicePixelRatio: pixelRatio };
  const canvas = createCanvas(size.width, size.height) as NodeCanvas & { style?: object };
  // chart.js reads the canvas's style (a DOM canvas has one).
  canvas.style ??= {};
  const chart = new Chart(canvas.getContext('2d'), config);
  try {
    return canvas.toBuffer('image/png');
  } finally {
    chart.destroy();
  }
}

/**
 * Every chart of a results file as `<dir>/<id>.png` (at `size`) and `<dir>/<id>@2x.png` (the same
 * chart at twice the pixels, for slides), the folder created, each file written atomically (a
 * temporary sibling, then renamed); `extra`: charts drawn from more than the results (the Tool use
 * chart). Returns the file names, in report order, each chart's
 * `<id>.png` followed by its `<id>@2x.png`.
 */
export function writePngs(results: Results, dir: string, size: PngSize = DEFAULT_PNG_SIZE, extra: readonly ChartSpec[] = []): string[] {
  checkSize(size);
  makeDirs(dir);
  const names: string[] = [];
  for (const spec of [...chartsOf(results), ...extra]) {
    for (const [name, ratio] of [
      [`${spec.id}.png`, 1],
      [`${spec.id}@2x.png`, SLIDE_PIXEL_RATIO],
    ] as const) {
      writeFileAtomic(join(dir, name), renderPng(spec, size, ratio));
      names.push(name);
    }
  }
  return names;
}
