/**
 * A memo of o200k token counts by text, kept on disk between runs. Counting is the slowest part of
 * the cost side (BPE in JavaScript: ~25 s of the main job for 50,000 definitions, the catalog
 * listings and every search's result text), and the same texts come back on every run of the same
 * catalog. The count of a text never changes for one tokenizer version, so the memo is exact.
 *
 * Layout: `<dir>/<counter slug>/` holds `meta.json` (format 2, the counter and the tokenizer's
 * version) and `counts.bin`, a record log (`record-log.ts`) of 24-byte records: the first 16 bytes
 * of sha256(text, UTF-8), the count as uint32 little-endian, then a CRC-32 of those 20 bytes
 * (uint32 little-endian), appended once per flush under the log's lock (shards and worker threads
 * share it). A record whose checksum fails is skipped (its text is counted again), reported once
 * and removed from the log on load. A log written for another tokenizer version, or of format 1
 * (no checksums), is replaced.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CHECKSUM_BYTES, readRecordLog, RECORD_LOG_FORMAT, sealRecords, writeRecordLog } from '../util/record-log.ts';

const HASH_BYTES = 16;
const RECORD_BYTES = HASH_BYTES + 4 + CHECKSUM_BYTES;
/** In-memory entries before the memo starts afresh (a bound on memory in long processes). */
const MEMO_LIMIT = 1 << 21;

interface Meta {
  format: typeof RECORD_LOG_FORMAT;
  counter: string;
  tokenizer: string;
}

/** The memo key of a text: 16 bytes of its sha256, as a latin1 string. */
export function textKey(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest().toString('latin1', 0, HASH_BYTES);
}

export class TokenCountCache {
  private readonly counts = new Map<string, number>();
  private readonly pending: Array<[string, number]> = [];
  private readonly file: string | null;
  private readonly metaFile: string | null;
  private unwritable = false;
  /** The log is read on first use, so a command that counts nothing (a diff, a gate) does not pay for it. */
  private loaded = false;
  /** Counts found in the memo and counts computed, since the cache was made. */
  hits = 0;
  misses = 0;

  /** `dir` null: in memory only. */
  constructor(
    /** The folder of the on-disk log, or null. */
    readonly dir: string | null,
    readonly counter: string,
    readonly tokenizer: string,
  ) {
    const folder = dir === null ? null : join(dir, counter.replace(/[^A-Za-z0-9._-]+/g, '_'));
    this.file = folder && join(folder, 'counts.bin');
    this.metaFile = folder && join(folder, 'meta.json');
  }

  get size(): number {
    this.load();
    return this.counts.size;
  }

  /** The count of `text`, from the memo or from `count` (then remembered). */
  count(text: string, count: (text: string) => number): number {
    this.load();
    const key = textKey(text);
    const known = this.counts.get(key);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const n = count(text);
    if (this.counts.size >= MEMO_LIMIT) this.counts.clear();
    this.counts.set(key, n);
    if (this.file !== null && !this.unwritable) this.pending.push([key, n]);
    return n;
  }

  /** Append the counts made since the last flush to the log (no-op in memory). */
  flush(): void {
    if (this.file === null || this.metaFile === null || this.pending.length === 0 || this.unwritable) return;
    const out = Buffer.alloc(this.pending.length * RECORD_BYTES);
    this.pending.forEach(([key, n], i) => {
      out.write(key, i * RECORD_BYTES, HASH_BYTES, 'latin1');
      out.writeUInt32LE(n, i * RECORD_BYTES + HASH_BYTES);
    });
    sealRecords(out, RECORD_BYTES);
    try {
      const meta: Meta = { format: RECORD_LOG_FORMAT, counter: this.counter, tokenizer: this.tokenizer };
      // A busy lock (another writer for seconds) writes nothing: the counts stay pending for the next flush.
      if (writeRecordLog(this.file, this.metaFile, meta, out, RECORD_BYTES)) this.pending.length = 0;
    } catch (e) {
      this.unwritable = true;
      this.pending.length = 0;
      process.emitWarning(`tokens: cannot write the token-count cache ${this.file} (${e instanceof Error ? e.message : String(e)}); counting without saving`);
    }
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    if (this.file === null || this.metaFile === null) return;
    const log = readRecordLog<Meta>(
      this.file,
      this.metaFile,
      (m) => m.format === RECORD_LOG_FORMAT && m.counter === this.counter && m.tokenizer === this.tokenizer,
      () => RECORD_BYTES,
    );
    const buf = Buffer.from(log.records.buffer, log.records.byteOffset, log.records.length);
    for (let o = 0; o < buf.length; o += RECORD_BYTES) this.counts.set(buf.toString('latin1', o, o + HASH_BYTES), buf.readUInt32LE(o + HASH_BYTES));
  }
}
