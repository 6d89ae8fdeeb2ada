import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../eval/results.ts';
import { makeConfig, runEval, type EvalRun } from '../eval/run.ts';
import { FULL_RUN_CHART_IDS, tinyInput } from '../../test/helpers.ts';
import { CASE_A, CASE_B, EVIL_NS, EVIL_REQUEST, EVIL_SLICE, hostileInput, PAYLOADS } from '../../test/hostile.ts';
import { chartsOf } from './charts.ts';
import { chartJsSource, htmlReport, jsonForScript, scriptSafe } from './html.ts';

const PROFILES = ['static', 'codex', 'deferred'];
const RETRIEVERS = ['bm25', 'bm25-plain'];
const floors = Object.fromEntries([...RETRIEVERS, ...PROFILES].map((n) => [n, null]));
const config = makeConfig(RETRIEVERS, [1, 3, 5, 10], floors, null, false, PROFILES);

const { input } = tinyInput();

/** The page without the inlined chart.js (third-party text the report does not write). */
function withoutChartJs(html: string): string {
  const lib = scriptSafe(chartJsSource());
  expect(html.split(lib).length).toBe(2);
  return html.replace(lib, '');
}

/** HTML-escaped, independently of the code under test. */
const e = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const resourceRef = /\b(?:src|href|action|poster|srcset|data|formaction)\s*=\s*["']?\s*(?:https?:)?\/\//i;

describe('htmlReport on a real run', () => {
  let run: EvalRun;
  let html: string;
  beforeAll(async () => {
    run = await runEval(input, config);
    html = htmlReport(run.results, { details: run.details, cases: input.cases, catalog: input.catalog });
  });

  it('has a canvas and an escaped JSON configuration per chart, and the chart.js build inlined', () => {
    const specs = chartsOf(run.results);
    expect(specs.map((s) => s.id)).toEqual(FULL_RUN_CHART_IDS);
    for (const s of specs) {
      expect(html).toContain(`<canvas id="chart-${s.id}"`);
      expect(html).toContain(`<h3>${e(s.title)}</h3>`);
      const m = html.match(new RegExp(`<script type="application/json" data-chart="chart-${s.id}" id="chart-data-${s.id}">([^<]*)</script>`));
      expect(m, s.id).not.toBeNull();
      expect(JSON.parse(m![1]!)).toEqual(JSON.parse(JSON.stringify(s.config)));
    }
    expect((html.match(/<canvas /g) ?? []).length).toBe(specs.length);
    expect(html).toContain('Chart.js v4.5.0');
    expect(html).toContain(scriptSafe(chartJsSource()));
    expect(chartJsSource().length).toBeGreaterThan(100_000);
  });

  it('loads nothing from anywhere: strict CSP, no http(s) resource reference', () => {
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(resourceRef);
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    // the only links are to the page's own sections
    for (const m of html.matchAll(/\bhref="([^"]*)"/g)) expect(m[1]).toMatch(/^#[a-z-]+$/);
    // the charts' JSON blocks, chart.js, the page script, the case explorer's JSON block and its script
    expect((html.match(/<script\b/g) ?? []).length).toBe(chartsOf(run.results).length + 4);
  });

  it('shows the provenance, every section, and a sortable overview of every strategy', () => {
    const r = run.results;
    for (const x of [r.dataset.catalogSha256, r.configHash, r.timings.startedAt, `Backpack ${r.backpack.version}`]) expect(html).toContain(x);
    if (r.backpack.gitSha) expect(html).toContain(r.backpack.gitSha);
    for (const id of ['provenance', 'overview', 'charts', 'floors', 'slices', 'namespaces', 'never-surfaced', 'worst-misses', 'tokens', 'skills', 'sessions'])
      expect(html).toContain(`<section id="${id}">`);
    const overview = html.slice(html.indexOf('id="overview-table"'), html.indexOf('</table>', html.indexOf('id="overview-table"')));
    expect((overview.match(/<tr>/g) ?? []).length).toBe(1 + RETRIEVERS.length + PROFILES.length);
    expect(overview).toContain('data-type="num"');
    expect(overview).toContain('<td class="num" title="not applicable: the profile offers no search"><span class="na">n/a</span></td>'); // static ranks nothing
    expect(html).not.toContain('not in this run');
  });

  it('lists at most 20 worst misses of the best strategy, worst first, deterministically', () => {
    const misses = html.slice(html.indexOf('<section id="worst-misses">'), html.indexOf('</section>', html.indexOf('<section id="worst-misses">')));
    // the best ranking strategy by the headline recall@5 (ties: the first in the run)
    const ranking = [...Object.entries(run.results.retrievers), ...Object.entries(run.results.profiles ?? {}).filter(([, p]) => p.exposure.search)];
    const best = ranking.reduce((a, b) => ((b[1].metrics.overall['recall@5'] ?? 0) > (a[1].metrics.overall['recall@5'] ?? 0) ? b : a))[0];
    expect(misses).toContain(`<strong>${best}</strong>`);
    const rows = [...misses.matchAll(/<tr><th scope="row"><code>([^<]*)<\/code>/g)].map((m) => m[1]);
    expect(rows.length).toBe(20);
    // every listed case is graded and the best strategy put none of its gold in the top 5
    const byId = new Map(input.cases.map((c) => [c.id, c]));
    const detail = new Map(run.details[best]!.map((d) => [d.caseId, d]));
    for (const id of rows) {
      const gold = byId.get(id!)!.expectedTools!;
      expect(gold.length).toBeGreaterThan(0);
      expect(
        detail
          .get(id!)!
          .ranked.slice(0, 5)
          .some(([t]) => gold.includes(t)),
      ).toBe(false);
    }
    expect(htmlReport(run.results, { details: run.details, cases: input.cases, catalog: input.catalog })).toBe(html);
  });

  it('folds a long request: its first 400 characters, then the whole text behind "show all"', () => {
    const misses = html.slice(html.indexOf('<section id="worst-misses">'), html.indexOf('</section>', html.indexOf('<section id="worst-misses">')));
    const first = [...misses.matchAll(/<tr><th scope="row"><code>([^<]*)<\/code>/g)][0]![1]!;
    const long = `${'tell me about the weather '.repeat(4000)}\u202Eend`;
    const cases = input.cases.map((c) => (c.id === first ? { ...c, request: long } : c));
    const page = htmlReport(run.results, { details: run.details, cases, catalog: input.catalog });
    const section = page.slice(page.indexOf('<section id="worst-misses">'), page.indexOf('</section>', page.indexOf('<section id="worst-misses">')));
    const cell = section.slice(section.indexOf('<div class="request">'), section.indexOf('</details>') + '</details>'.length);
    expect(cell).toContain(`<details class="fold"><summary>show all ${Array.from(long).length.toLocaleString('en-US')} characters</summary>`);
    const shown = cell.slice('<div class="request">'.length, cell.indexOf('… <details'));
    expect(shown).toBe(long.slice(0, 400));
    expect(cell).toContain('end');
    expect(cell).toContain('[U+202E]end');
    expect(cell).not.toContain('\u202E');
  });

  it('shows the cases hash, a re-signed dataset and the input warnings in the provenance, escaped', () => {
    expect(html).toContain(`<code class="hash">${run.results.dataset.casesSha256}</code>`);
    expect(html).not.toContain('Input warnings');
    const warned: Results = {
      ...run.results,
      dataset: { ...run.results.dataset, reSigned: { added: [], removed: [], changed: ['queries.jsonl'] } },
      warnings: ['<img src=x onerror=alert(1)> left out', 'second'],
    };
    const page = htmlReport(warned);
    expect(page).toContain('<dt>Input warnings (2)</dt><dd><ul class="warnings"><li>&lt;img src=x onerror=alert(1)&gt; left out</li><li>second</li></ul></dd>');
    expect(page).toContain('<dt>Re-signed</dt><dd>yes: changed queries.jsonl</dd>');
  });

  it('works with one retriever and nothing else, saying what is not in the run', () => {
    const { sessions: _s, ...bm25 } = run.results.retrievers.bm25!;
    const { profiles: _p, skills: _k, ...rest } = run.results;
    const one: Results = { ...rest, config: { ...rest.config, retrievers: ['bm25'] }, retrievers: { bm25 }, tokenTable: { ...rest.tokenTable, rows: [] } };
    const page = htmlReport(one);
    expect(page).toContain('not in this run');
    for (const id of ['worst-misses', 'skills', 'sessions']) {
      const sec = page.slice(page.indexOf(`<section id="${id}">`), page.indexOf('</section>', page.indexOf(`<section id="${id}">`)));
      expect(sec, id).toContain('not in this run');
    }
    expect(page).toContain('<canvas id="chart-recall-at-k"');
    expect(page).not.toContain('<canvas id="chart-sessions"');
    // and with a results file whose optional sections are missing altogether
    const bare = { ...one, tokenTable: undefined } as unknown as Results;
    expect(() => htmlReport(bare, { details: {}, cases: [] })).not.toThrow();
  });

  it('works with twenty strategies', () => {
    const twenty: Results = {
      ...run.results,
      retrievers: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`bm25-${String(i).padStart(2, '0')}`, run.results.retrievers.bm25!])),
    };
    const page = htmlReport(twenty, { details: { 'bm25-00': run.details.bm25! }, cases: input.cases });
    const overview = page.slice(page.indexOf('id="overview-table"'), page.indexOf('</table>', page.indexOf('id="overview-table"')));
    expect((overview.match(/<tr>/g) ?? []).length).toBe(1 + 20);
    expect(page).toContain('<strong>bm25-00</strong>');
  });
});

describe('hostile catalog and cases', () => {
  it('never lets a payload out unescaped, and shows it as text', async () => {
    const { input: evil, idA, idB } = hostileInput();
    const run = await runEval(evil, config);
    // The worst misses are bm25's (the only strategy with details given), whose misses the hostile cases are built to be.
    const html = htmlReport(run.results, { details: { bm25: run.details.bm25! }, cases: evil.cases, catalog: evil.catalog });
    const page = withoutChartJs(html);
    for (const p of [...PAYLOADS, idA, idB, EVIL_NS, EVIL_REQUEST, CASE_A, CASE_B]) expect(page, p).not.toContain(p);
    expect(page).not.toMatch(/<img/i);
    expect(page).not.toMatch(/onerror\s*=\s*"/i);
    expect((page.match(/<script\b/gi) ?? []).length).toBe(chartsOf(run.results).length + 4);
    expect((page.match(/<\/script>/gi) ?? []).length).toBe(chartsOf(run.results).length + 4);
    // the escaped forms are there: the misses (request, gold id and description, what came instead), the slice, the namespace, the dataset name
    const misses = page.slice(page.indexOf('<section id="worst-misses">'), page.indexOf('</section>', page.indexOf('<section id="worst-misses">')));
    for (const x of [CASE_A, CASE_B, EVIL_REQUEST, idA, idB, PAYLOADS[2]!]) expect(misses, x).toContain(e(x));
    expect(page).toContain(` title="${e(EVIL_SLICE)}: `);
    expect(page).toContain(`<code>${e(EVIL_NS)}</code>`);
    expect(page).toContain(`<title>Backpack report — ${e(evil.name)}</title>`);
    // in the chart data, as \u escapes only
    expect(page).toContain(jsonForScript(evil.name).slice(1, -1));
    expect(jsonForScript(evil.name)).not.toMatch(/[<>&]/);
    const never = page.slice(page.indexOf('<section id="never-surfaced">'), page.indexOf('</section>', page.indexOf('<section id="never-surfaced">')));
    expect(never).toContain(`<code>${e(idB)}</code>`);
  });

  it('script text cannot close its element; JSON data holds no markup character', () => {
    expect(scriptSafe('a="</script><!-- <SCRIPT>";/<\\/script/')).toBe('a="\\x3C/script>\\x3C!-- \\x3CSCRIPT>";/<\\/script/');
    expect(new Function(`return ${scriptSafe('"</script>"')}`)()).toBe('</script>');
    const v = { s: `</script><script>x</script> & <!-- \u2028` };
    const j = jsonForScript(v);
    expect(j).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(j)).toEqual(v);
  });
});
