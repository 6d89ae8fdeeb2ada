/**
 * An append-only log of fixed-size binary records beside a `meta.json` that says what the records
 * are (a model, a tokenizer… and the record format): the on-disk form of Backpack's caches
 * (`retrievers/embed/cache.ts`, `tokens/count-cache.ts`).
 *
 * Format 2: each record is its key, its payload, then a CRC-32 (IEEE, as zlib's) of key and payload,
 * uint32 little-endian. Loading checks every record: a record whose checksum fails (flipped bytes,
 * a torn write, a partial record left by a crash) is skipped, so its value is computed again. After
 * a bad stretch the reader looks for the next good record at every byte offset within one record's
 * length (a partial record shifts every later append), a search bounded per load. When any record
 * was bad, the loader takes the log's lock, reads it again (a stretch that was a write in progress
 * is whole by then), says so once on stderr (`warning: N cache records of FILE were corrupt and
 * were recomputed`) and rewrites the log with its good records only (a temporary file renamed into
 * place), so that later appends are aligned again.
 *
 * Writes: every write takes `<log>.lock` (`lockCacheFile`: pid and thread; a lock whose process is
 * gone is taken over with a warning; a lock a live writer keeps for seconds makes this write skip,
 * the records staying in memory). Under it, records are appended with one write per batch when the
 * meta on disk is this cache's, after padding a partial last record (a crash) to a whole bad one,
 * so an append never lands mid-record; otherwise (no log, or a log of another format, model,
 * tokenizer…) meta and log are replaced, each by a renamed temporary file. A log of another format
 * (format 1 had no checksums) is therefore replaced, not reported as corrupt; so is a log whose
 * meta is missing or unreadable.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { makeDirs, writeFileAtomic } from './atomic-write.ts';
import { lockCacheFile } from './file-lock.ts';

/** The record format of every log (in `meta.json`): 2 = records end with a CRC-32. */
export const RECORD_LOG_FORMAT = 2;
/** Bytes of a record's checksum, after its key and payload. */
export const CHECKSUM_BYTES = 4;

/** Say something about a cache on stderr (process warnings: worker threads and shards too), as `warning: …`. */
export function cacheWarning(message: string): void {
  process.emitWarning(message, 'warning');
}

/** The one warning about the bad records of a cache file, in the words every cache uses. */
export function corruptWarning(count: number, file: string): void {
  cacheWarning(`${count} cache records of ${file} were corrupt and were recomputed`);
}

const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/**
 * CRC-32 of `bytes[start, end)`. Short spans in JavaScript (no view to allocate: 3× zlib's speed at
 * 20 bytes), long ones through zlib (10× faster than JavaScript at 1.5 KB); the same value either way.
 */
export function crc32Of(bytes: Uint8Array, start: number, end: number): number {
  if (end - start >= 128) return zlibCrc32(bytes.subarray(start, end));
  let c = -1;
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** CRC-32 of a string's UTF-8 bytes (the JSON caches' entries). */
export function crc32OfText(text: string): number {
  return zlibCrc32(text);
}

/** Write each record's checksum into its last 4 bytes (`bytes` = whole records of `recordBytes`). */
export function sealRecords(bytes: Buffer, recordBytes: number): void {
  for (let o = 0; o + recordBytes <= bytes.length; o += recordBytes)
    bytes.writeUInt32LE(crc32Of(bytes, o, o + recordBytes - CHECKSUM_BYTES), o + recordBytes - CHECKSUM_BYTES);
}

function recordOk(bytes: Uint8Array, o: number, recordBytes: number): boolean {
  const end = o + recordBytes - CHECKSUM_BYTES;
  return (crc32Of(bytes, o, end) | 0) === (bytes[end]! | (bytes[end + 1]! << 8) | (bytes[end + 2]! << 16) | (bytes[end + 3]! << 24));
}

/** Bad stretches a load searches byte by byte for the next good record (each search: one record's length of checksums). */
const RESYNC_SEARCHES = 64;

/**
 * The good records of `bytes`, and how many records' worth were bad: a bad stretch of n bytes
 * counts ceil(n / recordBytes) (a flipped byte, a partial record: 1). `records` is `bytes` itself
 * when all is good, else a compacted copy of the good records.
 */
export function checkRecords(bytes: Uint8Array, recordBytes: number): { records: Uint8Array; corrupt: number } {
  const n = bytes.length;
  const runs: number[] = []; // [start, end) of runs of good records
  let corrupt = 0;
  let searches = 0;
  let o = 0;
  let runStart = 0;
  let badStart = -1;
  while (o < n) {
    if (o + recordBytes <= n && recordOk(bytes, o, recordBytes)) {
      if (badStart >= 0) {
        corrupt += Math.ceil((o - badStart) / recordBytes);
        badStart = -1;
        runStart = o;
      }
      o += recordBytes;
      continue;
    }
    if (badStart < 0) {
      if (o > runStart) runs.push(runStart, o);
      badStart = o;
    }
    // The next good record: within one record's length when a partial record shifted the rest.
    let next = -1;
    if (searches < RESYNC_SEARCHES) {
      searches++;
      for (let s = o + 1; s < o + recordBytes && s + recordBytes <= n; s++) {
        if (recordOk(bytes, s, recordBytes)) {
          next = s;
          break;
        }
      }
    }
    o = next >= 0 ? next : Math.min(o + recordBytes, n);
  }
  if (badStart >= 0) corrupt += Math.ceil((n - badStart) / recordBytes);
  else if (n > runStart) runs.push(runStart, n);
  if (corrupt === 0) return { records: bytes, corrupt };
  let size = 0;
  for (let i = 0; i < runs.length; i += 2) size += runs[i + 1]! - runs[i]!;
  const records = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < runs.length; i += 2) {
    records.set(bytes.subarray(runs[i]!, runs[i + 1]!), at);
    at += runs[i + 1]! - runs[i]!;
  }
  return { records, corrupt };
}

/** The log's meta when it parses as an object, else null. */
function readMeta<M>(metaFile: string): M | null {
  try {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as unknown;
    return meta !== null && typeof meta === 'object' ? (meta as M) : null;
  } catch {
    return null;
  }
}

export interface LogRead<M> {
  /** The log's meta when it exists and `accepts` it; else null (and no records). */
  meta: M | null;
  /** Its good records, whole (a multiple of the record size), in log order. */
  records: Uint8Array;
}

/**
 * The log's meta and good records when `accepts(meta)` (records of `recordBytes(meta)` bytes,
 * checksum included). Bad records are left out, reported once and removed from the file (see the
 * header). Never throws: an unreadable log is an empty one.
 */
export function readRecordLog<M>(file: string, metaFile: string, accepts: (meta: M) => boolean, recordBytes: (meta: M) => number): LogRead<M> {
  const none: LogRead<M> = { meta: null, records: new Uint8Array(0) };
  const read = (): (LogRead<M> & { corrupt: number }) | null => {
    if (!existsSync(file)) return null;
    const meta = readMeta<M>(metaFile);
    if (meta === null || !accepts(meta)) return null;
    const { records, corrupt } = checkRecords(readFileSync(file), recordBytes(meta));
    return { meta, records, corrupt };
  };
  let log: ReturnType<typeof read>;
  try {
    log = read();
  } catch {
    return none;
  }
  if (log === null) return none;
  if (log.corrupt === 0) return log;
  // Read again under the lock: what looked bad may have been a write in progress.
  let release: (() => void) | null = null;
  try {
    release = lockCacheFile(file, cacheWarning);
  } catch {
    // cannot lock (a read-only folder): report, do not repair
  }
  try {
    if (release !== null) {
      const again = read();
      if (again === null) return none;
      log = again;
      if (log.corrupt === 0) return log;
    }
    corruptWarning(log.corrupt, file);
    if (release !== null) {
      try {
        writeFileAtomic(file, log.records);
      } catch {
        // not repaired (a read-only folder): the next load skips the same records
      }
    }
    return log;
  } catch {
    return none;
  } finally {
    release?.();
  }
}

/**
 * Append `bytes` (whole, sealed records of `recordBytes`) to the log whose meta is `meta`, or start
 * the log afresh when the meta on disk is another (or missing). Returns false when the log's lock
 * stayed busy (nothing written); throws what the file system throws.
 */
export function writeRecordLog(file: string, metaFile: string, meta: object, bytes: Uint8Array, recordBytes: number): boolean {
  makeDirs(dirname(file));
  const release = lockCacheFile(file, cacheWarning);
  if (release === null) return false;
  try {
    const onDisk = existsSync(file) ? readMeta<object>(metaFile) : null;
    if (onDisk === null || JSON.stringify(onDisk) !== JSON.stringify(meta)) {
      // the log first, its meta last: a kill between the two leaves new records under the old meta,
      // which the next load does not accept (and replaces), never old records under the new meta
      writeFileAtomic(file, bytes);
      writeFileAtomic(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
      return true;
    }
    const fd = openSync(file, 'a');
    try {
      // A partial last record (a write that stopped half-way): pad it to a whole bad record, which
      // the next load skips, rather than shift every record appended after it.
      const tail = fstatSync(fd).size % recordBytes;
      const out = tail === 0 ? bytes : Buffer.concat([Buffer.alloc(recordBytes - tail), bytes]);
      for (let at = 0; at < out.length; ) at += writeSync(fd, out, at, out.length - at);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    release();
  }
}
