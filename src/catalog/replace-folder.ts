/**
 * Replacing a folder Backpack writes (a dataset, a results folder) safely: refuse a folder that is
 * not ours, tidy what an interrupted earlier write left beside it, and swap the new folder in.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../util/errors.ts';
import { checkOutputFolder } from '../util/output-path.ts';
import { failpoint } from '../util/failpoint.ts';
import { processAlive } from '../util/file-lock.ts';
import { makeDirs } from '../util/atomic-write.ts';

/**
 * Refuse to write to `target` unless it is absent, an empty folder, or a folder `isOurs` accepts
 * (a Backpack dataset or results folder): a typo in `--out` must never delete someone's files.
 * Never the file system's root or a folder holding the working folder, and never one of `inputs`,
 * inside one or around one (`checkOutputFolder`).
 * Also tidies what an interrupted earlier write left beside it: a `.tmp-<pid>` folder of a
 * process that is gone, and a `.old-<pid>` folder it had not yet swapped back.
 */
export function assertReplaceable(target: string, kind: string, isOurs: (dir: string) => boolean, inputs: readonly string[] = []): void {
  checkOutputFolder(target, kind, inputs);
  recoverInterrupted(target);
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new InputError(`exists and is not a folder; cannot write a ${kind} there`, { file: target });
  if (readdirSync(target).length === 0 || isOurs(target)) return;
  throw new InputError(`folder exists and does not hold a Backpack ${kind}; refusing to replace it`, { file: target });
}

function recoverInterrupted(target: string): void {
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
