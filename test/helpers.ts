/** Shared test helpers: the fixtures folder, temporary folders cleaned up after a file's tests, and catching InputErrors. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { InputError } from '../src/util/errors.ts';
import { catalogHash } from '../src/catalog/manifest.ts';
import type { EvalInput } from '../src/eval/input.ts';
import { generate, resolveParams } from '../src/generate/index.ts';

/** The charts of a full run (every section present), in report order: the ids `chartsOf` gives and the PNG file names. */
export const FULL_RUN_CHART_IDS: readonly string[] = [
  'recall-at-k',
  'operating-curve',
  'operating-curve-profiles',
  'recall-vs-tokens',
  'recall-vs-calls',
  'slices',
  'token-table',
  'skills',
  'sessions',
];

/**
 * The `backpack` program to start as a process: this checkout compiled once per test run
 * (test/global-setup.ts, test/compiled-bin.ts), or the checkout's `bin/backpack.js` (which runs the
 * sources through tsx) where no test run set it up.
 */
export const BACKPACK_BIN: string = process.env.BACKPACK_TEST_BIN ?? fileURLToPath(new URL('../bin/backpack.js', import.meta.url));

/** Absolute path of `fixtures/` (with a trailing slash). */
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Folders `tempDir` made by the running test file, removed after its tests. */
const made: string[] = [];

/**
 * Remove the folders `tempDir` made. Called after every test file's tests by test/setup.ts (a
 * setup file runs for each test file, also where files share loaded modules, as this module is).
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary folder, removed after the calling test file's tests (made at file level or inside a test). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `backpack-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Writes `value` to `file` as JSON; returns `file`. */
export function writeJsonFile(file: string, value: unknown): string {
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** The InputError `fn` throws; fails the test if it throws anything else or nothing. */
export function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

/** The tiny generated company (seed 5) as an evaluation input, the way several tests evaluate it. */
export function tinyInput(seed = 5): { g: ReturnType<typeof generate>; input: EvalInput } {
  const g = generate(resolveParams('tiny', seed));
  return {
    g,
    input: {
      name: `tiny-${seed}`,
      source: { kind: 'dataset', ref: `tiny-${seed}`, split: null },
      catalog: g.dataset.catalog,
      cases: g.dataset.cases,
      catalogSha256: catalogHash(g.dataset.catalog),
    },
  };
}

/** Run the `backpack` command line in-process (as `bin/backpack.js` does), capturing what it prints. */
export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  // imported on first use: a test may set BACKPACK_CACHE_DIR before the CLI (and its cache root) loads
  const { main } = await import('../src/cli/main.ts');
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

/** A results folder's `results.json`, parsed. */
export function readResults(dir: string): any {
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
}

/** A strategy's details lines without their timings (`ms`): what two runs of the same input must agree on. */
export function detailLines(dir: string, strategy: string): string[] {
  return readFileSync(join(dir, 'details', `${strategy}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { ms: _ms, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
}
