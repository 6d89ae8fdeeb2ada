/**
 * The fuzz harness: runs the `backpack` command in-process (`main(argv, io)`, no process per case)
 * on a case folder and checks the three properties every bad input must keep:
 *
 *  - the exit code is 0 or 2 (or a verdict the command documents: 100 for a failed gate or a
 *    registry diff that needs review);
 *  - stderr carries no stack trace (no `    at …` line, no `backpack failed:`), and an exit 2 says
 *    what is wrong on an `error: …` line;
 *  - no partial output: after a failed command nothing new is left in the case folder, and no
 *    temporary (`*.tmp-<pid>`, `*.old-<pid>`) or lock file is left after any exit.
 *
 * Imports nothing from src/ statically: `loadMain` sets `BACKPACK_CACHE_DIR` to a fresh folder
 * first (the user's caches can be hundreds of MB, and loading them would cost more than the cases).
 */
import { accessSync, constants, type Dirent, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export type Main = (argv: string[], io: { out: (s: string) => void; err: (s: string) => void }) => Promise<number>;

/**
 * `main` from src/cli/main.ts, with Backpack's caches in a fresh temporary folder (removed by
 * `cleanup`). The variable is read when the modules load: it is put back at once, so no later test
 * file run by the same worker sees it.
 */
export async function loadMain(root: string): Promise<Main> {
  const cache = join(root, 'cache');
  mkdirSync(cache, { recursive: true });
  const before = process.env.BACKPACK_CACHE_DIR;
  process.env.BACKPACK_CACHE_DIR = cache;
  try {
    const mod = (await import('../../src/cli/main.ts')) as { main: Main };
    return mod.main;
  } finally {
    if (before === undefined) delete process.env.BACKPACK_CACHE_DIR;
    else process.env.BACKPACK_CACHE_DIR = before;
  }
}

/**
 * A fresh folder for a fuzz file's cases: in memory (/dev/shm) where there is one, since the cases
 * write and remove thousands of small files (ten times faster than a disk-backed /tmp here).
 */
export function freshRoot(prefix: string): string {
  const shm = '/dev/shm';
  let parent = tmpdir();
  try {
    if (statSync(shm).isDirectory()) {
      accessSync(shm, constants.W_OK);
      parent = shm;
    }
  } catch {
    // no /dev/shm: the system's temporary folder
  }
  return mkdtempSync(join(parent, `backpack-fuzz-${prefix}-`));
}

export function cleanup(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

export interface Outcome {
  code: number;
  out: string;
  err: string;
  /** What broke the properties; empty when the case passed. */
  problems: string[];
  ms: number;
}

/** Every path under `dir` (folders with a trailing `/`), relative to it. */
export function listTree(dir: string): Set<string> {
  const out = new Set<string>();
  const walk = (d: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (e.isDirectory()) {
        out.add(`${rel}/`);
        walk(p);
      } else out.add(rel);
    }
  };
  walk(dir);
  return out;
}

const STACK_LINE = /^\s+at .+/m;
const LEFTOVER = /(\.tmp-\d+|\.old-\d+|\.lock)(\/|$)/;

/**
 * Run `argv` with `dir` as the case folder (inputs and outputs inside it) and check the properties.
 * `verdicts`: exit codes besides 0 and 2 that the command documents as a verdict on good input.
 */
export async function runCase(main: Main, argv: string[], dir: string, verdicts: readonly number[] = []): Promise<Outcome> {
  const before = listTree(dir);
  let out = '';
  let err = '';
  let code: number;
  const t0 = performance.now();
  try {
    code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  } catch (e) {
    code = -1;
    err += `main threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`;
  }
  const ms = performance.now() - t0;
  const problems: string[] = [];
  if (code !== 0 && code !== 2 && !verdicts.includes(code)) problems.push(`exit ${code}`);
  if (STACK_LINE.test(err) || err.includes('backpack failed:')) problems.push('stack trace on stderr');
  if (code === 2 && !/^error: \S/m.test(err)) problems.push('exit 2 without an "error: …" line');
  const after = listTree(dir);
  const leftovers = [...after].filter((p) => LEFTOVER.test(p));
  if (leftovers.length) problems.push(`left behind: ${leftovers.slice(0, 3).join(', ')}`);
  if (code !== 0 && !verdicts.includes(code)) {
    const added = [...after].filter((p) => !before.has(p) && !LEFTOVER.test(p));
    if (added.length) problems.push(`partial output after exit ${code}: ${added.slice(0, 3).join(', ')}`);
  }
  return { code, out, err, problems, ms };
}

/** The first line of stderr that says what went wrong (for the summary). */
export function firstError(err: string): string {
  const lines = err.split('\n');
  return (
    lines.find((l) => l.startsWith('error:') || l.startsWith('backpack failed:') || l.startsWith('main threw:')) ??
    lines.find((l) => l.trim() !== '') ??
    ''
  ).slice(0, 300);
}
