/**
 * The charts' design: one colour per strategy in every chart, error bars from the bootstrap
 * intervals, labelled scatter points on axes that hold them, the context-window line, every
 * category label, titles with the dataset and k, the skills chart on a small catalog, and the
 * plugins both renderers share (they draw, deterministically, at 1× and 2×). Results are built by
 * hand (test/results-fixtures.ts) with many strategies; each test states the figures it checks.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import type { Results } from '../eval/results.ts';
import { chartsOf, logBounds, type ChartSpec } from './charts.ts';
import { FULL_RUN_CHART_IDS } from '../../test/helpers.ts';
import { FIXED_STYLE_NAMES, reportColours, STRATEGY_PALETTE, strategyColours, strategyStyles } from './colours.ts';
import { chartPlugins, renderPng } from './png.ts';
import { handBuilt } from '../../test/results-fixtures.ts';

type Table = Record<string, number>;
type Dataset = Record<string, unknown> & { label: string; strategy?: string; data: unknown[] };

const SLICES = ['lexical', 'paraphrase', 'cross-phase', 'multi-tool', 'near-duplicate', 'rare-tool', 'scope-restricted', 'a-rather-long-slice-name'];

/** [v − 0.1, v + 0.05] within [0, 1]: an interval a reader can check by hand. */
const iv = (v: number): [number, number] => [Math.max(0, Number((v - 0.1).toFixed(6))), Math.min(1, Number((v + 0.05).toFixed(6)))];
const ivTable = (t: Table): Record<string, [number, number]> =>
  Object.fromEntries(
    Object.entries(t)
      .filter(([k]) => !['cases', 'gradedCases', 'noToolCases', 'multiGoldCases', 'scopeLeakCount'].includes(k))
      .map(([k, v]) => [k, iv(v)]),
  );

/** A skills comparison of `codex`, `claude-code` and the searched index at the given (asked, actual) sizes. */
function skillsOf(sizes: Array<[number, number]>): Results['skills'] {
  const listing = (tokens: number, d: number) => ({ tokens, discoverability: { withDescription: d } });
  return {
    contextWindow: 200_000,
    ks: [1, 5],
    counter: 'o200k',
    retrieval: 'bm25',
    sizes: sizes.map(([n, skills], i) => ({
      n,
      skills,
      skillCases: 10,
      listings: {
        codex: listing(300 * (i + 1) * skills, 0.9 - i * 0.3),
        'claude-code': listing(100 * (i + 1) * skills, 0.8 - i * 0.2),
        'searched-index': listing(250, 0.95),
      },
    })),
  } as unknown as Results['skills'];
}

/**
 * handBuilt() with 11 strategies: retrievers bm25, dense and copies `bm25-plain`, `embed`, `hybrid`,
 * `zz-custom`; profiles static, deferred, huge (fits 50%) and copies `codex`, `claude-code`; 8
 * slices; bootstrap intervals (see {@link iv}) when `ci`; call figures, session churn and skills.
 */
function many(ci = true): Results {
  const r = handBuilt({ name: 'monster-7' });
  const clone = <T>(x: T): T => structuredClone(x);
  r.retrievers['bm25-plain'] = clone(r.retrievers.bm25!);
  r.retrievers.embed = clone(r.retrievers.dense!);
  r.retrievers.hybrid = clone(r.retrievers.dense!);
  r.retrievers['zz-custom'] = clone(r.retrievers.bm25!);
  r.profiles!.codex = clone(r.profiles!.deferred!);
  r.profiles!['claude-code'] = clone(r.profiles!.deferred!);
  // distinct figures, so no series is merged with another
  let i = 0;
  for (const s of [...Object.values(r.retrievers), ...Object.values(r.profiles!)]) {
    i++;
    const o = s.metrics.overall as Table;
    for (const k of Object.keys(o)) if (/^recall@|^visible$/.test(k)) o[k] = Number(Math.min(1, o[k]! * (1 - i / 50)).toFixed(6));
    s.metrics.slices = Object.fromEntries(
      SLICES.map((n, j) => [n, Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number((v * (1 - j / 20)).toFixed(6))]))]),
    );
    if (ci)
      s.metrics.ci95 = { overall: ivTable(o), slices: Object.fromEntries(Object.entries(s.metrics.slices).map(([n, t]) => [n, ivTable(t)])), namespaces: {} };
    (s as { sessions?: unknown }).sessions = { perTurn: { churn: 0.5 - i / 40 }, sticky: { churn: 0.2 - i / 100 } };
    if ('abstention' in s && Array.isArray(s.abstention)) s.abstention = s.abstention.map((p) => ({ ...p, 'recall@5': p['recall@5'] * (1 - i / 50) }));
  }
  const calls = { searchesPerCase: 1, noToolPerCase: 1, perSession: 30, sessionBasis: 'cases', protocol: { search: 1, perFoundTool: 1, call: 'each' } };
  Object.values(r.profiles!).forEach((p, j) => {
    p.calls = { perCase: 1 + j * 0.5, ...calls } as never;
    p.tokens.perCase = [470, 2000, 250_000, 6797, 9120][j]!;
  });
  r.skills = skillsOf([
    [250, 250],
    [2500, 2500],
  ]);
  return r;
}

const spec = (cs: ChartSpec[], id: string): ChartSpec => {
  const c = cs.find((x) => x.id === id);
  if (!c) throw new Error(`no chart ${id}`);
  return c;
};
const datasets = (c: ChartSpec) => c.config.data.datasets as Dataset[];
const scales = (c: ChartSpec) => c.config.options.scales as Record<'x' | 'y', Record<string, unknown> & { ticks: Record<string, unknown> }>;
const plugins = (c: ChartSpec) => c.config.options.plugins as Record<string, Record<string, unknown>>;

describe('colours', () => {
  it('gives a name the same colour whatever the order of the names, distinct colours up to 17 names, distinct styles past them', () => {
    const names = ['static', 'bm25', 'claude-code', 'codex', 'deferred', 'bm25-plain'];
    const a = strategyColours(names);
    const b = strategyColours([...names].reverse());
    for (const n of names) expect(a.get(n)).toBe(b.get(n));
    // the main job's strategies own their colour: their place in FIXED_STYLE_NAMES, whatever else the report holds
    for (const n of names) expect(a.get(n)).toBe(STRATEGY_PALETTE[FIXED_STYLE_NAMES.indexOf(n)]);
    expect(strategyColours(['claude-code', 'zeta']).get('claude-code')).toBe(a.get('claude-code'));
    expect(strategyColours([...FIXED_STYLE_NAMES, 'my-plugin']).get('claude-code')).toBe(a.get('claude-code'));
    // another name takes the first colour the fixed names present leave free, in sorted order
    const mixed = strategyColours(['bm25', 'my-plugin', 'another']);
    expect([mixed.get('bm25'), mixed.get('another'), mixed.get('my-plugin')]).toEqual([STRATEGY_PALETTE[0], STRATEGY_PALETTE[1], STRATEGY_PALETTE[2]]);
    expect(STRATEGY_PALETTE.slice(0, 3)).toEqual(['#0072B2', '#E69F00', '#009E73']); // Okabe–Ito first
    const seventeen = Array.from({ length: 17 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    expect(new Set(strategyColours(seventeen).values()).size).toBe(17);
    const forty = Array.from({ length: 40 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    const styles = [...strategyStyles(forty).values()].map((s) => JSON.stringify(s));
    expect(new Set(styles).size).toBe(40);
    expect(strategyStyles(forty).get('s17')).toEqual({ colour: STRATEGY_PALETTE[0], pointStyle: 'rectRot', dash: [10, 6] });
  });

  it('draws each strategy in its report colour in every chart, one colour per name, distinct names distinct within a chart', () => {
    const r = many();
    const colours = reportColours(r);
    const charts = chartsOf(r);
    expect(charts.map((c) => c.id)).toEqual(FULL_RUN_CHART_IDS.filter((id) => id !== 'token-table')); // no token table: handBuilt has no rows
    const seen = new Map<string, Set<string>>();
    for (const c of charts) {
      const inChart = new Map<string, string>();
      for (const d of datasets(c)) {
        if (d.strategy === undefined) continue;
        const fill = String(d.backgroundColor);
        expect(fill, `${c.id}: ${d.label}`).toBe(colours.get(d.strategy));
        if (!String(d.label).includes(': calibrated floor')) expect(d.borderColor, `${c.id}: ${d.label}`).toBe(fill);
        // the dataset names the strategy it is drawn for
        expect(d.label.replace(/^searched skill index/, 'searched-index').startsWith(d.strategy), d.label).toBe(true);
        inChart.set(d.strategy, fill);
        seen.set(d.strategy, (seen.get(d.strategy) ?? new Set()).add(fill));
      }
      expect(new Set(inChart.values()).size, c.id).toBe(inChart.size);
    }
    // every strategy is drawn somewhere, always in one colour
    for (const name of [...Object.keys(r.retrievers), ...Object.keys(r.profiles!)]) expect(seen.get(name)?.size, name).toBe(1);
    expect(seen.get('codex')).toEqual(new Set([colours.get('codex')])); // the codex profile and the codex skill listing
    // the slice chart shows the 8 best of 10 ranking strategies: the colours still follow the names
    expect(datasets(spec(charts, 'slices')).length).toBe(8);
  });
});

describe('error bars', () => {
  it('are the ci95 intervals: recall@k per k, the slice chart per slice, the scatter per point', () => {
    const r = many();
    const charts = chartsOf(r);
    const s = (name: string) => r.retrievers[name] ?? r.profiles![name]!;
    for (const d of datasets(spec(charts, 'recall-at-k')))
      expect(d.errorBars, d.label).toEqual(r.config.ks.map((k) => s(d.strategy!).metrics.ci95!.overall[`recall@${k}`]));
    const slices = spec(charts, 'slices');
    for (const d of datasets(slices))
      expect(d.errorBars, d.label).toEqual((slices.config.data.labels as string[]).map((n) => s(d.strategy!).metrics.ci95!.slices[n]!['recall@5']));
    const tokens = datasets(spec(charts, 'recall-vs-tokens'));
    // dense is 0.7 − 2/50 at recall@5…; by hand for deferred (the 8th strategy: 0.65 × (1 − 8/50) = 0.546)
    const deferred = tokens.find((d) => d.strategy === 'deferred')!;
    expect(deferred.data).toEqual([{ x: 2000, y: 0.546 }]);
    expect(deferred.errorBars).toEqual([[0.446, 0.596]]);
    expect(deferred.tips).toEqual(['deferred — recall@5 0.546 (95% CI 0.45–0.60), 2,000 tokens per request']);
    // static has no search: its visible figure and interval
    const stat = tokens.find((d) => d.strategy === 'static')!;
    expect(stat.errorBars).toEqual([s('static').metrics.ci95!.overall.visible]);
    expect(stat.pointLabels).toEqual(['static (visible)']);
    for (const id of ['recall-at-k', 'slices', 'recall-vs-tokens', 'recall-vs-calls'])
      expect(plugins(spec(charts, id)).backpackErrorBars, id).toEqual({ display: true });
  });

  it('are absent when the results carry no intervals', () => {
    const charts = chartsOf(many(false));
    for (const id of ['recall-at-k', 'slices', 'recall-vs-tokens', 'recall-vs-calls']) {
      expect(plugins(spec(charts, id)).backpackErrorBars, id).toEqual({ display: false });
      for (const d of datasets(spec(charts, id))) expect((d.errorBars as unknown[]).every((b) => b === null)).toBe(true);
      expect(spec(charts, id).caption).not.toContain('Whiskers');
    }
    expect(spec(chartsOf(many()), 'slices').caption).toContain('Whiskers: bootstrap 95% confidence intervals over the cases.');
  });
});

describe('scatter charts', () => {
  it('recall-vs-tokens: log x-axis holding every point with margin, labelled points, the context-window line', () => {
    const c = spec(chartsOf(many()), 'recall-vs-tokens');
    const xs = datasets(c).flatMap((d) => (d.data as Array<{ x: number }>).map((p) => p.x));
    expect([...xs].sort((a, b) => a - b)).toEqual([470, 2000, 6797, 9120, 250_000]); // every profile, static included
    const x = scales(c).x as unknown as { type: string; min: number; max: number };
    expect(x.type).toBe('logarithmic');
    for (const v of xs) {
      expect(x.min).toBeLessThanOrEqual(v / 1.5);
      expect(x.max).toBeGreaterThanOrEqual(v * 1.5);
    }
    expect([x.min, x.max]).toEqual([200, 500_000]); // 470 / 1.5 = 313 → 200; 250,000 × 1.5 = 375,000 → 500,000
    expect(plugins(c).backpackLines).toEqual({ x: [{ value: 200_000, label: '200,000-token context window' }] });
    expect(plugins(c).backpackLabels).toMatchObject({ display: true });
    expect(datasets(c).map((d) => d.pointLabels)).toEqual([['static (visible)'], ['deferred'], ['huge (fits 50% of cases)'], ['codex'], ['claude-code']]);
    expect(c.caption).toContain('Retrievers are not drawn: they only rank, and results.json gives them no token cost.');
    expect(logBounds([1, 10])).toEqual({ min: 0.5, max: 20 });
  });

  it('recall-vs-calls and the operating curve: labelled, with tooltips in words and units', () => {
    const charts = chartsOf(many());
    const calls = spec(charts, 'recall-vs-calls');
    const codex = datasets(calls).find((d) => d.strategy === 'codex')!;
    // codex: the 10th strategy, recall@5 0.65 × (1 − 10/50) = 0.52; 1 + 3 × 0.5 calls
    expect(codex.tips).toEqual(['codex — recall@5 0.520 (95% CI 0.42–0.57), 2.5 model calls per request, 6,797 tokens per request']);
    expect(codex.pointLabels).toEqual(['codex']);
    const curve = spec(charts, 'operating-curve');
    const bm25 = datasets(curve).find((d) => d.label === 'bm25')!;
    expect((bm25.pointLabels as string[]).filter(Boolean)).toEqual(['bm25']);
    expect((bm25.tips as string[])[0]).toBe('bm25 — floor 0: recall@5 0.588, no-tool false-positive rate 0.300');
    expect(plugins(curve).backpackLabels).toMatchObject({ display: true });
  });
});

describe('labels and titles', () => {
  it('the slice chart has every slice name on an axis that skips none', () => {
    const c = spec(chartsOf(many()), 'slices');
    expect([...(c.config.data.labels as string[])].sort()).toEqual([...SLICES].sort());
    expect(scales(c).x.ticks).toMatchObject({ autoSkip: false, maxRotation: 45 });
    expect(scales(spec(chartsOf(many()), 'recall-at-k')).x.ticks).toMatchObject({ autoSkip: false });
  });

  it('every title names the dataset, and k where the metric has one', () => {
    const charts = chartsOf(many());
    const title = (id: string) => String(plugins(spec(charts, id)).title!.text);
    for (const c of charts) expect(title(c.id), c.id).toContain('monster-7');
    expect(title('slices')).toBe('recall@5 by slice — monster-7, k = 5');
    expect(title('recall-at-k')).toBe('recall@k by strategy — monster-7, k = 1, 3, 5, 10');
    for (const id of ['operating-curve', 'recall-vs-tokens', 'recall-vs-calls']) expect(title(id), id).toMatch(/— monster-7, k = 5$/);
  });
});

describe('the skills chart', () => {
  it('draws every size with a legend entry per shape and axis titles that say what is measured', () => {
    const c = spec(chartsOf(many()), 'skills');
    const ds = datasets(c);
    expect(ds.map((d) => d.label)).toEqual([
      'codex listing',
      'claude-code listing',
      'searched skill index (after one search)',
      'circle: 250 skills',
      'diamond: 2,500 skills',
    ]);
    expect(ds.slice(0, 3).map((d) => d.data.length)).toEqual([2, 2, 2]);
    expect(ds.slice(3).map((d) => d.data.length)).toEqual([0, 0]);
    expect(scales(c).y.title).toMatchObject({ text: 'discoverability (share of skill requests whose skill is visible with its description)' });
    expect(String(plugins(c).title!.text)).toBe('Skill discoverability vs listing tokens — monster-7, 250 and 2,500 skills, index k = 5');
  });

  it('draws one size, saying so, when the catalog is smaller than every size compared', () => {
    const r = many();
    r.skills = skillsOf([
      [250, 4],
      [2500, 4],
    ]);
    const c = spec(chartsOf(r), 'skills');
    const ds = datasets(c);
    expect(ds.map((d) => d.label)).toEqual(['codex listing', 'claude-code listing', 'searched skill index (after one search)']);
    expect(ds.map((d) => d.data)).toEqual([[{ x: 1200, y: 0.9, skills: 4 }], [{ x: 400, y: 0.8, skills: 4 }], [{ x: 250, y: 0.95, skills: 4 }]]);
    expect(ds.every((d) => d.showLine === false)).toBe(true);
    expect(c.caption).toContain(
      'The catalog has only 4 skills, so the sizes compared (250 and 2,500) take the whole catalog and give the same listing: one size is drawn.',
    );
    expect(c.caption).not.toContain('Shapes');
    expect(String(plugins(c).title!.text)).toContain(', 4 skills,');
    expect(String(plugins(c).title!.text)).not.toContain('4 and 4');
  });
});

/** Pixels (RGBA bytes) of a PNG. */
async function rgba(png: Buffer): Promise<Uint8ClampedArray> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return ctx.getImageData(0, 0, img.width, img.height).data;
}

/** Pixels that differ between two renders of one size. */
async function changed(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = [await rgba(a), await rgba(b)];
  let n = 0;
  for (let i = 0; i < x.length; i += 4) if (x[i] !== y[i] || x[i + 1] !== y[i + 1] || x[i + 2] !== y[i + 2]) n++;
  return n;
}

/** A spec with one plugin option replaced. */
function withPlugin(c: ChartSpec, id: string, value: unknown): ChartSpec {
  const copy = structuredClone(c);
  (copy.config.options.plugins as Record<string, unknown>)[id] = value;
  return copy;
}

describe('the shared plugins in the PNG renderer', () => {
  const tokens = spec(chartsOf(many()), 'recall-vs-tokens');

  it('draw the point labels, the error bars and the context-window line (each changes the image)', async () => {
    const full = renderPng(tokens);
    const noLabels = renderPng(withPlugin(tokens, 'backpackLabels', { display: false }));
    const noBars = renderPng(withPlugin(tokens, 'backpackErrorBars', { display: false }));
    const noLine = renderPng(withPlugin(tokens, 'backpackLines', {}));
    expect(await changed(full, noLabels)).toBeGreaterThan(500); // five names of ~8 letters at 14 px
    expect(await changed(full, noBars)).toBeGreaterThan(100);
    expect(await changed(full, noLine)).toBeGreaterThan(300); // a dashed line over the chart's height and its label
  });

  it('are the file the HTML report inlines: one object with the three plugins and the tooltip text of `tips`', () => {
    const p = chartPlugins();
    expect(p.plugins.map((x) => x.id)).toEqual(['backpackErrorBars', 'backpackLabels', 'backpackLines']);
    expect(p.tipOf({ dataset: { tips: ['a', 'b'] }, dataIndex: 1 })).toBe('b');
    expect(p.tipOf({ dataset: {}, dataIndex: 0 })).toBeUndefined();
    // install: the legend leaves out a dataset marked hideInLegend (a calibrated floor's marker)
    const Chart = {
      register: () => {},
      defaults: { plugins: { legend: { labels: {} as { filter?: (item: unknown, data: unknown) => boolean } }, tooltip: { callbacks: {} } } },
    };
    p.install(Chart);
    const filter = Chart.defaults.plugins.legend.labels.filter!;
    const data = { datasets: [{ label: 'bm25' }, { label: 'bm25: calibrated floor 2', hideInLegend: true }] };
    expect([0, 1].map((datasetIndex) => filter({ datasetIndex }, data))).toEqual([true, false]);
  });

  it('render at 2× as 3200×1800, and the same spec gives the same bytes', () => {
    const twice = renderPng(tokens, { width: 1600, height: 900 }, 2);
    expect(twice.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([twice.readUInt32BE(16), twice.readUInt32BE(20)]).toEqual([3200, 1800]);
    expect(renderPng(structuredClone(tokens), { width: 1600, height: 900 }, 2).equals(twice)).toBe(true);
    expect(renderPng(tokens).equals(renderPng(structuredClone(tokens)))).toBe(true);
    expect(() => renderPng(tokens, { width: 1600, height: 900 }, 1.5)).toThrow(/pixel ratio/);
  });
});
