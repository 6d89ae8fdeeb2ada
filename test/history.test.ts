/**
 * `backpack history add` and `show` end to end: three small results folders (one evaluation of the
 * tiny generated company, copied with edited figures), recorded into a SQLite file, read back with
 * sql.js directly and through the command.
 */
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { HISTORY_TABLES } from '../src/history/store.ts';
import { sparkline } from '../src/history/show.ts';
import { FIXED_STYLE_NAMES, STRATEGY_PALETTE } from '../src/report/colours.ts';
import { runCli, tempDir } from './helpers.ts';

const require = createRequire(import.meta.url);

interface Db {
  exec(sql: string, params?: unknown[]): Array<{ columns: string[]; values: unknown[][] }>;
  close(): void;
}

/** The database file opened with sql.js itself (not through Backpack's store). */
async function openDb(file: string): Promise<Db> {
  const init = require('sql.js') as (c: { wasmBinary: Uint8Array }) => Promise<{ Database: new (b: Uint8Array) => Db }>;
  const SQL = await init({ wasmBinary: new Uint8Array(readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'))) });
  return new SQL.Database(new Uint8Array(readFileSync(file)));
}

function rows(db: Db, sql: string, params: unknown[] = []): Array<Record<string, unknown>> {
  const r = db.exec(sql, params)[0];
  return r ? r.values.map((v) => Object.fromEntries(r.columns.map((c, i) => [c, v[i]]))) : [];
}

type Json = Record<string, any>;
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

const tmp = tempDir('history');
const data = join(tmp, 'data');
const runs = [join(tmp, 'r1'), join(tmp, 'r2'), join(tmp, 'r3')];
/** recall@5 of bm25 in the three runs: ▁ █ ▄ in a sparkline. */
const RECALL5 = [0.3, 0.9, 0.55];
const OTHER_CATALOG = 'a'.repeat(64);

/** Edit a copy's results.json: bm25's recall@5 (and its interval), the start time, the catalog. */
function edit(dir: string, i: number): void {
  const file = join(dir, 'results.json');
  const r = readJson(file);
  r.retrievers.bm25.metrics.overall['recall@5'] = RECALL5[i];
  r.retrievers.bm25.metrics.ci95.overall['recall@5'] = [RECALL5[i]! - 0.05, RECALL5[i]! + 0.05];
  r.timings.startedAt = `2026-01-0${i + 1}T00:00:00.000Z`;
  if (i === 1) r.dataset.catalogSha256 = OTHER_CATALOG; // a registry change, blessed below
  writeFileSync(file, JSON.stringify(r));
  // figures edited by hand: the case and tool records go, so only the rates are checked (with them,
  // a folder whose details do not give its figures is refused)
  rmSync(join(dir, 'cases.jsonl'));
  rmSync(join(dir, 'tools.jsonl'));
}

beforeAll(async () => {
  expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', data, '--quiet')).code).toBe(0);
  expect((await runCli('eval', '--dataset', data, '--retrievers', 'bm25', '--out', runs[0]!, '--quiet')).code).toBe(0);
  cpSync(runs[0]!, runs[1]!, { recursive: true });
  cpSync(runs[0]!, runs[2]!, { recursive: true });
  runs.forEach(edit);
});

describe('backpack history', () => {
  it('records every overall figure, hand-checked against results.json, in the documented tables', async () => {
    const db = join(tmp, 'all.sqlite');
    const add = await runCli('history', 'add', runs[0]!, '--label', 'v1', '--db', db);
    expect(add.err).toBe('');
    expect(add.code).toBe(0);
    expect(add.out).toMatch(/^recorded run "v1" in .*all\.sqlite: \d+ figures of 1 strategy; 1 run recorded\n$/);
    const r = readJson(join(runs[0]!, 'results.json'));
    const sql = await openDb(db);
    try {
      for (const [table, columns] of Object.entries(HISTORY_TABLES)) expect(rows(sql, `PRAGMA table_info(${table})`).map((c) => c.name)).toEqual(columns);
      expect(rows(sql, 'SELECT key, value FROM meta ORDER BY key')).toEqual([
        { key: 'application', value: 'backpack history' },
        { key: 'schema_version', value: '1' },
      ]);
      const run = rows(sql, 'SELECT * FROM runs')[0]!;
      expect(run).toMatchObject({
        label: 'v1',
        recorded_at: r.timings.startedAt,
        dataset: r.dataset.name,
        catalog_sha256: r.dataset.catalogSha256,
        cases_sha256: r.dataset.casesSha256,
        config_hash: r.configHash,
        backpack_version: r.backpack.version,
        blessed: 0,
        bless_reason: null,
      });
      const figures = rows(sql, 'SELECT strategy, figure, value, ci_low, ci_high FROM figures ORDER BY figure');
      const overall = r.retrievers.bm25.metrics.overall as Record<string, number>;
      const ci = r.retrievers.bm25.metrics.ci95.overall as Record<string, [number, number]>;
      expect(figures.map((f) => f.figure)).toEqual(Object.keys(overall).sort());
      for (const f of figures) {
        expect(f.strategy).toBe('bm25');
        expect(f.value).toBe(overall[f.figure as string]);
        expect([f.ci_low, f.ci_high]).toEqual(ci[f.figure as string] ?? [null, null]);
      }
      expect(figures.find((f) => f.figure === 'recall@5')).toMatchObject({ value: 0.3, ci_low: 0.3 - 0.05, ci_high: 0.3 + 0.05 });
    } finally {
      sql.close();
    }
  });

  it('draws three runs with the blessed change marked, as text, deterministic JSON and PNG charts', async () => {
    const db = join(tmp, 'gated.sqlite');
    const gate = join(tmp, 'gate.yaml');
    expect((await runCli('bless', '--results', runs[1]!, '--expect', gate, '--reason', 'new <b>search</b> tool | on purpose')).code).toBe(0);
    for (const [i, dir] of runs.entries()) {
      const add = await runCli('history', 'add', dir, '--label', i === 1 ? 'v2 [x](y)' : `v${i + 1}`, '--db', db, '--expect', gate);
      expect(add.code, add.err).toBe(0);
    }
    const pinned = Object.keys((await import('yaml')).parse(readFileSync(gate, 'utf8')).strategies.bm25.figures);
    const sql = await openDb(db);
    try {
      expect(rows(sql, 'SELECT label, blessed, bless_reason FROM runs ORDER BY id')).toEqual([
        { label: 'v1', blessed: 0, bless_reason: null },
        { label: 'v2 [x](y)', blessed: 1, bless_reason: 'new <b>search</b> tool | on purpose' },
        { label: 'v3', blessed: 0, bless_reason: null },
      ]);
      const recorded = rows(sql, "SELECT figure FROM figures JOIN runs ON runs.id = run_id WHERE label = 'v1' ORDER BY figures.rowid").map((f) => f.figure);
      expect(recorded).toEqual(pinned);
    } finally {
      sql.close();
    }

    const show = await runCli('history', 'show', '--db', db, '--strategy', 'bm25', '--figure', 'recall@5');
    expect(show.code, show.err).toBe(0);
    expect(sparkline(RECALL5)).toBe('▁█▄');
    const lines = show.out.split('\n');
    expect(lines[0]).toBe('bm25 · recall@5  ▁█▄  (3 runs)');
    expect(lines[2]).toMatch(/^ {2}v1 +0\.3000 +\[0\.2500, 0\.3500\]$/);
    expect(lines[3]).toMatch(/^ {2}v2 \[x\]\(y\) \* +0\.9000 +\[0\.8500, 0\.9500\] +\+0\.6000$/);
    expect(lines[4]).toMatch(/^ {2}v3 +0\.5500 +\[0\.5000, 0\.6000\] +−0\.3500$/);
    expect(show.out).toContain('* blessed (accepted on purpose):\n    v2 [x](y): ');
    expect(show.out).toContain('new <b>search</b> tool | on purpose');

    const json1 = await runCli('history', 'show', '--db', db, '--json');
    const json2 = await runCli('history', 'show', '--db', db, '--json');
    expect(json1.code).toBe(0);
    expect(json1.out).toBe(json2.out);
    const parsed = JSON.parse(json1.out) as Json;
    expect(parsed.runs.map((r: Json) => r.label)).toEqual(['v1', 'v2 [x](y)', 'v3']);
    const series = parsed.series.find((s: Json) => s.figure === 'recall@5');
    expect(series.points.map((p: Json) => p.value)).toEqual(RECALL5);
    expect(series.points.map((p: Json) => p.blessed)).toEqual([false, true, false]);

    const out = join(tmp, 'charts');
    const drawn = await runCli('history', 'show', '--db', db, '--figure', 'recall@5', '--out', out);
    expect(drawn.code, drawn.err).toBe(0);
    // one chart per figure, every strategy in its report colour: here one figure, so one PNG and the index
    expect(drawn.err).toContain('wrote 1 chart and');
    expect(readdirSync(out).sort()).toEqual(['index.md', 'recall_5.png']);
    const png = readFileSync(join(out, 'recall_5.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1600, 900]);
    const index = readFileSync(join(out, 'index.md'), 'utf8');
    expect(index).toContain('| bm25 | recall@5 | 3 | ▁█▄ | 0.5500 | −0.3500 | [recall_5.png](recall_5.png) |');
    expect(index).toContain('- v2 \\[x\\]\\(y\\): ');
    expect(index).toContain('new &lt;b&gt;search&lt;/b&gt; tool \\| on purpose');
    expect(index).not.toContain('<b>');
  });

  it('is drawn in the report (report --history): the headline of each strategy over the runs, the blessed run marked, labels escaped', async () => {
    const db = join(tmp, 'gated.sqlite'); // recorded by the test above: v1, "v2 [x](y)" (blessed), v3
    const out = join(tmp, 'with-history');
    const r = await runCli('report', runs[2]!, '--history', db, '--format', 'html', '--out', out);
    expect(r.code, r.err).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<section id="history">');
    const block = /<script type="application\/json" data-chart="chart-history-recall_5"[^>]*>(.*?)<\/script>/.exec(html);
    expect(block).not.toBeNull();
    const config = JSON.parse(
      block![1]!
        .replace(/\\u003c/g, '<')
        .replace(/\\u003e/g, '>')
        .replace(/\\u0026/g, '&'),
    ) as Json;
    expect(config.data.labels).toEqual(['v1', 'v2 [x](y)', 'v3']);
    const bm25 = config.data.datasets.find((d: Json) => d.strategy === 'bm25');
    expect(bm25.data).toEqual(RECALL5);
    expect(bm25.pointStyle).toEqual(['circle', 'rectRot', 'circle']);
    // the strategy's report colour (the main job's bm25 owns the first), each run's recorded interval as a whisker
    expect(bm25.borderColor).toBe(STRATEGY_PALETTE[FIXED_STYLE_NAMES.indexOf('bm25')]);
    const bars = bm25.errorBars as Array<[number, number]>;
    expect(bars).toHaveLength(3);
    bars.forEach(([lo, hi], i) => {
      expect(lo).toBeCloseTo(RECALL5[i]! - 0.05, 9);
      expect(hi).toBeCloseTo(RECALL5[i]! + 0.05, 9);
    });
    expect(html).not.toContain('<b>search</b>');
    expect(html).toContain('new &lt;b&gt;search&lt;/b&gt; tool');
    expect((await runCli('report', runs[2]!, '--history', join(tmp, 'none.sqlite'), '--format', 'html', '--out', out)).code).toBe(2);
  });

  it('refuses a label already recorded (exit 2) unless --replace', async () => {
    const db = join(tmp, 'replace.sqlite');
    expect((await runCli('history', 'add', runs[0]!, '--label', 'same', '--db', db)).code).toBe(0);
    const again = await runCli('history', 'add', runs[1]!, '--label', 'same', '--db', db);
    expect(again.code).toBe(2);
    expect(again.err).toContain('replace.sqlite: already has a run labelled "same"');
    const replaced = await runCli('history', 'add', runs[1]!, '--label', 'same', '--db', db, '--replace');
    expect(replaced.code, replaced.err).toBe(0);
    expect(replaced.out).toMatch(/^replaced run "same" .*; 1 run recorded\n$/);
    const json = JSON.parse((await runCli('history', 'show', '--db', db, '--json', '--figure', 'recall@5')).out) as Json;
    expect(json.series[0].points).toEqual([{ label: 'same', value: 0.9, ciLow: 0.9 - 0.05, ciHigh: 0.9 + 0.05, change: null, blessed: false }]);
  });

  it('refuses a file that is not a SQLite database, or one of another schema, naming it (exit 2)', async () => {
    const text = join(tmp, 'notes.sqlite');
    writeFileSync(text, 'not a database at all, but long enough to have a header of a hundred bytes...........................\n');
    for (const argv of [
      ['history', 'add', runs[0]!, '--label', 'x', '--db', text],
      ['history', 'show', '--db', text],
    ]) {
      const r = await runCli(...argv);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^error: .*notes\.sqlite: is not a SQLite database/);
    }
    const init = require('sql.js') as (c: { wasmBinary: Uint8Array }) => Promise<{ Database: new () => Db & { run(s: string): void; export(): Uint8Array } }>;
    const SQL = await init({ wasmBinary: new Uint8Array(readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'))) });
    const other = new SQL.Database();
    other.run('CREATE TABLE songs (title TEXT)');
    const otherFile = join(tmp, 'songs.sqlite');
    writeFileSync(otherFile, other.export());
    other.close();
    const r = await runCli('history', 'add', runs[0]!, '--label', 'x', '--db', otherFile);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/songs\.sqlite: is a SQLite database with another schema/);
    const missing = await runCli('history', 'show', '--db', join(tmp, 'nowhere.sqlite'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nowhere.sqlite: no such history database');
  });

  it('loses no run when writers add at once (in-process and two processes)', async () => {
    const db = join(tmp, 'busy.sqlite');
    const both = await Promise.all([
      runCli('history', 'add', runs[0]!, '--label', 'a', '--db', db),
      runCli('history', 'add', runs[1]!, '--label', 'b', '--db', db),
    ]);
    expect(both.map((r) => r.code)).toEqual([0, 0]);
    const writer = join(PACKAGE_ROOT, 'test', 'history-writer.ts');
    const child = (prefix: string) =>
      new Promise<number>((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', writer, db, runs[2]!, prefix, '8'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        p.stderr.on('data', (d: Buffer) => void (err += d.toString()));
        p.on('error', reject);
        p.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(`writer ${prefix} exited ${code}: ${err}`))));
      });
    await Promise.all([child('p'), child('q')]);
    const sql = await openDb(db);
    try {
      const labels = rows(sql, 'SELECT label FROM runs ORDER BY label').map((r) => r.label);
      expect(labels).toEqual(['a', 'b', ...Array.from({ length: 8 }, (_, i) => `p-${i}`), ...Array.from({ length: 8 }, (_, i) => `q-${i}`)]);
    } finally {
      sql.close();
    }
  });
});

describe('backpack history with a config file', () => {
  it('reads the options of "history add" and "history show" from their own sections', async () => {
    const dir = tempDir('history-config');
    const db = join(dir, 'from-file.sqlite');
    const config = join(dir, 'backpack.config.yaml');
    writeFileSync(config, `"history add":\n  db: from-file.sqlite\n  label: from-file\n"history show":\n  db: from-file.sqlite\n  figure: recall@5\n`);
    const add = await runCli('--config-file', config, 'history', 'add', runs[0]!);
    expect(add.code, add.err).toBe(0);
    expect(add.out).toMatch(/^recorded run "from-file" in .*from-file\.sqlite/);
    const show = await runCli('--config-file', config, 'history', 'show', '--json');
    expect(show.code, show.err).toBe(0);
    expect((JSON.parse(show.out) as Json).series.map((s: Json) => s.figure)).toEqual(['recall@5']);
    expect(readFileSync(db).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
  });
});
