/**
 * The HTML report as a person uses it: opened from disk in headless Chromium (Debian's `chromium`,
 * driven by playwright-core; `.ci/run` installs it). Skipped, saying so, when the binary is absent.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConfig, runEval } from '../../src/eval/run.ts';
import { chartsOf } from '../../src/report/charts.ts';
import { htmlReport } from '../../src/report/html.ts';
import { MAIN_JOB_PROFILES, MAIN_JOB_RETRIEVERS } from '../../src/eval/main-job.ts';
import { runCli, tempDir } from '../helpers.ts';
import { EVIL_REQUEST, hostileInput, INVISIBLES, invisibleInput, PAYLOADS } from '../hostile.ts';

const CHROMIUM = '/usr/bin/chromium';
const missing = !existsSync(CHROMIUM);
if (missing) console.warn(`test/browser/report.browser.test.ts: SKIPPED — ${CHROMIUM} is absent (apt-get install -y chromium; .ci/run installs it).`);

/** One Chromium for the file's two suites, started when the first asks for it, closed after the file. */
let launched: Promise<Browser> | undefined;
const chromiumOnce = () =>
  (launched ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] }));
afterAll(async () => {
  await (await launched)?.close();
});

const title = missing ? `the HTML report in headless Chromium — SKIPPED: ${CHROMIUM} is absent (.ci/run installs it)` : 'the HTML report in headless Chromium';

describe.skipIf(missing)(title, () => {
  const dir = tempDir('report-browser');
  const profiles = ['static', 'codex', 'deferred'];
  const config = makeConfig(
    ['bm25', 'bm25-plain'],
    [1, 3, 5, 10],
    Object.fromEntries(['bm25', 'bm25-plain', ...profiles].map((n) => [n, null])),
    null,
    false,
    profiles,
  );
  let browser: Browser;
  let page: Page;
  let url: string;
  let chartIds: string[];
  let idA: string;
  let idB: string;
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const requests: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    const h = hostileInput(`tiny ${PAYLOADS[0]}`);
    idA = h.idA;
    idB = h.idB;
    const run = await runEval(h.input, config);
    // codex's prompt fits the context window in half the cases (by hand): marked, never bolded
    Object.assign(run.results.profiles!.codex!.tokens, { contextWindow: 200_000, fitsContext: 0.5, overflowCases: 10 });
    chartIds = chartsOf(run.results).map((c) => `chart-${c.id}`);
    const path = join(dir, 'report.html');
    // The worst misses are bm25's (the only strategy with details given), whose misses the hostile cases are built to be.
    writeFileSync(path, htmlReport(run.results, { details: { bm25: run.details.bm25! }, cases: h.input.cases, catalog: h.input.catalog }));
    url = pathToFileURL(path).href;
    browser = await chromiumOnce();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction((n) => {
      const w = window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } };
      return w.Chart !== undefined && [...document.querySelectorAll('canvas')].filter((c) => w.Chart!.getChart(c)).length === n;
    }, chartIds.length);
  });

  it('loads with no console error, no page error, and requests nothing but the file itself', () => {
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([url]);
  });

  it('paints every chart on its canvas', async () => {
    const painted = await page.evaluate(() =>
      [...document.querySelectorAll('canvas')].map((c) => {
        const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
        let ink = 0;
        let chromatic = 0;
        for (let i = 0; i < data.length; i += 4) {
          const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
          if (a === 0 || (r > 245 && g > 245 && b > 245)) continue;
          ink++;
          // the series: saturated colours from the palette (axes, grid and text are grey)
          if (a > 200 && Math.max(r, g, b) - Math.min(r, g, b) > 60) chromatic++;
        }
        return { id: c.id, width: c.width, height: c.height, ink, chromatic, share: ink / (c.width * c.height) };
      }),
    );
    expect(painted.map((p) => p.id)).toEqual(chartIds);
    for (const p of painted) {
      expect(p.width, p.id).toBeGreaterThan(300);
      expect(p.ink, p.id).toBeGreaterThan(2000);
      expect(p.share, p.id).toBeGreaterThan(0.005);
      expect(p.chromatic, p.id).toBeGreaterThan(200);
    }
  });

  it('sorts the overview when a header is clicked, numbers numerically, absent values last', async () => {
    const read = () =>
      page.evaluate(() => {
        const t = document.getElementById('overview-table') as HTMLTableElement;
        const col = [...t.tHead!.rows[0]!.cells].findIndex((th) => th.textContent!.trim() === 'top1');
        return [...t.tBodies[0]!.rows].map((r) => ({ name: r.cells[0]!.childNodes[0]!.textContent!.trim(), v: r.cells[col]!.getAttribute('data-v') }));
      });
    const before = await read();
    expect(before.map((r) => r.name)).toEqual(['bm25', 'bm25-plain', 'static', 'codex', 'deferred']);
    const header = page.locator('#overview-table thead th').filter({ hasText: /^top1$/ });
    await header.getByRole('button').click();
    const desc = await read();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    expect(desc.map((r) => r.name)).not.toEqual(before.map((r) => r.name));
    const values = (rows: Array<{ v: string | null }>) => rows.filter((r) => r.v !== null).map((r) => Number(r.v));
    expect(values(desc)).toEqual([...values(desc)].sort((a, b) => b - a));
    expect(desc[desc.length - 1]!.name).toBe('static'); // no top1: last
    await header.getByRole('button').click();
    const asc = await read();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    expect(values(asc)).toEqual([...values(asc)].sort((a, b) => a - b));
    expect(asc[asc.length - 1]!.name).toBe('static');
  });

  it('draws the operating curve, shows the floors table, and marks the profile that does not fit', async () => {
    expect(chartIds).toContain('chart-operating-curve');
    expect(await page.locator('#figure-operating-curve figcaption').innerText()).toContain('further up and left is better');
    const floors = page.locator('#floors-table');
    expect(await floors.locator('tbody tr').count()).toBe(5);
    expect(await floors.locator('thead').innerText()).toContain('recall@5 at FP ≤ 0.05');
    const codex = page.locator('#overview-table tbody tr').filter({ has: page.locator('th', { hasText: /^codex/ }) });
    expect(await codex.innerText()).toContain('fits 50% of cases');
    expect(await codex.locator('.tag.fit').getAttribute('title')).toContain('fits 50% of cases in the 200,000-token context window');
    expect(await codex.locator('strong').count()).toBe(0);
    expect(await page.locator('#overview-table tbody strong').count()).toBeGreaterThan(0); // other rows have the bold
    expect(await page.locator('#no-tool-definition').innerText()).toContain('advertised with its schema, or returned by a search');
    expect(await page.locator('header.top .lead').innerText()).toContain('Not considered for best: codex (fits 50% of cases');
  });

  it('runs no injected script and shows every payload as text', async () => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    // the charts' JSON blocks, chart.js, the page script, the explorer's JSON block and its script: nothing else
    expect(await page.evaluate(() => document.scripts.length)).toBe(chartIds.length + 4);
    // the explorer shows the hostile request as text too
    await page.fill('#x-search', EVIL_REQUEST.slice(0, 20));
    expect(await page.locator('#x-table tbody').innerText()).toContain(EVIL_REQUEST.length > 200 ? EVIL_REQUEST.slice(0, 200) : EVIL_REQUEST);
    await page.fill('#x-search', '');
    const text = await page.locator('body').innerText();
    for (const p of [PAYLOADS[0]!, PAYLOADS[1]!, PAYLOADS[2]!, EVIL_REQUEST, idA, idB, `<b>q0</b>"'&`]) expect(text, p).toContain(p);
    const misses = await page.locator('#worst-misses').innerText();
    expect(misses).toContain(EVIL_REQUEST);
    expect(misses).toContain(idB);
    expect(await page.title()).toBe(`Backpack report — tiny ${PAYLOADS[0]}`);
  });
});

describe.skipIf(missing)('the case explorer shows invisible characters as the static tables do', () => {
  let page: Page;

  beforeAll(async () => {
    const { input } = invisibleInput();
    const config = makeConfig({ retrievers: ['bm25'], ks: [1, 3, 5, 10], floors: { bm25: null } });
    const run = await runEval(input, config);
    const dir = tempDir('report-browser-invisible');
    const path = join(dir, 'report.html');
    writeFileSync(path, htmlReport(run.results, { details: { bm25: run.details.bm25! }, cases: input.cases, catalog: input.catalog }));
    page = await (await chromiumOnce()).newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  });

  /** Every text node of the page outside script and style elements, with the invisible characters it holds. */
  const textNodesWithInvisibles = () =>
    page.evaluate(
      (chars) => {
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const parent = n.parentElement?.tagName;
          if (parent === 'SCRIPT' || parent === 'STYLE') continue;
          const text = n.textContent ?? '';
          if (chars.some((c) => text.includes(c))) out.push(`${parent}: ${JSON.stringify(text)}`);
        }
        return out;
      },
      [...INVISIBLES],
    );

  it('in the case row (open-case button, request, gold, top tools), the dialog, and every other text node', async () => {
    await page.fill('#x-search', 'frobnicate');
    const row = page.locator('#x-table tbody tr').first();
    expect(await row.locator('button.open-case').innerText()).toBe('q[U+202E]evil');
    expect(await row.locator('td.request').innerText()).toBe('please frobnicate the zanzibar ledger[U+0007] now [U+200F][U+202E]txt.exe');
    expect(await row.locator('td.gold').innerText()).toBe('mcp__evil__pay[U+202E]fdp.exe');
    expect(await row.locator('td.top').innerText()).toMatch(/^mcp__evil__pay\[U\+202E\]fdp\.exe/);
    await row.locator('button.open-case').click();
    const dialog = await page.locator('#x-dialog').innerText();
    expect(dialog).toContain('q[U+202E]evil');
    expect(dialog).toContain('frobnicate the [U+2066]zanzibar[U+2069] ledger');
    expect(dialog).toContain('mcp__evil__pay[U+202E]fdp.exe');
    // the slice filter still finds the case by the shown name of its slice
    await page.keyboard.press('Escape');
    await page.fill('#x-search', '');
    await page.selectOption('#x-slice', { label: 's[U+200F]lice' });
    expect(await page.locator('#x-table tbody tr').count()).toBe(1);
    await page.locator('#x-table tbody button.open-case').first().click();
    expect(await textNodesWithInvisibles()).toEqual([]);
    // the comparison page's rows ask for a case by its id as shown
    await page.evaluate(() => (window as unknown as { backpackExplorer: { openId(id: string): void } }).backpackExplorer.openId('q[U+202E]evil'));
    expect(await page.locator('#x-dialog-title').innerText()).toBe('q[U+202E]evil');
  });
});

describe.skipIf(missing)("the report of the main job's 15 strategies at 1440 px", () => {
  const dir = tempDir('report-browser-15');
  let browser: Browser;
  let page: Page;

  // Budget: 120 s for the evaluation of the 15 strategies and the page (measured 2026-12-07 on 2
  // cores: 3.0 s quiet, 51 s at load 12–13).
  beforeAll(async () => {
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', join(dir, 'data'), '--quiet')).code).toBe(0);
    // a small context window: some profiles fit only some cases, so their rows carry the fit tag
    const e = await runCli(
      'eval',
      '--dataset',
      join(dir, 'data'),
      '--retrievers',
      MAIN_JOB_RETRIEVERS.join(','),
      '--profiles',
      MAIN_JOB_PROFILES.join(','),
      '--context-window',
      '8000',
      '--out',
      join(dir, 'run'),
      '--quiet',
    );
    expect(e.code, e.err).toBe(0);
    expect((await runCli('report', join(dir, 'run'), '--format', 'html', '--out', join(dir, 'report'))).code).toBe(0);
    browser = await chromiumOnce();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.goto(pathToFileURL(join(dir, 'report', 'report.html')).href, { waitUntil: 'load' });
    await page.waitForFunction(() => {
      const w = window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } };
      return w.Chart !== undefined && [...document.querySelectorAll('canvas')].every((c) => w.Chart!.getChart(c));
    });
  }, 120_000);

  it('fits every table in the window, and no header word runs into the next column', async () => {
    const over = await page.evaluate(() => [
      ...[...document.querySelectorAll('table')]
        .filter((t) => t.scrollWidth > t.clientWidth + 1)
        .map((t) => `table ${t.id || t.className}: ${t.scrollWidth} > ${t.clientWidth}`),
      ...[...document.querySelectorAll('thead th')]
        .filter((th) => th.getClientRects().length && th.scrollWidth > th.clientWidth + 1)
        .map((th) => `header "${th.textContent}": ${th.scrollWidth} > ${th.clientWidth}`),
      ...(document.documentElement.scrollWidth > window.innerWidth ? [`page ${document.documentElement.scrollWidth} wide`] : []),
    ]);
    expect(over).toEqual([]);
    expect(await page.locator('#overview-table tbody tr').count()).toBe(15);
  });

  it('shows the overview compact, the other columns one click away', async () => {
    const visible = () =>
      page.evaluate(() => [...document.querySelectorAll('#overview-table thead th')].filter((th) => th.getClientRects().length).map((th) => th.textContent));
    const compact = await visible();
    expect(compact).toEqual(expect.arrayContaining(['strategy', 'top1', 'recall@5', 'no-tool FP rate', 'p50 ms']));
    expect(compact).not.toContain('recall@1');
    const all = await page.locator('#overview-table thead th').count();
    expect(compact.length).toBeLessThan(all);
    await page.locator('label[for="overview-table-all"]').click();
    expect(await visible()).toHaveLength(all);
    expect(await visible()).toContain('recall@1');
    await page.locator('label[for="overview-table-all"]').click();
    expect(await visible()).toEqual(compact);
  });

  it('draws retrievers and profiles in two operating-curve panels, the legend beside the plot, below the title, without floor markers', async () => {
    const panels = await page.evaluate(() => {
      const w = window as unknown as { Chart: { getChart(c: HTMLCanvasElement): any } };
      return ['chart-operating-curve', 'chart-operating-curve-profiles'].map((id) => {
        const c = w.Chart.getChart(document.getElementById(id) as HTMLCanvasElement);
        return {
          id,
          items: c.legend.legendItems.map((i: { text: string }) => i.text) as string[],
          legend: { left: c.legend.left, top: Math.min(...c.legend.legendHitBoxes.map((b: { top: number }) => b.top)) },
          area: { right: c.chartArea.right },
          titleBottom: c.titleBlock.bottom,
          strategies: [...new Set(c.data.datasets.map((d: { strategy?: string }) => d.strategy))] as string[],
        };
      });
    });
    const [retrievers, profiles] = panels;
    for (const p of panels) {
      expect(p!.legend.left, p!.id).toBeGreaterThanOrEqual(p!.area.right);
      expect(p!.legend.top, p!.id).toBeGreaterThanOrEqual(p!.titleBottom);
      expect(
        p!.items.some((t) => t.includes('calibrated floor')),
        p!.id,
      ).toBe(false);
    }
    for (const s of retrievers!.strategies) expect(MAIN_JOB_RETRIEVERS).toContain(s);
    for (const s of profiles!.strategies) expect(MAIN_JOB_PROFILES).toContain(s);
    expect(retrievers!.strategies.length).toBeGreaterThan(1);
    expect(profiles!.strategies.length).toBeGreaterThan(1);
  });

  it("gives the explorer's request, gold and top-tools columns room to be read", async () => {
    const widths = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('#x-table thead th')].map((th) => [th.textContent, th.getBoundingClientRect().width])),
    );
    expect(widths.request).toBeGreaterThan(250);
    expect(widths.gold).toBeGreaterThan(250);
    expect(widths['top tools']).toBeGreaterThan(300);
  });
});
