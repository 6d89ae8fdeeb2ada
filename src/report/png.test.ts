import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { FULL_RUN_CHART_IDS, tempDir, tinyInput } from '../../test/helpers.ts';
import type { Results } from '../eval/results.ts';
import { makeConfig, runEval } from '../eval/run.ts';
import { chartsOf, type ChartSpec } from './charts.ts';
import { renderPng, writePngs } from './png.ts';

const tmp = tempDir('png');
const { input } = tinyInput();
const ALL = FULL_RUN_CHART_IDS;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk (bytes 16–23, big-endian), after checking the signature and the chunk type. */
function ihdr(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The decoded pixels as 0xRRGGBBAA words. */
async function pixels(png: Buffer): Promise<Uint32Array> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const { data } = ctx.getImageData(0, 0, img.width, img.height);
  const out = new Uint32Array(img.width * img.height);
  for (let i = 0; i < out.length; i++) out[i] = ((data[4 * i]! << 24) | (data[4 * i + 1]! << 16) | (data[4 * i + 2]! << 8) | data[4 * i + 3]!) >>> 0;
  return out;
}

const WHITE = 0xffffffff;
const rgba = (hex: string) => ((parseInt(hex.slice(1), 16) << 8) | 0xff) >>> 0;

/** The chart without title and legend: what is left in the datasets' colours is data. */
function bare(spec: ChartSpec): ChartSpec {
  const b = structuredClone(spec);
  b.config.options.plugins = { title: { display: false }, legend: { display: false } };
  return b;
}

let full: Results;
let single: Results;

beforeAll(async () => {
  const floors = { bm25: null, 'bm25-plain': null, static: null, codex: null, deferred: null };
  full = (await runEval(input, makeConfig(['bm25', 'bm25-plain'], [1, 3, 5, 10], floors, null, false, ['static', 'codex', 'deferred']))).results;
  single = (await runEval(input, makeConfig(['bm25'], [1, 3, 5, 10], { bm25: null }, null))).results;
  // Through JSON, as a reporter reads results.json.
  full = JSON.parse(JSON.stringify(full)) as Results;
  single = JSON.parse(JSON.stringify(single)) as Results;
});

/** Each chart's file and its @2x one, in report order. */
const files = (ids: readonly string[]) => ids.flatMap((id) => [`${id}.png`, `${id}@2x.png`]);

// Budget: 120 s a test (measured 2026-12-07 on 2 cores: at most 5.2 s quiet and 39 s at load 10–13,
// every chart of a full run written at 1× and 2× and its pixels read; 8.9 s and 83 s at load 12–17
// when that test also drew every chart again without title and legend, now a test of its own).
describe('PNG charts', { timeout: 120_000 }, () => {
  const dir = join(tmp, 'full', 'nested'); // created
  it('writes every chart of a full run as a 1600×900 PNG with a drawn chart on a white background, and at 3200×1800 as <id>@2x.png', async () => {
    expect(chartsOf(full).map((c) => c.id)).toEqual(ALL);
    const names = writePngs(full, dir);
    expect(names).toEqual(files(ALL));
    expect(readdirSync(dir).sort()).toEqual([...names].sort()); // no temporary files left behind
    for (const id of ALL) expect(ihdr(readFileSync(join(dir, `${id}@2x.png`))), id).toEqual({ width: 3200, height: 1800 });
    for (const name of names.filter((n) => !n.includes('@2x'))) {
      const png = readFileSync(join(dir, name));
      expect(ihdr(png), name).toEqual({ width: 1600, height: 900 });
      const px = await pixels(png);
      expect(px.length).toBe(1600 * 900);
      expect(new Set(px).size, name).toBeGreaterThanOrEqual(3);
      const nonWhite = px.filter((p) => p !== WHITE).length / px.length;
      expect(nonWhite, name).toBeGreaterThan(0.02); // axes, grid, text, data
      expect(nonWhite, name).toBeLessThan(0.9); // the background is white, not transparent or black
      expect(px[0], `${name}: corner`).toBe(WHITE);
    }
  });

  it("draws the data: without title and legend, the datasets' own colours still cover a fair area of every chart", async () => {
    for (const spec of chartsOf(full)) {
      const px = await pixels(renderPng(bare(spec)));
      const colours = new Set(spec.config.data.datasets.map((d) => rgba(String(d.backgroundColor))));
      expect(px.filter((p) => colours.has(p)).length, spec.id).toBeGreaterThan(400);
    }
  });

  it('renders at the size asked for', () => {
    const spec = chartsOf(full)[0]!;
    expect(ihdr(renderPng(spec, { width: 800, height: 450 }))).toEqual({ width: 800, height: 450 });
    expect(ihdr(renderPng(spec, { width: 1200, height: 1200 }))).toEqual({ width: 1200, height: 1200 });
    expect(ihdr(renderPng(spec))).toEqual({ width: 1600, height: 900 }); // the default renderer is still fine after the others
    expect(() => renderPng(spec, { width: 0, height: 900 })).toThrow(/positive whole pixels/);
  });

  it('is deterministic and leaves the spec untouched', () => {
    const specs = chartsOf(full);
    for (const spec of specs) {
      const before = JSON.stringify(spec);
      // the same bytes as the file the first test wrote: two renders of the chart, one PNG (a third
      // render of each chart, of a copy, would only repeat this comparison at the cost of a render)
      expect(renderPng(spec).equals(readFileSync(join(dir, `${spec.id}.png`))), spec.id).toBe(true);
      expect(JSON.stringify(spec), spec.id).toBe(before); // chart.js mutates the configuration it gets: a copy
    }
    // and one @2x (the 2× path is the same renderer at another ratio)
    expect(renderPng(specs[1]!, { width: 1600, height: 900 }, 2).equals(readFileSync(join(dir, `${specs[1]!.id}@2x.png`)))).toBe(true);
  });

  it('draws one point per profile on the logarithmic tokens axis', async () => {
    const spec = chartsOf(full).find((c) => c.id === 'recall-vs-tokens')!;
    expect((spec.config.options.scales as { x: { type: string } }).x.type).toBe('logarithmic');
    const datasets = spec.config.data.datasets;
    expect(datasets.length).toBe(3);
    for (const d of datasets) expect((d.data as unknown[]).length).toBe(1);
    // Without title and legend, the only pixels of a dataset's colour are its point.
    const px = await pixels(renderPng(bare(spec)));
    for (let i = 0; i < datasets.length; i++) {
      const c = rgba(String(datasets[i]!.backgroundColor));
      const n = px.filter((p) => p === c).length;
      expect(n, String(datasets[i]!.label)).toBeGreaterThan(50); // a filled point of radius 9, partly covered by another at most
    }
  });

  it('gives a single-retriever run only the charts whose sections exist', () => {
    const ids = chartsOf(single).map((c) => c.id);
    expect(ids).not.toContain('recall-vs-tokens');
    expect(ids).toContain('recall-at-k');
    const dir = join(tmp, 'single');
    const names = writePngs(single, dir);
    expect(names).toEqual(files(ids));
    expect(readdirSync(dir).sort()).toEqual([...names].sort());
    for (const name of names)
      expect(ihdr(readFileSync(join(dir, name)))).toEqual(name.includes('@2x') ? { width: 3200, height: 1800 } : { width: 1600, height: 900 });
  });
});
