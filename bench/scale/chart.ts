/**
 * `reports/bench/scale.png`: three log-log panels against the tool count (build time, request
 * latency, memory), each drawn by the report's chart.js renderer (`renderPng`, read-only reuse) and
 * laid side by side on one @napi-rs/canvas. A grey dashed line in each panel grows exactly in
 * proportion to the tool count from the first series' 50,000-tool point: a series parallel to it
 * is linear, a steeper one is not.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { colour, type ChartSpec } from '../../src/report/charts.ts';
import { renderPng } from '../../src/report/png.ts';
import type { SizeResult } from './one-size.ts';

export interface Series {
  label: string;
  /** One value per size (same order as `tools`); `null` = not measured. */
  values: Array<number | null>;
  dashed?: boolean;
  /** Palette position (default: the series' position), so that a p99 line can share its p50's colour. */
  colour?: number;
}

export interface Panel {
  id: string;
  title: string;
  yLabel: string;
  series: Series[];
}

const PANEL = { width: 800, height: 720 } as const;

function panelSpec(panel: Panel, tools: readonly number[], reference: number): ChartSpec {
  const datasets: Array<Record<string, unknown>> = panel.series.map((s, i) => ({
    label: s.label,
    data: tools.map((x, j) => ({ x, y: s.values[j] ?? null })).filter((p) => p.y !== null && p.y > 0),
    borderColor: colour(s.colour ?? i),
    backgroundColor: colour(s.colour ?? i),
    borderWidth: 3,
    pointRadius: 5,
    ...(s.dashed ? { borderDash: [10, 6] } : {}),
  }));
  const first = panel.series[0]?.values;
  const at = tools.indexOf(reference);
  const anchor = at >= 0 && first ? first[at] : null;
  if (anchor !== null && anchor !== undefined && anchor > 0) {
    datasets.push({
      label: `∝ tools (from ${panel.series[0]!.label} at ${reference / 1000}k)`,
      data: tools.map((x) => ({ x, y: (anchor * x) / reference })),
      borderColor: '#999999',
      backgroundColor: '#999999',
      borderDash: [4, 4],
      borderWidth: 2,
      pointRadius: 0,
    });
  }
  return {
    id: panel.id,
    title: panel.title,
    caption: '',
    config: {
      type: 'line',
      data: { datasets },
      options: {
        responsive: false,
        animation: false,
        plugins: {
          title: { display: true, text: panel.title, font: { size: 22 } },
          legend: { position: 'bottom', labels: { font: { size: 15 } } },
        },
        scales: {
          x: {
            type: 'logarithmic',
            title: { display: true, text: 'tools in the catalog (log)', font: { size: 16 } },
            ticks: { font: { size: 14 }, autoSkip: true, autoSkipPadding: 24, maxRotation: 0 },
          },
          y: { type: 'logarithmic', title: { display: true, text: panel.yLabel, font: { size: 16 } }, ticks: { font: { size: 14 } } },
        },
      },
    },
  };
}

/** The panels side by side as one PNG. */
export async function renderPanels(panels: readonly Panel[], tools: readonly number[], reference = 50_000): Promise<Buffer> {
  const canvas = createCanvas(PANEL.width * panels.length, PANEL.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (const [i, panel] of panels.entries()) {
    const png = renderPng(panelSpec(panel, tools, reference), PANEL);
    ctx.drawImage(await loadImage(png), i * PANEL.width, 0);
  }
  return canvas.toBuffer('image/png');
}

/** The scale report's three panels: build time, request latency, memory. */
export function scalePanels(results: readonly SizeResult[], requests: number): Panel[] {
  const each = (f: (s: SizeResult) => number): number[] => results.map(f);
  return [
    {
      id: 'scale-time',
      title: 'Build time (solid: wall; dashed: wall less GC pauses)',
      yLabel: 'seconds (log)',
      series: [
        { label: 'generate', values: each((s) => s.generateMs / 1000) },
        { label: 'bm25 index', values: each((s) => s.bm25.indexMs / 1000) },
        { label: 'embed index (cold encode)', values: each((s) => s.embed.indexMs / 1000) },
        { label: 'generate, no GC', values: each((s) => (s.generateMs - s.generateGcMs) / 1000), dashed: true, colour: 0 },
        { label: 'bm25 index, no GC', values: each((s) => (s.bm25.indexMs - s.bm25.indexGcMs) / 1000), dashed: true, colour: 1 },
        { label: 'embed index, no GC', values: each((s) => (s.embed.indexMs - s.embed.indexGcMs) / 1000), dashed: true, colour: 2 },
      ],
    },
    {
      id: 'scale-latency',
      title: `Top-10 request latency (${requests} requests)`,
      yLabel: 'milliseconds per request (log)',
      series: [
        { label: 'bm25 p50', values: each((s) => s.bm25.p50Ms) },
        { label: 'embed p50', values: each((s) => s.embed.p50Ms) },
        { label: 'bm25 p99', values: each((s) => s.bm25.p99Ms), dashed: true, colour: 0 },
        { label: 'embed p99', values: each((s) => s.embed.p99Ms), dashed: true, colour: 1 },
      ],
    },
    {
      id: 'scale-memory',
      title: 'Memory (after GC)',
      yLabel: 'MB (log)',
      series: [
        { label: 'catalog (JS heap)', values: each((s) => s.catalogHeapMb) },
        { label: 'bm25 index (heap + buffers)', values: each((s) => s.bm25.indexMb) },
        { label: 'embed index (heap + buffers)', values: each((s) => s.embed.indexMb) },
        { label: 'peak RSS', values: each((s) => s.peakRssMb) },
      ],
    },
  ];
}
