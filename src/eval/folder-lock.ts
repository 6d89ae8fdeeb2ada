/**
 * One writer per output folder. A command that writes a folder (`eval --out`, `run --results`)
 * takes `<folder>.lock` beside it first — beside, not inside, because the folder itself is replaced
 * by a rename when the results are written. The lock file holds the writer's pid:
 * - a second writer finds it and stops at once (exit 2, naming the holder and the lock file);
 * - a lock whose process is gone (a killed run) is stale: it is taken over with a warning;
 * - the holder removes it when it is done, whether it succeeded or failed.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../catalog/errors.ts';

/** The lock file of an output folder. */
export function lockPath(folder: string): string {
  return `${resolve(folder)}.lock`;
}

/** Whether a process with this pid is running (one we may not signal counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take the lock of `folder` for this process; returns the function that releases it. Throws an
 * `InputError` when a running process holds it; takes over (calling `warn`) a lock left by a
 * process that is gone or that cannot be read.
 */
export function lockFolder(folder: string, warn: (message: string) => void = () => {}): () => void {
  const file = lockPath(folder);
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // only our own lock: never remove one a later writer took over
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(file, 'utf8').trim());
    } catch {
      /* removed between the two calls: try again */
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
      throw new InputError(`${resolve(folder)} is being written by another Backpack process (pid ${holder}); wait for it to finish, or remove ${file} if that process is not Backpack`, { file });
    }
    warn(`warning: taking over the stale lock ${file}${Number.isInteger(holder) && holder > 0 ? ` (process ${holder} is gone)` : ''}\n`);
    rmSync(file, { force: true });
  }
  throw new InputError(`could not take the lock ${file}: another process keeps creating it`, { file });
}
