/**
 * Plugins (`--plugin FILE|PACKAGE`, `plugins:` in the config file): the example plugin
 * (examples/plugins/name-boost.mjs) through eval, report, bless, gate and diff, on worker threads
 * too; what results record about it; and the plugins Backpack refuses, each with exit 2 naming it.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { retrieverNames } from '../src/retrievers/registry.ts';
import { reportFormats } from '../src/report/formats.ts';
import { detailLines, readResults, runCli, tempDir } from './helpers.ts';
import { calibratedEvalArgs } from './run-args.ts';

const EXAMPLE = fileURLToPath(new URL('../examples/plugins/name-boost.mjs', import.meta.url));
const tmp = tempDir('plugins');
const dataset = join(tmp, 'tiny');

function pluginFile(name: string, text: string): string {
  const file = join(tmp, 'broken', name);
  mkdirSync(join(tmp, 'broken'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

beforeAll(async () => {
  const r = await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', dataset);
  expect(r.code, r.err).toBe(0);
});

describe('the example plugin', () => {
  const out = join(tmp, 'eval');

  beforeAll(async () => {
    const r = await runCli('eval', '--dataset', dataset, '--plugin', EXAMPLE, '--retrievers', 'bm25,name-boost', '--out', out, '--quiet');
    expect(r.code, r.err).toBe(0);
  });

  it('registers its retriever for one command only, then is gone', () => {
    expect(retrieverNames()).not.toContain('name-boost');
    expect(reportFormats.has('recall-tsv')).toBe(false);
  });

  it('runs through eval: results record the plugin and the strategy’s origin', () => {
    const r = readResults(out);
    const sha = (r.config.plugins as Array<{ sha256: string }>)[0]!.sha256;
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    expect(r.config.plugins).toEqual([
      { name: 'name-boost', version: '1.0.0', sha256: sha, kind: 'file', registered: { retrievers: ['name-boost'], reportFormats: ['recall-tsv'] } },
    ]);
    expect(r.retrievers['name-boost'].config.origin).toEqual({ plugin: 'name-boost', version: '1.0.0', sha256: sha });
    expect(r.retrievers.bm25.config.origin).toBeUndefined();
    // it re-ranks bm25's candidates: the figures exist and differ from bm25's somewhere in the details
    expect(r.retrievers['name-boost'].metrics.overall['recall@10']).toBeGreaterThan(0);
    expect(detailLines(out, 'name-boost')).not.toEqual(detailLines(out, 'bm25'));
  });

  it('gives the same results on worker threads, which load the same module', async () => {
    const threaded = join(tmp, 'eval-workers');
    const r = await runCli(
      'eval',
      '--dataset',
      dataset,
      '--plugin',
      EXAMPLE,
      '--retrievers',
      'bm25,name-boost',
      '--workers',
      '2',
      '--out',
      threaded,
      '--quiet',
    );
    expect(r.code, r.err).toBe(0);
    expect(detailLines(threaded, 'name-boost')).toEqual(detailLines(out, 'name-boost'));
    expect(readResults(threaded).configHash).toBe(readResults(out).configHash);
  });

  it('takes a floor calibrated on its own scores (--floor auto on the train split)', async () => {
    const floored = join(tmp, 'eval-floor');
    const r = await runCli('eval', ...calibratedEvalArgs(dataset), '--plugin', EXAMPLE, '--retrievers', 'name-boost', '--out', floored, '--quiet');
    expect(r.code, r.err).toBe(0);
    const floor = readResults(floored).config.floors['name-boost'];
    expect(floor.mode).toBe('auto');
    expect(floor.value).toBeGreaterThan(0);
    // no ranked hit of a scored case is below it
    for (const line of detailLines(floored, 'name-boost')) for (const [, score] of JSON.parse(line).ranked) expect(score).toBeGreaterThanOrEqual(floor.value);
  });

  it('writes its report format through report', async () => {
    const r = await runCli('report', out, '--plugin', EXAMPLE, '--format', 'html,md,recall-tsv');
    expect(r.code, r.err).toBe(0);
    const tsv = readFileSync(join(out, 'report', 'recall.tsv'), 'utf8')
      .trim()
      .split('\n');
    expect(tsv[0]).toBe('strategy\trecall@1\trecall@3\trecall@5\trecall@10');
    const row = tsv.find((l) => l.startsWith('name-boost\t'))!.split('\t');
    expect(Number(row[4])).toBeCloseTo(readResults(out).retrievers['name-boost'].metrics.overall['recall@10'], 3);
    // the summary says where the strategy that is not built in came from
    const sha = readResults(out).config.plugins[0].sha256 as string;
    expect(readFileSync(join(out, 'report', 'summary.md'), 'utf8')).toContain(
      `**Not built in**: name-boost: plugin name-boost 1.0.0 \\(sha256 ${sha.slice(0, 12)}…\\).`, // parentheses escaped for Markdown
    );
    expect(readFileSync(join(out, 'report', 'report.html'), 'utf8')).toContain(`<li>name-boost: plugin name-boost 1.0.0 (sha256 ${sha.slice(0, 12)}…)</li>`);
    // without the plugin the format is unknown
    expect((await runCli('report', out, '--format', 'recall-tsv')).code).toBe(2);
  });

  it('is gated: bless records its origin, and the gate warns when the plugin changed', async () => {
    const expect_ = join(tmp, 'gate.yaml');
    const b = await runCli('bless', '--results', out, '--expect', expect_, '--reason', 'plugin figures');
    expect(b.code, b.err).toBe(0);
    const blessed = parseYaml(readFileSync(expect_, 'utf8'));
    expect(blessed.strategies['name-boost'].origin).toEqual(readResults(out).retrievers['name-boost'].config.origin);
    expect(blessed.strategies.bm25.origin).toBeUndefined();
    const same = await runCli('gate', '--expect', expect_, '--results', out);
    expect(same.code, same.err + same.out).toBe(0);
    expect(same.out + same.err).not.toContain('changed since its figures were blessed');
    // the same plugin, edited (one comment more): another sha256, the same figures
    const edited = join(tmp, 'edited', 'name-boost.mjs');
    mkdirSync(join(tmp, 'edited'), { recursive: true });
    writeFileSync(edited, `${readFileSync(EXAMPLE, 'utf8')}\n// edited\n`);
    const again = join(tmp, 'eval-edited');
    expect((await runCli('eval', '--dataset', dataset, '--plugin', edited, '--retrievers', 'bm25,name-boost', '--out', again, '--quiet')).code).toBe(0);
    const g = await runCli('gate', '--expect', expect_, '--results', again);
    expect(g.code, g.err + g.out).toBe(0);
    expect(g.out + g.err).toMatch(
      /strategy "name-boost" changed since its figures were blessed: plugin name-boost 1\.0\.0 \(sha256 [0-9a-f]{12}…\) then, plugin name-boost 1\.0\.0 \(sha256 [0-9a-f]{12}…\) now/,
    );
  });

  it('ranks through diff', async () => {
    const r = await runCli('diff', '--old', dataset, '--new', dataset, '--plugin', EXAMPLE, '--retriever', 'name-boost', '--quiet', '--json', '--no-cache');
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.retriever.name).toBe('name-boost');
    expect(report.retriever.config.origin).toEqual(readResults(join(tmp, 'eval')).retrievers['name-boost'].config.origin);
    // the same catalog on both sides: nothing moved, the plugin's ranking graded on both
    expect(report.moved).toEqual({ top1: 0, topK: 0 });
    expect(report.overall.new.top1).toBe(report.overall.old.top1);
    expect(report.overall.new.graded).toBeGreaterThan(0);
  });

  it('loads from the config file, relative to it, and from an installed package', async () => {
    const dir = join(tmp, 'project');
    mkdirSync(join(dir, 'plugins'), { recursive: true });
    cpSync(EXAMPLE, join(dir, 'plugins', 'name-boost.mjs'));
    writeFileSync(join(dir, 'backpack.config.yaml'), 'plugins: [./plugins/name-boost.mjs]\n');
    const viaConfig = await runCli('--config-file', join(dir, 'backpack.config.yaml'), 'list', '--json');
    expect(viaConfig.code, viaConfig.err).toBe(0);
    expect(JSON.parse(viaConfig.out).retrievers.map((r: { name: string }) => r.name)).toContain('name-boost');
    // a package in node_modules: its package.json names and versions it
    const pkg = join(dir, 'node_modules', 'backpack-plugin-boost');
    mkdirSync(pkg, { recursive: true });
    cpSync(EXAMPLE, join(pkg, 'main.mjs'));
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'backpack-plugin-boost', version: '2.3.4', type: 'module', exports: { '.': { import: './main.mjs' } } }),
    );
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const r = await runCli(
        '--no-config-file',
        'eval',
        '--dataset',
        dataset,
        '--plugin',
        'backpack-plugin-boost',
        '--retrievers',
        'name-boost',
        '--out',
        join(dir, 'r'),
        '--quiet',
      );
      expect(r.code, r.err).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    const rec = readResults(join(dir, 'r')).config.plugins[0];
    expect([rec.name, rec.version, rec.kind]).toEqual(['backpack-plugin-boost', '2.3.4', 'package']);
  });
});

describe('plugins Backpack refuses (exit 2, the plugin named, nothing written)', () => {
  const cases: Array<[string, () => string, RegExp]> = [
    ['a file that does not exist', () => join(tmp, 'nope.mjs'), /plugin .*nope\.mjs: no such file/],
    ['a package that is not installed', () => 'backpack-plugin-not-installed', /plugin backpack-plugin-not-installed: no such file, and no package/],
    [
      'a module that does not parse',
      () => pluginFile('syntax.mjs', 'export default function (b) { b.registerRetriever(\n'),
      /plugin .*syntax\.mjs: could not load/,
    ],
    [
      'a module that throws on import',
      () => pluginFile('throws.mjs', 'throw new Error("boom at import");\n'),
      /plugin .*throws\.mjs: could not load .*boom at import/,
    ],
    ['no register function', () => pluginFile('none.mjs', 'export const x = 1;\n'), /plugin .*none\.mjs: exports no register function/],
    ['registers nothing', () => pluginFile('empty.mjs', 'export default function () {}\n'), /plugin .*empty\.mjs: registers nothing/],
    [
      'a name a built-in has',
      () => pluginFile('clash.mjs', "export default (b) => b.registerRetriever('bm25', { description: 'x', create: () => ({}) });\n"),
      /plugin .*clash\.mjs: cannot register retriever "bm25": retriever "bm25" is already registered/,
    ],
    [
      'a profile named like a retriever',
      () => pluginFile('clash2.mjs', "export default (b) => b.registerProfile('embed', { description: 'x', create: () => ({}) });\n"),
      /plugin .*clash2\.mjs: cannot register profile "embed"/,
    ],
    [
      'a malformed retriever',
      () => pluginFile('shape.mjs', "export default (b) => b.registerRetriever('shapeless', { create: 1 });\n"),
      /plugin .*shape\.mjs: cannot register retriever "shapeless": a retriever is \{ description: string, create/,
    ],
    [
      'a register function that throws',
      () => pluginFile('fails.mjs', "export default () => { throw new Error('no licence'); };\n"),
      /plugin .*fails\.mjs: failed while registering: no licence/,
    ],
  ];
  for (const [what, file, message] of cases) {
    it(what, async () => {
      const out = join(tmp, `refused-${what.replace(/\W+/g, '-')}`);
      const r = await runCli('eval', '--dataset', dataset, '--plugin', file(), '--out', out, '--quiet');
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(existsSync(out)).toBe(false);
      expect(retrieverNames()).not.toContain('shapeless');
    });
  }

  it('the same plugin given twice', async () => {
    const r = await runCli('list', '--plugin', EXAMPLE, '--plugin', EXAMPLE);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/plugin .*name-boost\.mjs is given twice/);
  });

  it('a second plugin registering a name the first took: nothing of either stays', async () => {
    const twin = pluginFile('twin.mjs', readFileSync(EXAMPLE, 'utf8'));
    const r = await runCli('list', '--plugin', EXAMPLE, '--plugin', twin);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/plugin .*twin\.mjs: cannot register retriever "name-boost": retriever "name-boost" is already registered/);
    expect(retrieverNames()).not.toContain('name-boost');
  });
});
