/**
 * The operating curve, the floors table, context fit, figures that do not apply and the no-tool
 * definition, in every format, on results built by hand (test/results-fixtures.ts): each test
 * states the figures it reasons about. Older results (without these fields) still render.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.ts';
import type { Results } from '../eval/results.ts';
import { compactTokens, chartsOf, OPERATING_CURVE_CAPTION, PROFILE_CURVE_NOTE, type ChartSpec } from './charts.ts';
import { reportColours } from './colours.ts';
import { chartJsSource, htmlReport, scriptSafe } from './html.ts';
import { junitXml } from './junit.ts';
import { markdownSummary } from './markdown.ts';
import { renderPng, writePngs } from './png.ts';
import { asOlder, curve, handBuilt, PROFILE_TOKEN_COLUMNS } from '../../test/results-fixtures.ts';
import { NO_TOOL_DEFINITION } from './view.ts';

const tmp = tempDir('figures');

/** HTML-escaped, independently of the code under test. */
const e = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The cells (inner HTML) of the row of `name` in the HTML table `id`, the row header first. */
function htmlRow(html: string, id: string, name: string): string[] {
  const start = html.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  const body = html.slice(start, html.indexOf('</table>', start));
  for (const tr of body.split('<tr>').slice(1)) {
    const cells = [...tr.matchAll(/<(?:th|td)\b([^>]*)>(.*?)<\/(?:th|td)>/g)].map((m) => ({ attrs: m[1]!, html: m[2]! }));
    if (cells[0] && cells[0].html.replace(/ <span.*$/, '') === e(name)) return cells.map((c) => `${c.attrs}|${c.html}`);
  }
  throw new Error(`no row ${name} in ${id}`);
}

/** Column labels of the HTML table `id`. */
function htmlHeader(html: string, id: string): string[] {
  const start = html.indexOf(`id="${id}"`);
  const head = html.slice(start, html.indexOf('</thead>', start));
  return [...head.matchAll(/<button type="button">(.*?)<span/g)].map((m) => m[1]!.replaceAll('<wbr>', ''));
}

/** The value part of a cell from {@link htmlRow}. */
const inner = (cell: string) => cell.slice(cell.indexOf('|') + 1);

/** The page without the inlined chart.js. */
function page(r: Results): string {
  return htmlReport(r).replace(scriptSafe(chartJsSource()), '');
}

/** The cells of the Markdown table row whose first cell is `first` (in the table whose header starts with `header`). */
function mdRow(md: string, header: string, first: string): string[] {
  let inTable = false;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    if (line.startsWith(`| ${header} |`)) inTable = true;
    if (!inTable) continue;
    const cells = line.slice(2, -2).split(/(?<!\\) \| /);
    if (cells[0] === first) return cells;
  }
  throw new Error(`no row ${first} under ${header}`);
}

function mdHeader(md: string, header: string): string[] {
  const line = md.split('\n').find((l) => l.startsWith(`| ${header} |`));
  if (!line) throw new Error(`no table ${header}`);
  return line.slice(2, -2).split(' | ');
}

function curveSpec(r: Results, id = 'operating-curve'): ChartSpec {
  const spec = chartsOf(r).find((c) => c.id === id);
  if (!spec) throw new Error(`no ${id} chart`);
  return spec;
}

/** The datasets of both operating-curve panels, retrievers then profiles. */
function curveDatasets(r: Results): Dataset[] {
  return ['operating-curve', 'operating-curve-profiles'].flatMap(
    (id) => chartsOf(r).find((c) => c.id === id)?.config.data.datasets ?? [],
  ) as unknown as Dataset[];
}

type Dataset = {
  label: string;
  data: Array<{ x: number; y: number; floor: number }>;
  showLine: boolean;
  pointStyle: string;
  backgroundColor: string;
  hideInLegend?: boolean;
};

describe('A. the operating curve', () => {
  it('draws one line per strategy with a curve, retrievers and profiles in two panels, x = no-tool FP rate, y = recall@5, and marks each calibrated floor', () => {
    const r = handBuilt();
    const spec = curveSpec(r);
    expect(spec.config.type).toBe('scatter');
    expect(spec.caption).toBe(OPERATING_CURVE_CAPTION);
    const profiles = curveSpec(r, 'operating-curve-profiles');
    expect(profiles.caption).toBe(
      `${OPERATING_CURVE_CAPTION}${PROFILE_CURVE_NOTE} Profiles whose prompt fits the context window in only some cases (huge) are drawn dashed.`,
    );
    expect((spec.config.data.datasets as unknown as Dataset[]).filter((d) => d.showLine).map((d) => d.label)).toEqual(['bm25', 'dense']);
    expect((profiles.config.data.datasets as unknown as Dataset[]).filter((d) => d.showLine).map((d) => d.label)).toEqual([
      'deferred',
      'huge (fits 50% of cases)',
    ]);
    expect(spec.caption).toContain('Pick a strategy and floor together: further up and left is better.');
    const scales = spec.config.options.scales as {
      x: { min: number; max: number; title: { text: string } };
      y: { min: number; max: number; title: { text: string } };
    };
    expect([scales.x.min, scales.x.max, scales.y.min, scales.y.max]).toEqual([0, 1, 0, 1]);
    expect(scales.x.title.text).toContain('no-tool false-positive rate');
    expect(scales.y.title.text).toBe('recall@5 (share of gold tools in the top 5)');
    const ds = curveDatasets(r);
    // static has no curve (abstention null): no line; huge is labelled with its context fit
    const lines = ds.filter((d) => d.showLine);
    expect(lines.map((d) => d.label)).toEqual(['bm25', 'dense', 'deferred', 'huge (fits 50% of cases)']);
    const bm25 = r.retrievers.bm25!.abstention!;
    expect(lines[0]!.data).toEqual(bm25.map((p) => ({ x: p.noToolFalsePositiveRate, y: p['recall@5'], floor: p.floor })));
    expect(lines.every((d) => d.data.length === 21)).toBe(true);
    // markers: bm25's auto floor 2.5 is a point of its curve; deferred's 7.25 is not, so its overall figures are used; fixed and null floors get none
    const marks = ds.filter((d) => !d.showLine);
    expect(marks.map((d) => d.label)).toEqual(['bm25: calibrated floor 2.5', 'deferred: calibrated floor 7.25']);
    const at = bm25.find((p) => p.floor === 2.5)!;
    expect(marks[0]!.data).toEqual([{ x: at.noToolFalsePositiveRate, y: at['recall@5'], floor: 2.5 }]);
    expect(marks[1]!.data).toEqual([{ x: 0.3, y: 0.65, floor: 7.25 }]);
    // each strategy's own colour, the same as its line's
    const colours = reportColours(r);
    expect(marks[0]!.backgroundColor).toBe(colours.get('bm25'));
    expect(marks[1]!.backgroundColor).toBe(colours.get('deferred'));
    expect(lines.map((d) => (d as unknown as { borderColor: string }).borderColor)).toEqual(['bm25', 'dense', 'deferred', 'huge'].map((n) => colours.get(n)));
    expect(marks.every((d) => d.pointStyle === 'triangle')).toBe(true);
    // the markers stay out of the legend: their line is in it
    expect(marks.every((d) => d.hideInLegend === true)).toBe(true);
    expect(lines.every((d) => d.hideInLegend === undefined)).toBe(true);
    expect(lines.map((d) => (d as { borderDash?: number[] }).borderDash !== undefined)).toEqual([false, false, false, true]);
  });

  it('leaves out the curve of a profile that fits the context window in no case, saying so', () => {
    const r = handBuilt({ hugeFits: 0 });
    const labels = curveDatasets(r).map((d) => d.label);
    expect(labels.some((l) => l.startsWith('huge'))).toBe(false);
    expect(labels).toContain('dense');
    expect(curveSpec(r, 'operating-curve-profiles').caption).toBe(
      `${OPERATING_CURVE_CAPTION}${PROFILE_CURVE_NOTE} Left out, their prompt fitting the context window in no case: huge.`,
    );
  });

  it('is in the HTML report as a canvas with its configuration, and as operating-curve.png', async () => {
    const r = handBuilt();
    const html = htmlReport(r);
    const spec = curveSpec(r);
    expect(html).toContain('<canvas id="chart-operating-curve"');
    expect(html).toContain(`<figcaption>${e(spec.caption)}</figcaption>`);
    expect(spec.caption.startsWith(OPERATING_CURVE_CAPTION)).toBe(true);
    const m = html.match(/<script type="application\/json" data-chart="chart-operating-curve" id="chart-data-operating-curve">([^<]*)<\/script>/);
    expect(JSON.parse(m![1]!)).toEqual(JSON.parse(JSON.stringify(spec.config)));

    const dir = join(tmp, 'curve');
    const names = writePngs(r, dir);
    expect(names).toContain('operating-curve.png');
    const png = readFileSync(join(dir, 'operating-curve.png'));
    expect(png.readUInt32BE(16)).toBe(1600);
    expect(png.readUInt32BE(20)).toBe(900);
    expect(renderPng(spec).equals(png)).toBe(true); // deterministic
    // Without title and legend, every line's colour is drawn, and the markers' outline.
    const bare = structuredClone(spec);
    bare.config.options.plugins = { title: { display: false }, legend: { display: false } };
    const img = await loadImage(renderPng(bare));
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, img.width, img.height);
    const count = (hex: string) => {
      const [R, G, B] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] === R && data[i + 1] === G && data[i + 2] === B) n++;
      return n;
    };
    for (const d of spec.config.data.datasets.filter((x) => x.showLine)) expect(count(String(d.borderColor)), String(d.label)).toBeGreaterThan(300);
  });

  it('is left out when no strategy has a curve, and merges identical curves into one line', () => {
    expect(chartsOf(asOlder(handBuilt())).map((c) => c.id)).not.toContain('operating-curve');
    expect(chartsOf(asOlder(handBuilt())).map((c) => c.id)).not.toContain('operating-curve-profiles');
    const r = handBuilt();
    (r.retrievers.dense as unknown as { abstention: unknown }).abstention = curve(0.6, 0.3);
    const labels = curveDatasets(r)
      .filter((d) => d.showLine)
      .map((d) => d.label);
    expect(labels).toEqual(['bm25 / dense', 'deferred', 'huge (fits 50% of cases)']);
  });

  it('sets apart a curve fixed at a no-tool false-positive rate of 1, naming it with its recall range instead of stacking it at the edge', () => {
    const r = handBuilt();
    const deferred = r.profiles!.deferred as unknown as { abstention: Array<{ noToolFalsePositiveRate: number; 'recall@5': number }> };
    deferred.abstention = deferred.abstention.map((p) => ({ ...p, noToolFalsePositiveRate: 1 }));
    const lo = Math.min(...deferred.abstention.map((p) => p['recall@5']));
    const hi = Math.max(...deferred.abstention.map((p) => p['recall@5']));
    const profiles = curveSpec(r, 'operating-curve-profiles');
    expect((profiles.config.data.datasets as unknown as Dataset[]).map((d) => d.label).some((l) => l.startsWith('deferred'))).toBe(false);
    expect(profiles.caption).toContain(
      `Set apart, at a no-tool false-positive rate of 1 whatever the floor (they would stack at the right edge): deferred (recall@5 ${lo.toFixed(3)}–${hi.toFixed(3)}).`,
    );
  });

  it('shows the 95% interval of a calibrated floor’s false-positive rate beside it, when the results record one', () => {
    const r = handBuilt();
    const floors = r.config.floors as Record<string, unknown>;
    floors.bm25 = { ...(floors.bm25 as object), falsePositiveRateInterval: [0.01915, 0.24328] };
    const text = 'auto → 2.5 (target 0.1, calibrated on split:dev, FP there 0.090, 95% CI 0.019–0.243 over 33 no-tool cases)';
    expect(inner(htmlRow(page(r), 'floors-table', 'bm25')[1]!)).toBe(e(text));
    expect(mdRow(markdownSummary(r), 'strategy | floor', 'bm25')[1]).toBe(text.replace(/[()]/g, '\\$&'));
    // what is not a pair of numbers is not shown
    floors.bm25 = { ...(floors.bm25 as object), falsePositiveRateInterval: ['0.1', 0.2] };
    expect(inner(htmlRow(page(r), 'floors-table', 'bm25')[1]!)).toBe(e('auto → 2.5 (target 0.1, calibrated on split:dev, FP there 0.090)'));
  });

  it('tabulates recall@5 at FP 0.05 / 0.1 / 0.2 and the floor of each strategy, in HTML and Markdown', () => {
    const r = handBuilt();
    const html = page(r);
    // read off the scored cases' own curve: labelled in-sample wherever they appear
    expect(htmlHeader(html, 'floors-table')).toEqual([
      'strategy',
      'floor',
      'recall@5 at FP ≤ 0.05 (in-sample)',
      'recall@5 at FP ≤ 0.1 (in-sample)',
      'recall@5 at FP ≤ 0.2 (in-sample)',
    ]);
    expect(html).toContain('These figures are <strong>in-sample</strong>');
    const bm25 = htmlRow(html, 'floors-table', 'bm25').map(inner);
    expect(bm25[1]).toBe(e('auto → 2.5 (target 0.1, calibrated on split:dev, FP there 0.090)'));
    expect(bm25[2]).toBe('0.300 <span class="note">floor 8, FP 0.045</span>');
    const dense = htmlRow(html, 'floors-table', 'dense');
    expect(inner(dense[1]!)).toBe('0.35');
    expect(dense[2]).toContain('title="not applicable: no floor brings the no-tool false-positive rate to 0.05"');
    expect(inner(dense[2]!)).toBe('<span class="na">n/a</span>');
    const st = htmlRow(html, 'floors-table', 'static');
    expect(inner(st[1]!)).toBe('auto → none: no search (target 0.1, calibrated on split:dev)');
    for (const c of st.slice(2)) expect(inner(c)).toBe('<span class="na">n/a</span>');
    expect(inner(htmlRow(html, 'floors-table', 'huge')[1]!)).toBe('none');
    // the provenance lists the floors the same way
    expect(html).toContain(e('bm25: auto → 2.5 (target 0.1, calibrated on split:dev, FP there 0.090); dense: 0.35; static: auto → none: no search'));

    const md = markdownSummary(r);
    expect(md).toContain('### Floors and no-tool false positives');
    expect(mdHeader(md, 'strategy').length).toBeGreaterThan(5);
    expect(mdRow(md, 'strategy | floor', 'bm25')).toEqual([
      'bm25',
      'auto → 2.5 \\(target 0.1, calibrated on split:dev, FP there 0.090\\)',
      '0.300 (floor 8)',
      '0.450 (floor 6.5)',
      '0.550 (floor 3.5)',
    ]);
    expect(mdRow(md, 'strategy | floor', 'dense')).toEqual(['dense', '0.35', 'n/a', '0.500 (floor 0.5)', '0.700 (floor 0)']);
    expect(mdRow(md, 'strategy | floor', 'static').slice(2)).toEqual(['n/a', 'n/a', 'n/a']);
    expect(mdHeader(md, 'strategy | floor').slice(2)).toEqual(FP_HEADERS);
    expect(md).toContain('**In-sample**: the floor is read off the same cases it is scored on');
    expect(chartsOf(r).find((c) => c.id === 'operating-curve')!.caption).toContain('The curves are in-sample');
  });
});

const FP_HEADERS = ['recall@5 at FP ≤ 0.05 (in-sample)', 'recall@5 at FP ≤ 0.1 (in-sample)', 'recall@5 at FP ≤ 0.2 (in-sample)'];

describe('A2. thin figures and curves', () => {
  // bm25 over 7 no-tool cases (its other counts as built): its no-tool FP rate and its curve are thin
  const thinRun = (): Results => {
    const r = handBuilt();
    r.retrievers.bm25!.metrics.overall.noToolCases = 7;
    return r;
  };

  it('marks a figure over fewer than 10 cases of its kind, and a curve over fewer than 10 no-tool cases, thin in every format', () => {
    const r = thinRun();
    expect(handBuilt().retrievers.bm25!.metrics.overall.noToolCases).toBeGreaterThanOrEqual(10); // not thin as built
    const html = page(r);
    const header = htmlHeader(html, 'overview-table');
    const bm25 = htmlRow(html, 'overview-table', 'bm25');
    const fp = bm25[header.indexOf('no-tool FP rate')]!;
    expect(fp).toContain('<span class="tag thin" title="thin: a mean over 7 no-tool cases (fewer than 10)">thin</span>');
    // a figure over enough cases is not marked
    expect(bm25[header.indexOf('recall@5')]).not.toContain('thin');
    expect(htmlRow(html, 'overview-table', 'dense')[header.indexOf('no-tool FP rate')]).not.toContain('thin');
    // what is read off the thin curve
    expect(htmlRow(html, 'floors-table', 'bm25')[2]).toContain('class="tag thin"');
    expect(htmlRow(html, 'floors-table', 'dense')[3]).not.toContain('thin');
    // Markdown
    const md = markdownSummary(r);
    expect(mdRow(md, 'strategy | kind', 'bm25').find((c) => c.endsWith('(thin)'))).toBeDefined();
    expect(md).toContain('_(thin): a mean over fewer than 10 cases of the kind it counts (7 no-tool cases)');
    expect(mdRow(md, 'strategy | floor', 'bm25')[2]).toBe('0.300 (floor 8) (thin)');
    // JUnit: a property beside the figure
    expect(junitXml(r)).toContain('<property name="noToolFalsePositiveRate.thin" value="thin: a mean over 7 no-tool cases (fewer than 10)"/>');
    // the chart: its label and caption
    const chart = chartsOf(r).find((c) => c.id === 'operating-curve')!;
    expect(chart.caption).toContain('Thin (marked "thin"): bm25 drawn over 7 no-tool cases');
    const labels = (chart.config.data as { datasets: Array<{ label: string }> }).datasets.map((d) => d.label);
    expect(labels.some((l) => l.startsWith('bm25') && l.endsWith('(thin)'))).toBe(true);
    // none of it without thin figures
    const plain = handBuilt();
    expect(page(plain)).not.toContain('class="tag thin"');
    expect(markdownSummary(plain)).not.toContain('(thin)');
  });
});

describe('B. context fit', () => {
  it('HTML: marks a profile that fits some cases, shows its figures, never bolds it nor names it best', () => {
    const r = handBuilt({ hugeFits: 0.5 });
    const html = page(r);
    const huge = htmlRow(html, 'overview-table', 'huge');
    expect(huge[0]).toContain('<span class="tag fit"');
    expect(huge[0]).toContain('fits 50% of cases in the 200,000-token context window');
    expect(huge.join('')).not.toContain('<strong>');
    const header = htmlHeader(html, 'overview-table');
    const col = (label: string) => header.indexOf(label);
    // huge has the best figure of every column, but the bold goes to the best that fits
    expect(inner(huge[col('recall@5')]!)).toBe('0.950');
    expect(inner(htmlRow(html, 'overview-table', 'dense')[col('recall@5')]!)).toBe('<strong>0.700</strong>');
    expect(inner(htmlRow(html, 'overview-table', 'dense')[col('no-tool FP rate')]!)).toBe('<strong>0.200</strong>');
    expect(inner(htmlRow(html, 'overview-table', 'static')[col('visible')]!)).toBe('<strong>0.900</strong>');
    // only deferred's search-only figure applies among those that fit: nothing to compare, no bold (huge's 0.04 does not count)
    expect(inner(htmlRow(html, 'overview-table', 'deferred')[col('search no-tool FP rate')]!)).toBe('0.250');
    expect(inner(huge[col('search no-tool FP rate')]!)).toBe('0.040');
    // no 95% intervals in these results: the highest is not called best
    expect(html).toContain(
      'No clear winner by recall@5: <strong>dense</strong> has the highest, 0.700, but these results carry no 95% intervals to tell it from deferred&#39;s 0.650. Not considered for best: huge (fits 50% of cases in the 200,000-token context window).',
    );
    expect(html).toContain('where <strong>dense</strong>, the highest by recall@5 (no clear winner');
    // with intervals: best only when its interval clears the runner-up's
    const withCi = (dense: [number, number], deferred: [number, number]) => {
      const x = structuredClone(r);
      x.retrievers.dense!.metrics.ci95 = { overall: { 'recall@5': dense }, slices: {}, namespaces: {} };
      x.profiles!.deferred!.metrics.ci95 = { overall: { 'recall@5': deferred }, slices: {}, namespaces: {} };
      return page(x);
    };
    const overlapping = withCi([0.66, 0.74], [0.6, 0.69]);
    expect(overlapping).toContain(
      'No clear winner by recall@5: <strong>dense</strong> has the highest, 0.700, but its 95% interval 0.660–0.740 overlaps deferred&#39;s 0.600–0.690.',
    );
    const cleared = withCi([0.67, 0.74], [0.6, 0.66]);
    expect(cleared).toContain(
      'Best ranking strategy: <strong>dense</strong>, recall@5 0.700 (95% interval 0.670–0.740), clear of deferred (95% interval 0.600–0.660).',
    );
    expect(cleared).toContain('where the best strategy, <strong>dense</strong> (highest recall@5)');
    // the Markdown says the same
    expect(markdownSummary(r)).toContain(
      '**No clear winner** by recall@5: dense has the highest, 0.700, but these results carry no 95% intervals to tell it from deferred&#39;s 0.650.',
    );
    // its token figures are shown, with the fit
    const tokens = htmlRow(html, 'profiles-table', 'huge');
    expect(tokens.map(inner)).toContain('250,000');
    expect(tokens.map(inner)).toContain('50.0%');
    expect(htmlHeader(html, 'profiles-table')).toEqual(expect.arrayContaining(['fits context', 'context window', 'overflow cases']));
  });

  it('HTML: a profile that fits no case says "does not fit", its quality figures are n/a, its tokens still shown', () => {
    const html = page(handBuilt({ hugeFits: 0 }));
    const huge = htmlRow(html, 'overview-table', 'huge');
    expect(huge[0]).toContain('does not fit the 200,000-token context window');
    const header = htmlHeader(html, 'overview-table');
    for (const label of ['top1', 'recall@5', 'visible', 'no-tool FP rate', 'search no-tool FP rate']) {
      const cell = huge[header.indexOf(label)]!;
      expect(inner(cell), label).toBe('<span class="na">n/a</span>');
      expect(cell, label).toContain('title="not applicable: does not fit the 200,000-token context window"');
    }
    expect(htmlRow(html, 'profiles-table', 'huge').map(inner)).toContain('250,000');
    expect(inner(htmlRow(html, 'floors-table', 'huge')[2]!)).toBe('<span class="na">n/a</span>');
    expect(html).toContain('Not considered for best: huge (does not fit the 200,000-token context window).');
  });

  it('Markdown: marks the profile, never bolds it, names the best that fits', () => {
    for (const fits of [0.5, 0.999, 0]) {
      const md = markdownSummary(handBuilt({ hugeFits: fits }));
      const header = mdHeader(md, 'strategy');
      const huge = mdRow(md, 'strategy', 'huge');
      const mark = fits === 0 ? 'does not fit' : `fits ${Math.floor(fits * 100)}% of cases`;
      expect(huge[1]).toBe(`profile ⚠ ${mark}`);
      expect(huge.join('|')).not.toContain('**');
      expect(huge[header.indexOf('recall@5')]).toBe(fits === 0 ? 'n/a' : '0.950');
      expect(mdRow(md, 'strategy', 'dense')[header.indexOf('recall@5')]).toBe('**0.700**');
      expect(md).toContain(`huge ${fits === 0 ? 'does not fit the 200,000-token context window' : `${mark} in the 200,000-token context window`}`);
      expect(md).toContain('### Worst slices of dense (by recall@5)');
      // the token figures stay, with the fit
      expect(mdHeader(md, 'profile')).toEqual([...PROFILE_TOKEN_COLUMNS, 'context fit', 'context window']);
      expect(mdRow(md, 'profile', 'huge')).toEqual(['huge', '250,000', '0', '250,000', '3,000,000', '500,000', mark, '200,000']);
      expect(mdRow(md, 'profile', 'static')[6]).toBe('fits');
    }
    // `top` keeps the best that fit
    const top = markdownSummary(handBuilt(), { top: 2 });
    expect(top).toContain('| dense |');
    expect(top).not.toContain('| huge |');
  });

  it('charts: ranked after every strategy that fits, labelled; left out of the best-of charts when it fits no case', () => {
    const half = chartsOf(handBuilt({ hugeFits: 0.5 }));
    const labels = (id: string, cs: ChartSpec[]) => cs.find((c) => c.id === id)!.config.data.datasets.map((d) => d.label);
    expect(labels('recall-at-k', half)).toEqual(['dense', 'deferred', 'bm25', 'huge (fits 50% of cases)']);
    expect(labels('slices', half)).toEqual(['dense', 'deferred', 'bm25', 'huge (fits 50% of cases)']);
    expect(half.find((c) => c.id === 'recall-at-k')!.caption).toContain('(huge) are ranked after those that fit');
    expect(labels('recall-vs-tokens', half)).toContain('huge (fits 50% of cases)');
    const none = chartsOf(handBuilt({ hugeFits: 0 }));
    expect(labels('recall-at-k', none)).toEqual(['dense', 'deferred', 'bm25']);
    expect(none.find((c) => c.id === 'recall-at-k')!.caption).toContain('Left out, their prompt fitting the context window in no case: huge.');
    expect(labels('recall-vs-tokens', none)).toContain('huge (does not fit)');
  });
});

describe('C. figures that do not apply', () => {
  /** bm25 scored no no-tool case (yet its table holds a 0), dense's top1 is null, static has no top1 at all. */
  function odd(): Results {
    const r = handBuilt();
    Object.assign(r.retrievers.bm25!.metrics.overall, { noToolFalsePositiveRate: 0, noToolCases: 0 });
    (r.retrievers.dense!.metrics.overall as Record<string, unknown>).top1 = null;
    return r;
  }

  it('are n/a and never bold in the HTML overview', () => {
    const html = page(odd());
    const header = htmlHeader(html, 'overview-table');
    const fp = header.indexOf('no-tool FP rate');
    const top1 = header.indexOf('top1');
    const bm25 = htmlRow(html, 'overview-table', 'bm25');
    expect(inner(bm25[fp]!)).toBe('<span class="na">n/a</span>');
    expect(bm25[fp]).toContain('title="not applicable: the scored cases have no no-tool case"');
    expect(inner(htmlRow(html, 'overview-table', 'dense')[fp]!)).toBe('<strong>0.200</strong>');
    expect(inner(htmlRow(html, 'overview-table', 'dense')[top1]!)).toBe('<span class="na">n/a</span>');
    expect(htmlRow(html, 'overview-table', 'dense')[top1]).toContain('title="not applicable: no value"');
    expect(htmlRow(html, 'overview-table', 'static')[top1]).toContain('title="not applicable: the profile offers no search"');
    expect(htmlRow(html, 'overview-table', 'bm25')[header.indexOf('search no-tool FP rate')]).toContain('title="not applicable: a figure of profiles only"');
    expect(inner(htmlRow(html, 'overview-table', 'deferred')[top1]!)).toBe('<strong>0.520</strong>');
  });

  it('are n/a and never bold in the Markdown overview', () => {
    const md = markdownSummary(odd());
    const header = mdHeader(md, 'strategy');
    const fp = header.indexOf('no-tool FP rate');
    expect(mdRow(md, 'strategy', 'bm25')[fp]).toBe('n/a');
    expect(mdRow(md, 'strategy', 'dense')[fp]).toBe('**0.200**');
    expect(mdRow(md, 'strategy', 'dense')[header.indexOf('top1')]).toBe('n/a');
    expect(mdRow(md, 'strategy', 'static')[header.indexOf('top1')]).toBe('n/a');
    expect(mdRow(md, 'strategy', 'deferred')[header.indexOf('top1')]).toBe('**0.520**');
  });

  it('are never the best strategy: with only n/a headline figures, no strategy is named', () => {
    const r = handBuilt({ hugeFits: 0 });
    for (const s of [...Object.values(r.retrievers), r.profiles!.deferred!]) delete (s.metrics.overall as Record<string, unknown>)['recall@5'];
    delete (r.profiles!.static!.metrics.overall as Record<string, unknown>).visible;
    delete (r.profiles!.deferred!.metrics.overall as Record<string, unknown>).visible;
    const html = page(r);
    expect(html).toContain('No strategy can be named best: none has a figure that applies.');
    expect(markdownSummary(r)).not.toContain('Worst slices');
  });
});

describe('C. JUnit', () => {
  const ARRAYS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped', 'property', 'properties', 'system-out']);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (n, _path, _leaf, isAttribute) => !isAttribute && ARRAYS.has(n),
  });
  type Case = {
    name: string;
    failure?: Array<{ message: string; type: string }>;
    error?: unknown[];
    skipped?: Array<{ message: string }>;
    'system-out'?: string[];
  };
  type Suite = {
    name: string;
    tests: string;
    failures: string;
    errors: string;
    skipped: string;
    testcase?: Case[];
    properties?: Array<{ property: Array<{ name: string; value: string }> }>;
  };

  function parse(xml: string): { root: Record<string, string>; suites: Suite[] } {
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = parser.parse(xml) as { testsuites: Record<string, string> & { testsuite?: Suite[] } };
    const suites = doc.testsuites.testsuite ?? [];
    let skipped = 0;
    for (const s of suites) {
      const n = (s.testcase ?? []).filter((c) => c.skipped).length;
      expect(Number(s.skipped), s.name).toBe(n);
      expect((s.testcase ?? []).every((c) => [c.failure, c.error, c.skipped].filter(Boolean).length <= 1)).toBe(true);
      skipped += n;
    }
    expect(Number(doc.testsuites.skipped)).toBe(skipped);
    return { root: doc.testsuites, suites };
  }
  const suite = (suites: Suite[], name: string) => suites.find((s) => s.name === name)!;
  const testcase = (s: Suite, name: string) => s.testcase!.find((c) => c.name === name)!;

  const propsOf = (s: Suite) => Object.fromEntries(s.properties![0]!.property.map((p) => [p.name, p.value]));

  it('a profile that fits some cases: its fit and its figures are properties, not test cases; a bound on a figure says the fit', () => {
    const { root, suites } = parse(junitXml(handBuilt({ hugeFits: 0.5 })));
    expect(root.failures).toBe('0');
    expect(root.errors).toBe('0');
    expect(root.skipped).toBe('0');
    const huge = suite(suites, 'huge');
    expect(huge.testcase!.map((c) => c.name)).toEqual(['scopeLeakCount']);
    expect(propsOf(huge)).toMatchObject({
      contextWindow: '200000',
      fitsContext: '0.5',
      'fitsContext.note': 'fits 50% of cases in the 200,000-token context window (fitsContext 0.5; 40 tool-labelled cases overflow)',
      'recall@5': '0.95',
    });
    expect(propsOf(suite(suites, 'static'))).toMatchObject({ fitsContext: '1' });
    expect(propsOf(suite(suites, 'static'))['fitsContext.note']).toBeUndefined();
    const bounded = parse(junitXml(handBuilt({ hugeFits: 0.5 }), [{ strategy: 'huge', metric: 'recall@5', min: 0.9 }]));
    expect(testcase(suite(bounded.suites, 'huge'), 'recall@5')['system-out']![0]).toBe(
      'recall@5 = 0.95 (≥ 0.9): the profile fits 50% of cases in the 200,000-token context window',
    );
  });

  it('a profile that fits no case: its figures are properties "n/a", its scope-leak gate still runs; a bound on them fails', () => {
    const r = handBuilt({ hugeFits: 0 });
    const { suites } = parse(junitXml(r));
    const huge = suite(suites, 'huge');
    expect(testcase(huge, 'scopeLeakCount')['system-out']![0]).toBe('scopeLeakCount = 0 (≤ 0): the profile does not fit the 200,000-token context window');
    const props = propsOf(huge);
    expect(props['fitsContext.note']).toBe(
      'does not fit the 200,000-token context window (fitsContext 0; 80 tool-labelled cases overflow); its quality figures do not apply',
    );
    for (const m of ['top1', 'recall@5', 'visible', 'noToolFalsePositiveRate']) expect(props[m], m).toBe('n/a: does not fit the 200,000-token context window');
    expect(props['recall@5.ci95']).toBeUndefined(); // no interval for a figure that does not apply
    const gated = parse(junitXml(r, [{ strategy: 'huge', metric: 'recall@5', min: 0.5 }]));
    expect(gated.root.failures).toBe('1');
    const f = suite(gated.suites, 'huge').testcase![0]!.failure![0]!;
    expect(f.type).toBe('context-window');
    expect(f.message).toBe('recall@5 of huge does not apply: the profile does not fit the 200,000-token context window (expected ≥ 0.5)');
  });

  it('no-tool figures without no-tool cases are properties "n/a", skipped when bounded; a null figure is "n/a" too', () => {
    const r = handBuilt();
    for (const s of [...Object.values(r.retrievers), ...Object.values(r.profiles!)]) {
      const o = s.metrics.overall as Record<string, unknown>;
      o.noToolCases = 0;
      delete o.noToolFalsePositiveRate;
      delete o.searchNoToolFalsePositiveRate;
    }
    (r.retrievers.dense!.metrics.overall as Record<string, unknown>).top1 = null;
    const { root, suites } = parse(junitXml(r));
    expect(root.skipped).toBe('0');
    for (const name of ['bm25', 'dense', 'static', 'deferred'])
      expect(propsOf(suite(suites, name)).noToolFalsePositiveRate, name).toBe('n/a: the scored cases have no no-tool case');
    expect(propsOf(suite(suites, 'deferred')).searchNoToolFalsePositiveRate).toBe('n/a: the scored cases have no no-tool case');
    // retrievers have no search-only figure and static no search: no property for it
    expect(propsOf(suite(suites, 'bm25')).searchNoToolFalsePositiveRate).toBeUndefined();
    expect(propsOf(suite(suites, 'static')).searchNoToolFalsePositiveRate).toBeUndefined();
    expect(propsOf(suite(suites, 'dense')).top1).toMatch(/^n\/a: /);
    const gated = parse(junitXml(r, [{ metric: 'noToolFalsePositiveRate', max: 0.1 }]));
    expect(gated.root.failures).toBe('0');
    expect(gated.root.errors).toBe('0');
    expect(gated.root.skipped).toBe('5');
  });
});

describe('D. the no-tool definition', () => {
  it('is stated where the no-tool figure is shown, in HTML and Markdown', () => {
    expect(NO_TOOL_DEFINITION).toContain(
      'any non-pinned tool is in front of the model on that turn: listed eagerly, advertised with its schema, or returned by a search',
    );
    expect(NO_TOOL_DEFINITION).toContain('search no-tool FP rate: the same counting only what a profile\u2019s search returned');
    const html = page(handBuilt());
    const overview = html.slice(html.indexOf('<section id="overview">'), html.indexOf('</section>', html.indexOf('<section id="overview">')));
    expect(overview).toContain(`<p class="note definition" id="no-tool-definition">${e(NO_TOOL_DEFINITION)}</p>`);
    const floors = html.slice(html.indexOf('<section id="floors">'), html.indexOf('</section>', html.indexOf('<section id="floors">')));
    expect(floors).toContain(e(NO_TOOL_DEFINITION));
    const md = markdownSummary(handBuilt());
    expect(md).toContain(`_${NO_TOOL_DEFINITION}_`);
    // right after the overview table
    const lines = md.split('\n');
    const at = lines.indexOf(`_${NO_TOOL_DEFINITION}_`);
    expect(
      lines
        .slice(0, at)
        .reverse()
        .find((l) => l.startsWith('|')),
    ).toContain('| huge |');
  });
});

describe('older results, without the new fields', () => {
  it('render in every format, without the new sections, and as before', () => {
    const old = asOlder(handBuilt({ hugeFits: 0 }));
    const html = page(old);
    expect(html).not.toContain('chart-operating-curve');
    expect(html).toContain('<section id="floors">');
    expect(html.slice(html.indexOf('<section id="floors">'))).toContain('not in this run: results written before operating curves and calibrated floors.');
    expect(html).toContain(e('bm25: 2.5; dense: 0.35; static: none; deferred: 7.25; huge: none'));
    expect(html).not.toContain('class="tag fit"');
    expect(htmlHeader(html, 'overview-table')).not.toContain('search no-tool FP rate');
    // nothing says huge does not fit: its figures are the best
    const header = htmlHeader(html, 'overview-table');
    expect(inner(htmlRow(html, 'overview-table', 'huge')[header.indexOf('recall@5')]!)).toBe('<strong>0.950</strong>');
    const md = markdownSummary(old);
    expect(md).not.toContain('Floors');
    expect(md).not.toContain('context fit');
    expect(mdRow(md, 'strategy', 'huge')[1]).toBe('profile');
    const xml = junitXml(old);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('fitsContext');
    expect(xml).not.toContain('<skipped');
    expect(chartsOf(old).map((c) => c.id)).toEqual(['recall-at-k', 'recall-vs-tokens', 'slices']);
  });

  it('every format is deterministic: the same results give byte-identical output', () => {
    const r = handBuilt();
    expect(htmlReport(handBuilt())).toBe(htmlReport(r));
    expect(markdownSummary(handBuilt())).toBe(markdownSummary(r));
    expect(junitXml(handBuilt())).toBe(junitXml(r));
  });
});

describe('hostile names in the new parts', () => {
  it('strategy names and the calibration source are escaped in the floors table, the chart data and the marks', () => {
    const evil = '<img src=x onerror=alert(1)>|</script>';
    const r = handBuilt();
    r.retrievers = { [evil]: r.retrievers.bm25!, dense: r.retrievers.dense! };
    const floors = r.config.floors as Record<string, unknown>;
    floors[evil] = { ...(floors.bm25 as object), calibratedOn: '</script><b>x</b>' };
    const html = page(r);
    expect(html).not.toContain(evil);
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain(e(`${evil}: auto → 2.5 (target 0.1, calibrated on </script><b>x</b>, FP there 0.090)`));
    expect(htmlRow(html, 'floors-table', evil)[0]).toContain(e(evil));
    expect(html).not.toMatch(/<img/i);
    const md = markdownSummary(r);
    expect(md).not.toContain('<');
    expect((curveSpec(r).config.data.datasets as unknown as Dataset[]).map((d) => d.label)).toContain(`${evil}: calibrated floor 2.5`);
  });
});

describe('the recall-vs-calls chart', () => {
  const withCalls = (): Results => {
    const r = handBuilt();
    const protocol = { search: 1, perFoundTool: 1, call: 'each' } as const;
    r.profiles!.static!.calls = {
      perCase: 1,
      searchesPerCase: 0,
      noToolPerCase: 0,
      perSession: 12,
      sessionBasis: 'cases',
      protocol: { search: 0, perFoundTool: 0, call: 'each' },
    };
    r.profiles!.deferred!.calls = { perCase: 2.75, searchesPerCase: 1, noToolPerCase: 1, perSession: 30, sessionBasis: 'cases', protocol };
    return r;
  };

  it('puts each profile with call figures at (calls per request, recall@5 or visible without a search), its tokens per request in the legend', () => {
    const r = withCalls();
    const spec = chartsOf(r).find((c) => c.id === 'recall-vs-calls')!;
    const ds = spec.config.data.datasets as Array<{ label: string; data: Array<{ x: number; y: number }>; pointLabels: string[]; tips: string[] }>;
    expect(ds.map((d) => d.label)).toEqual([
      `static (visible) · ${compactTokens(r.profiles!.static!.tokens.perCase)} tokens`,
      `deferred · ${compactTokens(r.profiles!.deferred!.tokens.perCase)} tokens`,
    ]);
    expect(ds.map((d) => d.pointLabels)).toEqual([['static (visible)'], ['deferred']]);
    expect([470, 6797, 116_610, 8_992_409, 12_345_678].map(compactTokens)).toEqual(['470', '6.8k', '117k', '8.99M', '12.3M']);
    // static has no search: visible 0.9; deferred searches: recall@5 0.65
    expect(ds.map((d) => d.data)).toEqual([[{ x: 1, y: 0.9 }], [{ x: 2.75, y: 0.65 }]]);
    expect(ds[1]!.tips).toEqual(['deferred — recall@5 0.650, 2.75 model calls per request, 2,000 tokens per request']);
    expect((spec.config.options.scales as { x: { min: number; max: number } }).x).toMatchObject({ min: 0, max: 4 }); // ceil(2.75 × 1.2)
    expect(
      chartsOf(r)
        .map((c) => c.id)
        .indexOf('recall-vs-calls'),
    ).toBe(
      chartsOf(r)
        .map((c) => c.id)
        .indexOf('recall-vs-tokens') + 1,
    );
  });

  it('counts calls per success when the results have it, and marks a profile with no success not applicable', () => {
    const r = withCalls();
    r.profiles!.static!.calls!.perSuccess = 1;
    r.profiles!.deferred!.calls!.perSuccess = 3.25;
    const spec = chartsOf(r).find((c) => c.id === 'recall-vs-calls')!;
    const ds = spec.config.data.datasets as Array<{ data: Array<{ x: number; y: number }>; tips: string[] }>;
    expect(ds.map((d) => d.data)).toEqual([[{ x: 1, y: 0.9 }], [{ x: 3.25, y: 0.65 }]]);
    expect(ds[1]!.tips).toEqual(['deferred — recall@5 0.650, 3.25 model calls per success (2.75 per request that needs a tool), 2,000 tokens per request']);
    expect((spec.config.options.scales as { x: { title: { text: string }; max: number } }).x).toMatchObject({ max: 4 }); // ceil(3.25 × 1.2)
    expect(spec.caption).toMatch(/per success: the mean over the requests whose gold tools all reached the model/);
    // no request of deferred succeeded: its point is left out and the caption says so
    r.profiles!.deferred!.calls!.perSuccess = null;
    const none = chartsOf(r).find((c) => c.id === 'recall-vs-calls')!;
    expect((none.config.data.datasets as unknown[]).length).toBe(1);
    expect(none.caption).toContain("Not applicable (no request's gold reached the model): deferred.");
  });

  it('is left out when no profile has call figures (results written before they were counted)', () => {
    expect(chartsOf(handBuilt()).map((c) => c.id)).not.toContain('recall-vs-calls');
  });
});
