/**
 * An on-disk cache of text embeddings, keyed by model and by the sha256 of the text, so that
 * re-indexing a catalog after one tool changed encodes only that tool's text.
 *
 * Layout: `<dir>/<model slug>/` holds `meta.json` (format 2, the model key and the vector size) and
 * `vectors.bin`, a record log (`record-log.ts`) of fixed-size records: 32 bytes sha256(text,
 * UTF-8), then `dims` float32 little-endian, then a CRC-32 of those bytes (uint32 little-endian),
 * 36 + 4 × dims bytes in all. New vectors are appended with one `O_APPEND` write per batch under
 * the log's lock, so concurrent processes and threads sharing a cache (shards, workers) only ever
 * add whole records. A record whose checksum fails (a crash mid-write, flipped bytes) is skipped,
 * so its text is encoded again, reported once and removed from the log on load; a repeated hash
 * keeps its last record (the same text under the same model gives the same vector anyway). A log
 * of format 1 (no checksums) is replaced.
 *
 * The slug is the model key made filename-safe plus the first 16 hex digits of its sha256, so two
 * models never share a folder.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CHECKSUM_BYTES, readRecordLog, RECORD_LOG_FORMAT, sealRecords, writeRecordLog } from '../../util/record-log.ts';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Folder name for a model key: readable prefix + hash. */
export function modelSlug(modelKey: string): string {
  const readable = modelKey.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  return `${readable}-${sha256Hex(modelKey).slice(0, 16)}`;
}

interface Meta {
  format: typeof RECORD_LOG_FORMAT;
  model: string;
  dims: number;
}

export class VectorCache {
  readonly folder: string;
  private readonly file: string;
  private readonly metaFile: string;
  private dims: number | undefined;
  /**
   * The loaded log (copied to a 4-byte-aligned buffer), and the record of each hash by the hash's
   * first 6 bytes as a number, checked against all 32 bytes on lookup: loading makes no string and
   * no array per record, which at 100,000 records was most of a small index's time.
   */
  private log: Uint8Array | null = null;
  private readonly byPrefix = new Map<number, number>();
  /** Vectors added since the load, and loaded ones whose 6-byte prefix another hash already holds: sha256 hex → vector. */
  private readonly extra = new Map<string, Float32Array>();
  /** Hashes of `extra` that the log holds too (added again): counted once by `size`. */
  private shadowed = 0;
  private loaded = false;
  /** A write failed: stop trying (vectors stay in memory). */
  private unwritable = false;

  constructor(
    dir: string,
    readonly modelKey: string,
  ) {
    this.folder = join(dir, modelSlug(modelKey));
    this.file = join(this.folder, 'vectors.bin');
    this.metaFile = join(this.folder, 'meta.json');
  }

  /** Read the folder's log (once; later calls are no-ops). A log with another model or size is ignored (and replaced by the next write). */
  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const log = readRecordLog<Meta>(
      this.file,
      this.metaFile,
      (m) => m.format === RECORD_LOG_FORMAT && m.model === this.modelKey && Number.isInteger(m.dims) && m.dims > 0,
      (m) => recordSize(m.dims),
    );
    if (log.meta === null) return;
    this.dims = log.meta.dims;
    const recordBytes = recordSize(log.meta.dims);
    const records = log.records.length / recordBytes;
    // Vectors are read as Float32Array views on the log: it must start 4-byte aligned (a file read whole does).
    const aligned = log.records.byteOffset % 4 === 0 ? log.records : new Uint8Array(log.records);
    this.log = aligned;
    for (let r = 0; r < records; r++) {
      const o = r * recordBytes;
      const prefix = prefixAt(aligned, o);
      const held = this.byPrefix.get(prefix);
      // A repeated hash keeps its last record; another hash with the same prefix goes to `extra`.
      if (held === undefined || this.hashAt(held) === this.hashAt(r)) this.byPrefix.set(prefix, r);
      else this.extra.set(this.hashAt(r), this.vectorAt(r));
    }
  }

  /** The size of the vectors the cache holds (undefined: none yet). */
  get vectorDims(): number | undefined {
    return this.dims;
  }

  get size(): number {
    return this.byPrefix.size + this.extra.size - this.shadowed;
  }

  get(hash: string): Float32Array | undefined {
    return this.extra.get(hash) ?? this.fromLog(hash);
  }

  /** Add vectors (`data` = n × dims row-major, one row per hash) and append them to the log. */
  add(hashes: readonly string[], data: Float32Array, dims: number): void {
    if (hashes.length === 0) return;
    if (data.length !== hashes.length * dims) throw new RangeError(`cache add: ${hashes.length} hashes but ${data.length} values of ${dims} dims`);
    if (this.dims !== undefined && this.dims !== dims)
      throw new Error(`embedding cache ${this.folder} holds ${this.dims}-dim vectors but the model gave ${dims}: delete that folder`);
    this.dims = dims;
    const recordBytes = recordSize(dims);
    const out = Buffer.alloc(hashes.length * recordBytes);
    for (let i = 0; i < hashes.length; i++) {
      const o = i * recordBytes;
      out.write(hashes[i]!, o, 32, 'hex');
      for (let j = 0; j < dims; j++) out.writeFloatLE(data[i * dims + j]!, o + 32 + 4 * j);
      if (!this.extra.has(hashes[i]!) && this.fromLog(hashes[i]!) !== undefined) this.shadowed++;
      this.extra.set(hashes[i]!, data.subarray(i * dims, (i + 1) * dims)); // a view: `data` is not changed after
    }
    if (this.unwritable) return;
    sealRecords(out, recordBytes);
    try {
      // A busy lock (another writer for seconds) skips this write: the vectors stay in memory.
      writeRecordLog(this.file, this.metaFile, { format: RECORD_LOG_FORMAT, model: this.modelKey, dims } satisfies Meta, out, recordBytes);
    } catch (e) {
      // A read-only install must still retrieve: keep the vectors in memory, say so once.
      this.unwritable = true;
      process.emitWarning(
        `embed: cannot write the vector cache in ${this.folder} (${e instanceof Error ? e.message : String(e)}); continuing without saving vectors`,
      );
    }
  }

  private fromLog(hash: string): Float32Array | undefined {
    if (this.log === null || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const r = this.byPrefix.get(Number.parseInt(hash.slice(0, 12), 16));
    return r !== undefined && this.hashAt(r) === hash ? this.vectorAt(r) : undefined;
  }

  private hashAt(r: number): string {
    const log = this.log!;
    return Buffer.from(log.buffer, log.byteOffset + r * recordSize(this.dims!), 32).toString('hex');
  }

  /** Record r's vector: a view on the log (little-endian host), or decoded through a DataView. */
  private vectorAt(r: number): Float32Array {
    const log = this.log!;
    const dims = this.dims!;
    const o = log.byteOffset + r * recordSize(dims) + 32;
    if (LITTLE_ENDIAN) return new Float32Array(log.buffer, o, dims);
    const view = new DataView(log.buffer);
    const v = new Float32Array(dims);
    for (let j = 0; j < dims; j++) v[j] = view.getFloat32(o + 4 * j, true);
    return v;
  }
}

/** Bytes of a record: the 32-byte hash, the vector, the checksum. */
function recordSize(dims: number): number {
  return 32 + 4 * dims + CHECKSUM_BYTES;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The first 6 bytes of the hash at `o`, as a number. */
function prefixAt(bytes: Uint8Array, o: number): number {
  return ((bytes[o]! << 16) | (bytes[o + 1]! << 8) | bytes[o + 2]!) * 0x1000000 + ((bytes[o + 3]! << 16) | (bytes[o + 4]! << 8) | bytes[o + 5]!);
}
