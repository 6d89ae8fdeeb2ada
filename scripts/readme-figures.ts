/**
 * The README's chart and table, written from a committed run so they cannot drift from what
 * `backpack run` shows.
 *
 *   node --import tsx scripts/readme-figures.ts --from reports/monster-7   # keep a new run, then write
 *   node --import tsx scripts/readme-figures.ts                            # write from the kept run
 *   node --import tsx scripts/readme-figures.ts --check                    # exit 1 when stale
 *
 * `--from DIR` keeps the run's `results.json` in `docs/readme-run/results.json`, trimmed to what
 * the README needs (the overall tables, their intervals, floors and token figures; the per-slice and
 * per-namespace tables and the never-surfaced lists are left out: the full run is 9 MB). The chart
 * (`docs/img/recall-vs-tokens.png`) is the report's own `recall-vs-tokens` chart of that run; the
 * table between the README's markers gives each strategy's headline figures. The end marker
 * records the sha256 of the chart's spec and of the PNG, so `test/readme-figures.test.ts` fails
 * when the README, the PNG or the kept run disagree, or when the kept run is not what `backpack
 * run` evaluates today.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Results } from '../src/eval/results.ts';
import { chartsOf, type ChartSpec } from '../src/report/charts.ts';
import { renderPng } from '../src/report/png.ts';
import { isAutoFloor } from '../src/eval/results.ts';
import { contextFit, figure, fitMark, floorNumber, headline, strategies, thinness } from '../src/report/view.ts';
import { readArguments } from './script-args.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const KEPT_RUN = join(ROOT, 'docs', 'readme-run', 'results.json');
export const CHART_PNG = join(ROOT, 'docs', 'img', 'recall-vs-tokens.png');
export const README = join(ROOT, 'README.md');
const BEGIN = '<!-- readme-figures:begin — written by scripts/readme-figures.ts from docs/readme-run/results.json; do not edit by hand -->';
const END = /<!-- readme-figures:end spec=([0-9a-f]{64}) png=([0-9a-f]{64}) -->/;

const sha256 = (x: string | Buffer): string => createHash('sha256').update(x).digest('hex');

/** The run trimmed to what the README needs (see the module comment). */
export function trimmed(r: Results): Results {
  const strip = <T extends { metrics: Results['retrievers'][string]['metrics']; neverSurfaced: Results['retrievers'][string]['neverSurfaced'] }>(x: T): T => ({
    ...x,
    metrics: {
      overall: x.metrics.overall,
      slices: {},
      namespaces: {},
      ...(x.metrics.ci95 ? { ci95: { overall: x.metrics.ci95.overall, slices: {}, namespaces: {} } } : {}),
    },
    neverSurfaced: { ...x.neverSurfaced, gold: [] },
  });
  return {
    ...r,
    retrievers: Object.fromEntries(Object.entries(r.retrievers).map(([n, x]) => [n, strip(x)])),
    ...(r.profiles ? { profiles: Object.fromEntries(Object.entries(r.profiles).map(([n, x]) => [n, strip(x)])) } : {}),
  };
}

/** The README's chart: the report's recall-vs-tokens chart of the kept run. */
export function chartSpec(r: Results): ChartSpec {
  const spec = chartsOf(r).find((c) => c.id === 'recall-vs-tokens');
  if (!spec) throw new Error('readme-figures: the kept run has no recall-vs-tokens chart (no profile ran)');
  return spec;
}

/** The README section between the markers: the chart, a table of each strategy's headline figures, and the end marker with the hashes. */
export function readmeSection(r: Results, png: Buffer): string {
  const metric = headline(r);
  const rate = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(3));
  const int = (v: number | undefined) => (v === undefined ? '–' : Math.round(v).toLocaleString('en-US'));
  const rows = strategies(r).map((s) => {
    const quality = s.ranks ? metric : 'visible';
    const q = figure(s, quality).value;
    const fp = figure(s, 'noToolFalsePositiveRate').value;
    const thin = (m: string) => (thinness(s.results.metrics.overall, m) ? ' (thin)' : '');
    const fit = fitMark(contextFit(s, r));
    const f = r.config.floors[s.name];
    const floor = isAutoFloor(f) ? `auto: ${f.value === null ? 'none' : floorNumber(f.value)}` : typeof f === 'number' ? floorNumber(f) : 'none';
    return `| ${s.name} | ${s.kind === 'profile' ? 'profile' : 'retriever'} | ${rate(q)}${s.ranks ? '' : ' (visible)'}${thin(quality)} | ${rate(fp)}${thin('noToolFalsePositiveRate')} | ${int(s.profile?.tokens.perCase)}${fit ? ` (${fit})` : ''} | ${floor} |`;
  });
  const d = r.dataset;
  const split = d.source.kind === 'dataset' && d.source.split ? `${d.source.split} split` : 'cases';
  const lines = [
    BEGIN,
    '',
    `![${metric} (visible for a profile without a search) against tokens per request, per profile, on ${d.name}'s ${split}, with the context window](docs/img/recall-vs-tokens.png)`,
    '',
    `What \`backpack run\` gave on ${d.name}'s ${split} (${d.cases.toLocaleString('en-US')} cases, ${d.tools.toLocaleString('en-US')} tools; Backpack ${r.backpack.version}${r.backpack.gitSha ? ` at ${r.backpack.gitSha.slice(0, 7)}` : ''}):`,
    '',
    `| strategy | kind | ${metric} | no-tool FP | tokens / request | floor |`,
    '| --- | --- | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `${metric} is over the graded cases (\`visible\` for a profile without a search); the no-tool false-positive rate counts what retrieval added (a harness's own core tools count as pinned); tokens are o200k per request; a prompt over the context window shows the model nothing. The harness profiles run as shipped, without a floor; the retrievers and the seed's floored strategies calibrate theirs on the train split to a rate of 0.1 (\`auto\`; [docs/abstention.md](docs/abstention.md)). Which strategy leads, and by how much, is in the report, with 95% intervals.`,
    '',
    `<!-- readme-figures:end spec=${sha256(JSON.stringify(chartSpec(r)))} png=${sha256(png)} -->`,
  ];
  return lines.join('\n');
}

/** The README with its section replaced (an `Error` when the markers are missing). */
export function withSection(readme: string, section: string): string {
  const start = readme.indexOf(BEGIN);
  const end = END.exec(readme);
  if (start < 0 || !end || end.index < start) throw new Error('readme-figures: README.md has no readme-figures markers');
  return `${readme.slice(0, start)}${section}${readme.slice(end.index + end[0].length)}`;
}

/** The hashes the README's end marker records: of the chart spec and of the PNG. */
export function recordedHashes(readme: string): { spec: string; png: string } | undefined {
  const m = END.exec(readme);
  return m ? { spec: m[1]!, png: m[2]! } : undefined;
}

export function readKeptRun(): Results {
  return JSON.parse(readFileSync(KEPT_RUN, 'utf8')) as Results;
}

function main(argv: readonly string[]): number {
  let from: string | undefined;
  let check = false;
  readArguments('readme-figures', argv, '--from DIR, --check', (a, value) => {
    if (a === '--from') from = value();
    else if (a === '--check') check = true;
    else return false;
    return true;
  });
  if (from !== undefined) {
    const r = JSON.parse(readFileSync(join(from, 'results.json'), 'utf8')) as Results;
    mkdirSync(dirname(KEPT_RUN), { recursive: true });
    writeFileSync(KEPT_RUN, `${JSON.stringify(trimmed(r), null, 1)}\n`);
    console.log(`kept ${from}/results.json as ${KEPT_RUN}`);
  }
  const r = readKeptRun();
  const readme = readFileSync(README, 'utf8');
  if (check) {
    const png = readFileSync(CHART_PNG);
    const want = withSection(readme, readmeSection(r, png));
    const stale = want !== readme || recordedHashes(readme)?.png !== sha256(png);
    console.log(stale ? 'README figures are stale: run node --import tsx scripts/readme-figures.ts' : 'README figures match docs/readme-run/results.json');
    return stale ? 1 : 0;
  }
  const png = renderPng(chartSpec(r));
  writeFileSync(CHART_PNG, png);
  writeFileSync(README, withSection(readme, readmeSection(r, png)));
  console.log(`wrote ${CHART_PNG} and the README's figures`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
