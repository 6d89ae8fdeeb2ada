import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder Backpack is installed in (the package root). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The user's cache folder for Backpack on this platform: `$XDG_CACHE_HOME/backpack` or
 * `~/.cache/backpack` (Linux and other Unix), `~/Library/Caches/backpack` (macOS),
 * `%LOCALAPPDATA%\\backpack\\Cache` (Windows). Never inside the package, which may be read-only or
 * shared (a global install, node_modules).
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'backpack', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'backpack');
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored.
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'backpack');
}

/**
 * The folder of Backpack's caches (vectors, models, token counts, rankings): `BACKPACK_CACHE_DIR`
 * when set (to persist it between CI runs, or to measure a cold run), else {@link userCacheDir}.
 */
export const CACHE_ROOT = process.env.BACKPACK_CACHE_DIR ? resolve(process.env.BACKPACK_CACHE_DIR) : userCacheDir();

/** Backpack's version, from package.json (the one place it is written). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let sha: string | null | undefined;

/**
 * The git commit Backpack runs from, or null outside a git checkout of Backpack (an installed
 * package has no `.git`: the commit of a project it is installed in is not Backpack's).
 */
export function gitSha(): string | null {
  if (sha === undefined) {
    try {
      if (!existsSync(join(PACKAGE_ROOT, '.git'))) throw new Error('not a git checkout');
      sha = execFileSync('git', ['-C', PACKAGE_ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
    } catch {
      sha = null;
    }
  }
  return sha;
}
