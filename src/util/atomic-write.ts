/**
 * The one way Backpack replaces a file: write a temporary sibling, then rename it over the file. A
 * reader sees the old file or the new one, never half of one; a kill leaves at most the temporary
 * file (named for its process and thread, so concurrent writers never share one), and a failed
 * write removes it. Folders are replaced the same way (`replaceDir` in catalog/dataset-files.ts).
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/** The temporary sibling of `file` this process and thread writes through. */
export function tempSibling(file: string): string {
  return threadId === 0 ? `${file}.tmp-${process.pid}` : `${file}.tmp-${process.pid}-${threadId}`;
}

/** Replace `file` with `data` atomically; throws what the file system throws, leaving no temporary file. */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = tempSibling(file);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
