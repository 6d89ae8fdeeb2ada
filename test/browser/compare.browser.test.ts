/**
 * The comparison report (`backpack report BASE HEAD`) and the head's own report as a reviewer uses
 * them, in headless Chromium at 1440 px: no console error, a changed case found by search and
 * opened (every strategy's ranking in both runs), one colour per strategy across every chart, and
 * no table wider than the window. Skipped, saying so, when Chromium is absent.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCaseRecords } from '../../src/eval/case-records.ts';
import { readRunDir } from '../../src/eval/files.ts';
import type { Case } from '../../src/catalog/types.ts';
import type { Results } from '../../src/eval/results.ts';
import { compareRuns } from '../../src/report/compare/model.ts';
import { explorerData, explorerHtml } from '../../src/report/explorer.ts';
import { explorerScript, pageHead } from '../../src/report/html/inline.ts';
import { escapeHtml } from '../../src/util/escape.ts';
import { runCli, tempDir } from '../helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const missing = !existsSync(CHROMIUM);
if (missing) console.warn(`test/browser/compare.browser.test.ts: SKIPPED — ${CHROMIUM} is absent (apt-get install -y chromium; .ci/run installs it).`);
const STRATEGIES = ['--retrievers', 'bm25,bm25-plain', '--profiles', 'static,codex,deferred'];
const CHANGED = 'mcp__slack__create_message';

/** One Chromium for the file's two suites, started when the first asks for it, closed after the file. */
let launched: Promise<Browser> | undefined;
const chromiumOnce = () =>
  (launched ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] }));
afterAll(async () => {
  await (await launched)?.close();
});

describe.skipIf(missing)('the comparison report in headless Chromium at 1440 px', () => {
  const tmp = tempDir('compare-browser');
  const base = join(tmp, 'base');
  const head = join(tmp, 'head');
  let browser: Browser;
  const errors: string[] = [];

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${path}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(pathToFileURL(path).href);
    return page;
  }

  // Budget: 120 s for the two evaluations, the reports and the browser (measured 2026-12-07 on 2
  // cores: 10 s quiet, 45 s at load 10–13).
  beforeAll(async () => {
    const data = join(tmp, 'data');
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', data, '--quiet')).code).toBe(0);
    const data2 = join(tmp, 'data2');
    cpSync(data, data2, { recursive: true });
    const file = join(data2, 'corpus.jsonl');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    writeFileSync(
      file,
      `${lines
        .map((l) => {
          const t = JSON.parse(l) as Record<string, unknown>;
          if (t._id !== CHANGED) return l;
          delete t.hash;
          return JSON.stringify({ ...t, description: 'Deprecated helper; do not use.', summary: 'Deprecated.' });
        })
        .join('\n')}\n`,
    );
    expect((await runCli('eval', '--dataset', data, ...STRATEGIES, '--out', base, '--quiet')).code).toBe(0);
    expect((await runCli('eval', '--dataset', data2, '--re-sign', ...STRATEGIES, '--out', head, '--quiet')).code).toBe(0);
    expect((await runCli('report', base, head, '--out', join(tmp, 'cmp'))).code).toBe(0);
    expect((await runCli('report', head, '--format', 'html')).code).toBe(0);
    browser = await chromiumOnce();
  }, 120_000);

  it('finds a changed case by search and opens it: request, gold tools, every strategy in both runs', async () => {
    const load = (dir: string) => {
      const saved = readCaseRecords(dir)!;
      return { label: dir, dir, run: readRunDir(dir), cases: saved.cases, tools: saved.tools };
    };
    const lost = compareRuns([load(base), load(head)]).pairs[0]!.strategies.find((s) => s.name === 'bm25-plain')!.lost[0]!;
    const t0 = Date.now();
    const page = await open(join(tmp, 'cmp', 'report.html'));
    const loadMs = Date.now() - t0;
    const total = await page.locator('table.cases tbody tr').count();
    expect(total).toBeGreaterThan(1);
    await page.fill('#case-search', lost.caseId);
    const visible = page.locator('table.cases tbody tr:not([hidden])');
    expect(await visible.count()).toBeGreaterThanOrEqual(1);
    expect(await visible.count()).toBeLessThan(total);
    expect(await page.textContent('#case-count')).toMatch(new RegExp(`^\\d+ of ${total} changed cases shown$`));
    await visible.first().locator('button.open-case').click();
    const dialog = page.locator('#x-dialog');
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await page.textContent('#x-dialog-title')).toBe(lost.caseId);
    expect(await dialog.locator('p.request').textContent()).toBe(lost.request);
    // every strategy of both runs, each with both rankings
    expect(await dialog.locator('table.rankings tbody tr').count()).toBe(5);
    expect(await dialog.locator('table.rankings tbody tr th code').allTextContents()).toEqual(['bm25', 'bm25-plain', 'static', 'codex', 'deferred']);
    expect(errors).toEqual([]);
    console.log(`comparison report: ${total} changed cases, loaded in ${loadMs} ms`);
    await page.close();
  });

  it("paints the comparison's change chart: one bar per strategy in its colour, with no console error", async () => {
    const page = await open(join(tmp, 'cmp', 'report.html'));
    await page.waitForFunction(() => {
      const w = window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } };
      const c = document.querySelector<HTMLCanvasElement>('#chart-change-1');
      return w.Chart !== undefined && c !== null && w.Chart.getChart(c) !== undefined;
    });
    const painted = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('#chart-change-1')!;
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      let chromatic = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a > 200 && Math.max(r, g, b) - Math.min(r, g, b) > 60) chromatic++;
      }
      const chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): { data: { labels: string[] } } } }).Chart.getChart(c);
      return { chromatic, labels: chart.data.labels };
    });
    expect(painted.labels.length).toBeGreaterThan(2);
    // bars of a changed strategy, or at least the title's and axes' frame: coloured pixels drawn
    expect(painted.chromatic).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows one colour per strategy in every chart of the head report, and no table wider than the window', async () => {
    const page = await open(join(head, 'report', 'report.html'));
    const colours = await page.evaluate(() => {
      const seen: Record<string, string[]> = {};
      const charts = (window as unknown as { Chart: { instances: Record<string, { data: { datasets: Array<{ strategy?: string; borderColor?: string }> } }> } })
        .Chart.instances;
      for (const c of Object.values(charts))
        for (const d of c.data.datasets) if (d.strategy && typeof d.borderColor === 'string') (seen[d.strategy] ??= []).push(d.borderColor);
      return seen;
    });
    expect(Object.keys(colours).sort()).toEqual(expect.arrayContaining(['bm25', 'codex', 'deferred']));
    for (const [name, list] of Object.entries(colours)) expect(new Set(list).size, `${name}: ${list.join(', ')}`).toBe(1);
    expect(Object.values(colours).filter((l) => l.length > 1).length).toBeGreaterThan(0);
    for (const path of [join(head, 'report', 'report.html'), join(tmp, 'cmp', 'report.html')]) {
      const p = path.endsWith('cmp/report.html') ? await open(path) : page;
      const wide = await p.evaluate(() =>
        [...document.querySelectorAll('table')]
          .map((t) => ({ id: t.id || t.className, width: Math.round(t.getBoundingClientRect().width) }))
          .filter((t) => t.width > window.innerWidth),
      );
      expect(wide, path).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});

// Budget: 90 s (measured 2026-12-07 on 2 cores: 6.6–7.5 s quiet, 31–43 s at load 10–17).
describe.skipIf(missing)('the case explorer at scale: 6,000 cases and 20 strategies', { timeout: 90_000 }, () => {
  const tmp = tempDir('explorer-scale');
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromiumOnce();
  });

  it('loads, filters and opens a case quickly (times printed), and the page stays one offline file', async () => {
    const tools = Array.from({ length: 2000 }, (_, i) => ({
      id: `mcp__ns${i % 50}__tool_${i}`,
      namespace: `ns${i % 50}`,
      summary: `Tool ${i} does thing ${i}.`,
    }));
    const cases: Case[] = Array.from({ length: 6000 }, (_, i) => ({
      id: `q${String(i).padStart(5, '0')}`,
      request: `please do thing ${i} with ${i % 7 === 0 ? 'nothing in particular' : `tool ${(i * 7) % 2000}`}`,
      expectedTools: i % 7 === 0 ? [] : [tools[(i * 7) % 2000]!.id],
      slices: [`slice-${i % 8}`],
    }));
    const names = Array.from({ length: 20 }, (_, s) => `strategy-${s}`);
    const details = Object.fromEntries(
      names.map((n, s) => [
        n,
        cases.map((c, i) => ({
          caseId: c.id,
          ranked: Array.from({ length: 10 }, (_, k): [string, number] => [tools[(i * 7 + k * (s + 1)) % 2000]!.id, 10 - k]),
          pinned: [],
          leaks: [],
          ms: 0,
        })),
      ]),
    );
    const results = {
      dataset: { name: 'synthetic' },
      config: { ks: [1, 5, 10] },
      retrievers: Object.fromEntries(names.map((n) => [n, {}])),
    } as unknown as Results;
    const data = explorerData([{ label: 'synthetic', results, details }], cases, tools);
    const d = data as { slices: string[]; namespaces: string[]; strategies: string[] };
    const html = `${pageHead('explorer at scale', 'Backpack test')}<main>${explorerHtml(data, escapeHtml, { strategies: d.strategies, slices: d.slices, namespaces: d.namespaces, runs: 1 })}</main><script>${explorerScript()}</script></body></html>`;
    const path = join(tmp, 'explorer.html');
    writeFileSync(path, html);
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const t0 = Date.now();
    await page.goto(pathToFileURL(path).href);
    await page.waitForSelector('#x-table tbody tr');
    const loadMs = Date.now() - t0;
    expect(await page.textContent('#x-count')).toBe('6000 of 6000 cases match (100 shown)');
    const t1 = Date.now();
    await page.fill('#x-search', 'tool_1234');
    const searchMs = Date.now() - t1;
    const matched = Number((await page.textContent('#x-count'))!.split(' ')[0]);
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThan(6000);
    await page.selectOption('#x-strategy', 'strategy-19');
    await page.locator('#x-table button.open-case').first().click();
    expect(await page.locator('#x-dialog table.rankings tbody tr').count()).toBe(20);
    expect(errors).toEqual([]);
    console.log(
      `explorer at 6,000 cases × 20 strategies: ${(html.length / 1e6).toFixed(1)} MB page, first rows after ${loadMs} ms, a search over every case and ranking in ${searchMs} ms`,
    );
    await page.close();
  });
});
