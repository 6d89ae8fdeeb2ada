/**
 * An on-disk cache of text embeddings, keyed by model and by the sha256 of the text, so that
 * re-indexing a catalog after one tool changed encodes only that tool's text.
 *
 * Layout: `<dir>/<model slug>/` holds `meta.json` (the model key and the vector size) and
 * `vectors.bin`, an append-only log of fixed-size records: 32 bytes sha256(text, UTF-8), then
 * `dims` float32 little-endian. New vectors are appended with one `O_APPEND` write per batch, so
 * concurrent processes sharing a cache (shards) only ever add whole records; a trailing partial
 * record (a crash mid-write) is ignored on load, and a repeated hash keeps its last record (the
 * same text under the same model gives the same vector anyway).
 *
 * The slug is the model key made filename-safe plus the first 16 hex digits of its sha256, so two
 * models never share a folder.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readRecordLog, writeRecordLog } from '../../record-log.ts';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Folder name for a model key: readable prefix + hash. */
export function modelSlug(modelKey: string): string {
  const readable = modelKey.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  return `${readable}-${sha256Hex(modelKey).slice(0, 16)}`;
}

interface Meta {
  format: 1;
  model: string;
  dims: number;
}

export class VectorCache {
  readonly folder: string;
  private readonly file: string;
  private readonly metaFile: string;
  private dims: number | undefined;
  /** sha256 hex → vector (a view into the loaded log, or a copy for new entries). */
  private readonly vectors = new Map<string, Float32Array>();
  private loaded = false;
  /** The folder held a log this cache cannot read (another format or size): the next write replaces it. */
  private replace = false;
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

  /** Read the folder's log (once; later calls are no-ops). A log with another model or size is ignored. */
  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const log = readRecordLog<Meta>(this.file, this.metaFile, (m) => m.format === 1 && m.model === this.modelKey && Number.isInteger(m.dims) && m.dims > 0);
    if (log.meta === null) {
      this.replace = log.replace;
      return;
    }
    const { meta, bytes: buf } = log;
    this.dims = meta.dims;
    const recordBytes = 32 + 4 * meta.dims;
    const records = Math.floor(buf.length / recordBytes);
    // Copy into an aligned buffer so vectors can be Float32Array views (little-endian host assumed
    // for the views; big-endian hosts decode through DataView).
    const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
    const aligned = new Uint8Array(records * recordBytes);
    aligned.set(buf.subarray(0, records * recordBytes));
    const view = new DataView(aligned.buffer);
    for (let r = 0; r < records; r++) {
      const o = r * recordBytes;
      const hash = Buffer.from(aligned.buffer, o, 32).toString('hex');
      let vec: Float32Array;
      if (le) vec = new Float32Array(aligned.buffer, o + 32, meta.dims);
      else {
        vec = new Float32Array(meta.dims);
        for (let j = 0; j < meta.dims; j++) vec[j] = view.getFloat32(o + 32 + 4 * j, true);
      }
      this.vectors.set(hash, vec);
    }
  }

  get size(): number {
    return this.vectors.size;
  }

  get(hash: string): Float32Array | undefined {
    return this.vectors.get(hash);
  }

  /** Add vectors (`data` = n × dims row-major, one row per hash) and append them to the log. */
  add(hashes: readonly string[], data: Float32Array, dims: number): void {
    if (hashes.length === 0) return;
    if (data.length !== hashes.length * dims) throw new RangeError(`cache add: ${hashes.length} hashes but ${data.length} values of ${dims} dims`);
    if (this.dims !== undefined && this.dims !== dims) throw new Error(`embedding cache ${this.folder} holds ${this.dims}-dim vectors but the model gave ${dims}: delete that folder`);
    const fresh = this.dims === undefined;
    this.dims = dims;
    const recordBytes = 32 + 4 * dims;
    const out = Buffer.alloc(hashes.length * recordBytes);
    for (let i = 0; i < hashes.length; i++) {
      const o = i * recordBytes;
      out.write(hashes[i]!, o, 32, 'hex');
      for (let j = 0; j < dims; j++) out.writeFloatLE(data[i * dims + j]!, o + 32 + 4 * j);
      this.vectors.set(hashes[i]!, data.subarray(i * dims, (i + 1) * dims)); // a view: `data` is not changed after
    }
    if (this.unwritable) return;
    try {
      const meta: Meta = { format: 1, model: this.modelKey, dims };
      writeRecordLog(this.file, this.metaFile, meta, out, this.replace, fresh);
      this.replace = false;
    } catch (e) {
      // A read-only install must still retrieve: keep the vectors in memory, say so once.
      this.unwritable = true;
      process.emitWarning(`embed: cannot write the vector cache in ${this.folder} (${e instanceof Error ? e.message : String(e)}); continuing without saving vectors`);
    }
  }
}
