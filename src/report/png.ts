/**
 * The charts of a results file as PNG images for slides and design reviews: the same chart.js
 * configurations the HTML report embeds (`chartsOf`), drawn server-side by chartjs-node-canvas on
 * @napi-rs/canvas (aliased as `canvas`). 1600×900 by default (16:9, legible on a slide), white
 * background, fonts as the spec gives them. Deterministic: the same spec gives the same bytes.
 *
 * chartjs-node-canvas loads `chart.js/auto`, so every controller, element and scale (the
 * logarithmic one included) is registered; nothing is tree-shaken away.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChartJSNodeCanvas } from 'chartjs-node-canvas';
import type { Results } from '../eval/results.ts';
import { chartsOf, type ChartSpec } from './charts.ts';

export interface PngSize {
  width: number;
  height: number;
}

export const DEFAULT_PNG_SIZE: Readonly<PngSize> = Object.freeze({ width: 1600, height: 900 });

/** One renderer per size, reused: each one loads its own chart.js. */
const renderers = new Map<string, ChartJSNodeCanvas>();

function rendererOf(size: PngSize): ChartJSNodeCanvas {
  const { width, height } = size;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) throw new Error(`PNG size must be positive whole pixels, got ${width}×${height}`);
  const key = `${width}x${height}`;
  let r = renderers.get(key);
  if (!r) {
    r = new ChartJSNodeCanvas({ width, height, backgroundColour: 'white' });
    renderers.set(key, r);
  }
  return r;
}

/**
 * One chart as a PNG. The configuration is deep-copied first: chart.js (and chartjs-node-canvas)
 * write into the configuration they are given. The synchronous API is the one that works on the
 * @napi-rs/canvas backend.
 */
export function renderPng(spec: ChartSpec, size: PngSize = DEFAULT_PNG_SIZE): Buffer {
  const config = structuredClone(spec.config);
  // chartjs-node-canvas types the configuration with chart.js's own types; ours is plain JSON.
  return rendererOf(size).renderToBufferSync(config as unknown as Parameters<ChartJSNodeCanvas['renderToBufferSync']>[0], 'image/png');
}

/**
 * Every chart of a results file as `<dir>/<id>.png` (the folder is created), each file written
 * atomically (a temporary sibling, then renamed). Returns the file names, in report order.
 */
export function writePngs(results: Results, dir: string, size: PngSize = DEFAULT_PNG_SIZE): string[] {
  mkdirSync(dir, { recursive: true });
  const names: string[] = [];
  for (const spec of chartsOf(results)) {
    const name = `${spec.id}.png`;
    const target = join(dir, name);
    const tmp = join(dir, `.${name}.tmp-${process.pid}`);
    try {
      writeFileSync(tmp, renderPng(spec, size));
      renameSync(tmp, target);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    names.push(name);
  }
  return names;
}
