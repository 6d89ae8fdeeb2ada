/**
 * Swapping a folder into place so that a reader (or a process killed half way) only ever finds the
 * previous complete folder or the new complete one: write the new one beside it (`<dir>.tmp-<pid>`),
 * then `replaceDir`. `recoverInterrupted` tidies what a killed swap left: a `.tmp-<pid>` folder of
 * a process that is gone, and a `.old-<pid>` folder it had not yet swapped back.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makeDirs } from './atomic-write.ts';
import { failpoint } from './failpoint.ts';
import { processAlive } from './file-lock.ts';

/** The temporary sibling a new `dir` is written into before the swap. */
export function tempFolder(dir: string): string {
  return `${dir}.tmp-${process.pid}`;
}

/** Put back what an interrupted swap of `target` left beside it (see the module comment). */
export function recoverInterrupted(target: string): void {
  const parent = dirname(target);
  if (!existsSync(parent)) return;
  const base = basename(target);
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(`${base}.`)) continue;
    const m = /^\.(tmp|old)-(\d+)$/.exec(name.slice(base.length));
    if (!m || Number(m[2]) === process.pid || processAlive(Number(m[2]))) continue;
    const p = join(parent, name);
    if (m[1] === 'old' && !existsSync(target)) renameSync(p, target);
    else rmSync(p, { recursive: true, force: true });
  }
}

/** Move `from` into place at `to`, removing what was at `to` only once the new folder is there. */
export function replaceDir(from: string, to: string): void {
  makeDirs(dirname(to));
  if (existsSync(to)) {
    const old = `${to}.old-${process.pid}`;
    rmSync(old, { recursive: true, force: true });
    renameSync(to, old);
    failpoint('swap');
    renameSync(from, to);
    rmSync(old, { recursive: true, force: true });
  } else {
    renameSync(from, to);
  }
}

/**
 * Write the folder `dir` whole: `fill` writes its files into a temporary sibling, which then
 * replaces `dir` (`replaceDir`). When `fill` or the swap fails, the sibling is removed and `dir`
 * is left as it was.
 */
export function writeFolderWhole<T>(dir: string, fill: (tmp: string) => T): T {
  const tmp = tempFolder(dir);
  rmSync(tmp, { recursive: true, force: true });
  try {
    makeDirs(tmp);
    const out = fill(tmp);
    replaceDir(tmp, dir);
    return out;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
