/**
 * Output paths stay put (issue 34, point 2): a name from a manifest becomes a plain folder name; no
 * command writes into the file system's root, a folder holding the working folder, a folder it did
 * not write, or one of its own inputs. Commands run as a user runs them, in a working folder of
 * their own (`backpack` in a process), where the working folder matters; in-process otherwise.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { safeFolderName } from '../src/util/output-path.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { BACKPACK_BIN, runCli, tempDir } from './helpers.ts';

const tmp = tempDir('output-paths');
const beir = join(PACKAGE_ROOT, 'fixtures', 'beir-mini');
const backpack = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BACKPACK_BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
const results = join(tmp, 'results');

beforeAll(async () => {
  const r = await runCli('eval', '--dataset', beir, '--retrievers', 'bm25', '--out', results, '--quiet');
  expect(r.code, r.err).toBe(0);
});

describe('output paths', () => {
  it('safeFolderName: separators, dot-dot, leading dots and unsafe characters go; a plain name is kept', () => {
    expect(safeFolderName('monster-7')).toBe('monster-7');
    expect(safeFolderName('../../etc')).toBe('etc');
    expect(safeFolderName('/abs/path')).toBe('abs-path');
    expect(safeFolderName('..')).toBe('dataset');
    expect(safeFolderName('.hidden')).toBe('hidden');
    expect(safeFolderName('tiny <script>')).toBe('tiny-script');
    expect(safeFolderName('q\u202Eevil')).toBe('q-evil');
    expect(safeFolderName('x'.repeat(150))).toHaveLength(100);
  });

  it("eval without --out writes reports/<the manifest's name as a plain folder name>, inside the working folder", () => {
    const cwd = join(tmp, 'work', 'deep');
    mkdirSync(cwd, { recursive: true });
    const g = generate(resolveParams('tiny', 3));
    writeDataset(join(cwd, 'data'), g.dataset, { ...g.manifest, name: '../../escaped' });
    const r = backpack(cwd, 'eval', '--dataset', 'data', '--retrievers', 'bm25', '--quiet');
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(cwd, 'reports', 'escaped', 'results.json'))).toBe(true);
    // where reports/../../escaped would have gone
    expect(existsSync(join(tmp, 'work', 'escaped'))).toBe(false);
  });

  it('report refuses the root, a folder holding the working folder, a folder it did not write, and the results folder or its own folders', async () => {
    const foreign = join(tmp, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'summary.md'), 'mine\n');
    for (const [out, message] of [
      ['/', 'is the root of the file system'],
      [join(tmp, '..'), 'holds the working folder'],
      [foreign, 'does not hold a Backpack report'],
      [results, 'is the results folder the report reads'],
      [join(results, 'details'), 'inside the results folder'],
    ] as const) {
      // the working folder of the in-process CLI is the checkout, inside tmp's parent only by chance: run in tmp
      const r = out === join(tmp, '..') ? backpack(tmp, 'report', results, '--out', out) : await runCli('report', results, '--out', out);
      const err = 'err' in r ? r.err : r.stderr;
      const code = 'code' in r ? r.code : r.status;
      expect(code, `${out}: ${err}`).toBe(2);
      expect(err, out).toContain(message);
    }
    expect(readFileSync(join(foreign, 'summary.md'), 'utf8')).toBe('mine\n');
    expect(readdirSync(join(results, 'details')).some((n) => n.endsWith('.md') || n.endsWith('.html'))).toBe(false);
    // the default folder, written twice (the second time into the marked folder), and a report of an earlier version (no marker)
    expect((await runCli('report', results, '--format', 'md')).code).toBe(0);
    expect(readdirSync(join(results, 'report'))).toContain('.backpack-report');
    expect((await runCli('report', results, '--format', 'md,html')).code).toBe(0);
    const old = join(tmp, 'old-report');
    cpSync(join(results, 'report'), old, { recursive: true });
    rmSync(join(old, '.backpack-report'));
    expect((await runCli('report', results, '--out', old, '--format', 'md')).code).toBe(0);
  });

  it('merge refuses to write over one of its shards, or a folder holding them; eval over the dataset it reads', async () => {
    const shards = join(tmp, 'shards');
    for (const i of [1, 2])
      expect((await runCli('eval', '--dataset', beir, '--retrievers', 'bm25', '--shard', `${i}/2`, '--out', join(shards, `s${i}`), '--quiet')).code).toBe(0);
    const before = readFileSync(join(shards, 's1', 'results.json'));
    for (const [out, message] of [
      [join(shards, 's1'), 'is one of this command’s inputs'],
      [shards, 'holds this command’s input'],
    ] as const) {
      const r = await runCli('merge', join(shards, 's1'), join(shards, 's2'), '--out', out);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(message);
    }
    expect(readFileSync(join(shards, 's1', 'results.json'))).toEqual(before);
    const data = join(tmp, 'data-copy');
    cpSync(beir, data, { recursive: true });
    const e = await runCli('eval', '--dataset', data, '--retrievers', 'bm25', '--out', join(data, 'results'), '--quiet');
    expect(e.code, e.err).toBe(2);
    expect(e.err).toContain('inside this command’s input');
  });
});

describe('history charts', () => {
  it('history show --out refuses a folder it did not write, the root, and a folder holding the working folder; rewrites its own', async () => {
    const db = join(tmp, 'h.sqlite');
    expect((await runCli('history', 'add', results, '--db', db, '--label', 'one')).code).toBe(0);
    const charts = join(tmp, 'charts');
    expect((await runCli('history', 'show', '--db', db, '--out', charts)).code).toBe(0);
    expect((await runCli('history', 'show', '--db', db, '--out', charts)).code).toBe(0);
    const foreign = join(tmp, 'someone');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'index.md'), '# my notes\n');
    for (const [out, message] of [
      [foreign, 'does not hold history charts'],
      ['/', 'is the root of the file system'],
    ] as const) {
      const r = await runCli('history', 'show', '--db', db, '--out', out);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(message);
    }
    expect(readFileSync(join(foreign, 'index.md'), 'utf8')).toBe('# my notes\n');
  });
});
