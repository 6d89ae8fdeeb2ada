/**
 * Rough edges a new user meets first (issue 32, item 7). What depends on the working folder runs as
 * the user runs it, the `backpack` program in a fresh working folder; messages that do not are
 * checked in-process (`runCli`, the `main` that bin/backpack.js calls), without starting a process each.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { BACKPACK_BIN, runCli, tempDir } from './helpers.ts';

const tmp = tempDir('rough-edges');
const backpack = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BACKPACK_BIN, ...args], { cwd, encoding: 'utf8' });

describe('rough edges', () => {
  it('generate without --out writes datasets/<preset>-<seed>/ in the working folder, as the docs say', () => {
    const cwd = join(tmp, 'work');
    mkdirSync(cwd, { recursive: true });
    const r = backpack(cwd, 'generate', '--preset', 'tiny', '--seed', '3', '--quiet');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote datasets\/tiny-3: /);
    expect(existsSync(join(cwd, 'datasets', 'tiny-3', 'manifest.json'))).toBe(true);
  });

  it('a catalog file given where a dataset is expected says to use --catalog (exit 2)', async () => {
    const file = join(PACKAGE_ROOT, 'fixtures', 'catalogs', 'mcp-real-bundle.json');
    for (const args of [
      ['inspect', file],
      ['eval', '--dataset', file],
    ]) {
      const r = await runCli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(
        `"${file}" is a file, not a dataset folder: for a catalog file (MCP tools/list, OpenAI or Anthropic tools, a bundle…) use --catalog ${file}`,
      );
    }
    const cases = await runCli('inspect', join(PACKAGE_ROOT, 'fixtures', 'cases', 'cases.csv'));
    expect(cases.code).toBe(2);
    expect(cases.err).toContain('(a cases file goes with --cases)');
  });
});

describe('help text', () => {
  it('wraps every line of every command help at 100 characters (the lists of strategies and formats included)', async () => {
    const commands = ['', 'run', 'eval', 'report', 'gate', 'bless', 'diff', 'snapshot', 'import', 'audit', 'generate', 'inspect', 'list', 'merge', 'history'];
    for (const c of commands) {
      const r = await runCli(...(c ? [c] : []), '--help');
      const text = r.out + r.err;
      expect(text.length, c).toBeGreaterThan(100);
      const long = text.split('\n').filter((l) => l.length > 100);
      expect(long, `backpack ${c} --help`).toEqual([]);
    }
    // the strategy lists are all there, wrapped, not cut
    const { out } = await runCli('eval', '--help');
    expect(out).toMatch(/\n {2}bm25-plain {9}textbook BM25 baseline/);
    expect(out.replace(/\s+/g, ' ')).toContain('a floor is on this scale');
  });
});

describe('colours across reports', () => {
  it("the names that own a colour in every report are the main job's strategies", async () => {
    const { FIXED_STYLE_NAMES } = await import('../src/report/colours.ts');
    const { DEFAULT_PROFILES, DEFAULT_RETRIEVERS } = await import('../src/cli/run-command.ts');
    expect(FIXED_STYLE_NAMES).toEqual([...DEFAULT_RETRIEVERS, ...DEFAULT_PROFILES]);
  });
});
