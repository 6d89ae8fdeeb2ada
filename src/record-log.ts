/**
 * An append-only log of fixed-size binary records beside a `meta.json` that says what the records
 * are (a model, a tokenizer…): the on-disk form of Backpack's caches (`retrievers/embed/cache.ts`,
 * `tokens/count-cache.ts`). Records are appended with one write per batch, so concurrent processes
 * sharing a folder only ever add whole records; a reader ignores a trailing partial record. A log
 * whose meta is missing, unreadable or not accepted is replaced by the next write.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogRead<M> = { meta: M; bytes: Buffer } | { meta: null; replace: boolean };

/** The log's bytes and meta when `accepts(meta)`; else whether the next write must replace the log. */
export function readRecordLog<M>(file: string, metaFile: string, accepts: (meta: M) => boolean): LogRead<M> {
  if (!existsSync(file)) return { meta: null, replace: false };
  let meta: M;
  try {
    meta = JSON.parse(readFileSync(metaFile, 'utf8')) as M;
  } catch {
    return { meta: null, replace: true };
  }
  if (meta === null || typeof meta !== 'object' || !accepts(meta)) return { meta: null, replace: true };
  try {
    return { meta, bytes: readFileSync(file) };
  } catch {
    return { meta: null, replace: false };
  }
}

/**
 * Append `bytes` to the log (or, with `replace`, start it afresh), writing `meta` first when asked,
 * when replacing, or when it is missing. Throws what the file system throws.
 */
export function writeRecordLog(file: string, metaFile: string, meta: unknown, bytes: Uint8Array, replace: boolean, rewriteMeta = false): void {
  mkdirSync(dirname(file), { recursive: true });
  if (rewriteMeta || replace || !existsSync(metaFile)) writeFileSync(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  if (replace) writeFileSync(file, bytes);
  else appendFileSync(file, bytes);
}
