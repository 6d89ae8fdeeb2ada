import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder Backpack is installed in (the package root). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The folder of Backpack's caches (vectors, models, token counts, rankings): `BACKPACK_CACHE_DIR`
 * when set (to persist it between CI runs, or to measure a cold run), else `.cache` in the package.
 */
export const CACHE_ROOT = process.env.BACKPACK_CACHE_DIR ? resolve(process.env.BACKPACK_CACHE_DIR) : join(PACKAGE_ROOT, '.cache');

/** Backpack's version, from package.json (the one place it is written). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let sha: string | null | undefined;

/** The git commit Backpack runs from, or null outside a git checkout. */
export function gitSha(): string | null {
  if (sha === undefined) {
    try {
      sha = execFileSync('git', ['-C', PACKAGE_ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
    } catch {
      sha = null;
    }
  }
  return sha;
}
