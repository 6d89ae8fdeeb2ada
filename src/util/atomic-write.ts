/**
 * The one way Backpack replaces a file: write a temporary sibling, then rename it over the file. A
 * reader sees the old file or the new one, never half of one; a kill leaves at most the temporary
 * file (named for its process and thread, so concurrent writers never share one), and a failed
 * write removes it. Folders are replaced the same way (`replaceDir` in catalog/dataset-files.ts).
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

/** The temporary sibling of `file` this process and thread writes through. */
export function tempSibling(file: string): string {
  return threadId === 0 ? `${file}.tmp-${process.pid}` : `${file}.tmp-${process.pid}-${threadId}`;
}

/** Replace `file` with `data` atomically; throws what the file system throws (naming `file`), leaving no temporary file. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = tempSibling(file);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    // the user named `file`, not its temporary sibling
    if (err !== null && typeof err === 'object' && (err as { path?: unknown }).path === tmp) (err as { path?: string }).path = file;
    throw withPath(err, file);
  }
}

/**
 * `writeFileSync`, whose failure names `file`: Node names the path of a failed `open`, not of a
 * failed `write` (a full disk), and a user told "no space left" should hear where.
 */
export function writeFileNamed(file: string, data: string | Uint8Array): void {
  try {
    writeFileSync(file, data);
  } catch (err) {
    throw withPath(err, file);
  }
}

/** `err` with `path` set to `file` when the file system left it out (a failed `write` names no path). */
export function withPath(err: unknown, file: string): unknown {
  if (err !== null && typeof err === 'object' && typeof (err as { code?: unknown }).code === 'string' && (err as { path?: unknown }).path === undefined) {
    (err as { path?: string }).path = file;
  }
  return err;
}

/**
 * `mkdirSync(dir, { recursive: true })`, whose failure says why: on a read-only file system Node 20
 * reports a recursive mkdir as ENOENT; the first folder missing is then made on its own, which
 * fails with the true cause (EROFS, EACCES) and its path.
 */
export function makeDirs(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
    let missing = dir;
    while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
    mkdirSync(missing); // throws the true cause; should it succeed, the recursive call's error stands
    throw err;
  }
}
