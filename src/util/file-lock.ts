/**
 * One writer per output folder. A command that writes a folder (`eval --out`, `run --results`)
 * takes `<folder>.lock` beside it first — beside, not inside, because the folder itself is replaced
 * by a rename when the results are written. The lock file holds the writer's pid:
 * - a second writer finds it and stops at once (exit 2, naming the holder and the lock file);
 * - a lock whose process is gone (a killed run) is stale: it is taken over with a warning;
 * - the holder removes it when it is done, whether it succeeded or failed.
 *
 * Cache files (`record-log.ts`, the rankings and pair caches) are locked the same way during each
 * write (`lockCacheFile`), except that a cache never stops a run: a busy lock is waited for a few
 * seconds, then the write is skipped.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { InputError } from './errors.ts';
import { makeDirs, withPath } from './atomic-write.ts';

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
 * Create the lock file `file` holding `holder` (throws EEXIST when it exists); returns the function
 * that removes it, once, and only while it still holds `holder`: never a lock a later writer took over.
 */
function createLock(file: string, holder: string): () => void {
  const fd = openSync(file, 'wx');
  try {
    writeSync(fd, holder);
  } catch (err) {
    // a full disk: no empty lock left behind, and the error names the file (a failed write names none)
    closeSync(fd);
    rmSync(file, { force: true });
    throw withPath(err, file);
  }
  closeSync(fd);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      if (readFileSync(file, 'utf8') === holder) rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

/**
 * Take the lock of `folder` for this process; returns the function that releases it. Throws an
 * `InputError` when a running process holds it; takes over (calling `warn`) a lock left by a
 * process that is gone or that cannot be read.
 */
export function lockFolder(folder: string, warn: (message: string) => void = () => {}): () => void {
  const file = lockPath(folder);
  makeDirs(dirname(file));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return createLock(file, `${process.pid}\n`);
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
      throw new InputError(
        `${resolve(folder)} is being written by another Backpack process (pid ${holder}); wait for it to finish, or remove ${file} if that process is not Backpack`,
        { file },
      );
    }
    warn(`warning: taking over the stale lock ${file}${Number.isInteger(holder) && holder > 0 ? ` (process ${holder} is gone)` : ''}\n`);
    rmSync(file, { force: true });
  }
  throw new InputError(`could not take the lock ${file}: another process keeps creating it`, { file });
}

/**
 * The holder text of a cache lock: the pid, and the thread when it is not the main one (a worker
 * thread shares its process's pid, and every thread has its own caches).
 */
function holderText(): string {
  return threadId === 0 ? `${process.pid}\n` : `${process.pid} thread ${threadId}\n`;
}

/** How long a cache write waits for a live holder before it gives up (cache writes take milliseconds; a repair of a large log, a second). */
export const CACHE_LOCK_WAIT_MS = 3000;
/** A lock file that does not (yet) name a holder is being written, until it is this old: then it is stale. */
const UNNAMED_LOCK_GRACE_MS = 1000;
/** No cache write holds its lock this long: a lock older than this is stale even if its pid runs (another process now has that pid). */
const CACHE_LOCK_MAX_AGE_MS = 60_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Take `<file>.lock` for a write of the cache file `file`, holding this process's pid (and thread,
 * in a worker thread); returns the function that releases it, or null when another live process
 * or thread still holds it after `waitMs`: a cache never makes a run fail, so the caller then skips
 * its write (the data stays in memory). A lock whose process is gone, or that is older than any
 * cache write, is taken over with `warn` (one line, no `warning:` prefix). Throws what the file
 * system throws when the lock cannot be created (a read-only folder), as the write itself would.
 */
export function lockCacheFile(file: string, warn: (message: string) => void, waitMs = CACHE_LOCK_WAIT_MS): (() => void) | null {
  const lock = `${file}.lock`;
  const me = holderText();
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return createLock(lock, me);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let text: string;
    let age: number;
    try {
      text = readFileSync(lock, 'utf8');
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile: try again
    }
    const m = /^(\d+)(?: thread (\d+))?\n$/.exec(text);
    const pid = m ? Number(m[1]) : NaN;
    let stale: string | null = null;
    if (text === me)
      stale = ''; // this thread's own, left by a write that stopped half-way: no one else's
    else if (m === null) stale = age > UNNAMED_LOCK_GRACE_MS ? ' (it names no process)' : null;
    else if (pid !== process.pid && !processAlive(pid)) stale = ` (process ${pid} is gone)`;
    else if (age > CACHE_LOCK_MAX_AGE_MS)
      stale = ` (held for ${Math.round(age / 1000)} s by process ${pid}${m[2] ? ` thread ${m[2]}` : ''}, longer than any cache write)`;
    if (stale !== null) {
      if (stale !== '') warn(`taking over the stale lock ${lock}${stale}`);
      try {
        // only the lock judged stale: not one its holder released and another writer took since
        if (readFileSync(lock, 'utf8') === text) rmSync(lock, { force: true });
      } catch {
        /* gone already */
      }
      continue;
    }
    if (Date.now() >= deadline) return null;
    sleep(pause);
  }
}
