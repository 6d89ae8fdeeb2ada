/** The on-disk vector cache: round trip, torn writes, corrupt records, foreign logs, unwritable folders, locks. */
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { modelSlug, sha256Hex, VectorCache } from '../../src/retrievers/embed/cache.ts';
import { appendPartial, corruptLine, flipBytes, truncateTo, warningsOf } from '../cache-damage.ts';
import { tempDir } from '../helpers.ts';

const dir = tempDir('embed-cache');
const vec = (...xs: number[]) => new Float32Array(xs);

describe('vector cache', () => {
  it('round-trips vectors by text hash, per model', () => {
    const a = new VectorCache(dir, 'model-a');
    a.load();
    expect(a.size).toBe(0);
    const h1 = sha256Hex('one');
    const h2 = sha256Hex('two');
    a.add([h1, h2], vec(1, 2, 3, 0.5, -0.25, 1e-3), 3);
    a.add([sha256Hex('three')], vec(7, 8, 9), 3);
    const b = new VectorCache(dir, 'model-a');
    b.load();
    expect(b.size).toBe(3);
    expect([...b.get(h2)!]).toEqual([...vec(0.5, -0.25, 1e-3)]);
    const other = new VectorCache(dir, 'model-b');
    other.load();
    expect(other.get(h1)).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual([modelSlug('model-a')].sort());
    expect(modelSlug('hub:Xenova/all-MiniLM-L6-v2@main')).toMatch(/^hub_Xenova_all-MiniLM-L6-v2_main-[0-9a-f]{16}$/);
  });

  it('tells apart hashes that share their first bytes, and keeps the last record of a repeated hash', () => {
    const h1 = `${'ab'.repeat(6)}${'0'.repeat(52)}`;
    const h2 = `${'ab'.repeat(6)}${'1'.repeat(52)}`; // the same 6-byte prefix as h1
    const h3 = `${'ab'.repeat(5)}ac${'0'.repeat(52)}`;
    const c = new VectorCache(dir, 'prefix');
    c.add([h1, h2, h3], vec(1, 2, 3, 4, 5, 6), 2);
    c.add([h1], vec(9, 9), 2); // h1 again: the last record wins
    expect(c.size).toBe(3);
    const d = new VectorCache(dir, 'prefix');
    d.load();
    expect(d.size).toBe(3);
    expect([...d.get(h1)!]).toEqual([9, 9]);
    expect([...d.get(h2)!]).toEqual([3, 4]);
    expect([...d.get(h3)!]).toEqual([5, 6]);
    expect(d.get(`${'ab'.repeat(6)}${'2'.repeat(52)}`)).toBeUndefined();
    expect(d.get('not a hash')).toBeUndefined();
    d.add([h2], vec(0, 1), 2);
    expect(d.size).toBe(3);
    expect([...d.get(h2)!]).toEqual([0, 1]);
  });

  it('skips a torn last record, saying so once', () => {
    const c = new VectorCache(dir, 'torn');
    c.add([sha256Hex('x')], vec(1, 2), 2);
    appendFileSync(join(c.folder, 'vectors.bin'), Buffer.alloc(17, 1));
    const d = new VectorCache(dir, 'torn');
    expect(warningsOf(() => d.load()).warnings).toEqual([corruptLine(1, join(c.folder, 'vectors.bin'))]);
    expect(d.size).toBe(1);
    expect([...d.get(sha256Hex('x'))!]).toEqual([1, 2]);
  });

  it('replaces a log whose meta names another model instead of appending to it', () => {
    const c = new VectorCache(dir, 'swap');
    c.add([sha256Hex('x')], vec(1, 2), 2);
    writeFileSync(join(c.folder, 'meta.json'), JSON.stringify({ format: 2, model: 'something else', dims: 2 }));
    const d = new VectorCache(dir, 'swap');
    d.load();
    expect(d.size).toBe(0);
    d.add([sha256Hex('y')], vec(3, 4, 5), 3);
    const e = new VectorCache(dir, 'swap');
    e.load();
    expect(e.size).toBe(1);
    expect([...e.get(sha256Hex('y'))!]).toEqual([3, 4, 5]);
  });

  it('refuses vectors of another size than the log holds, naming the folder to delete', () => {
    const c = new VectorCache(dir, 'dims');
    c.add([sha256Hex('x')], vec(1, 2), 2);
    const d = new VectorCache(dir, 'dims');
    d.load();
    expect(() => d.add([sha256Hex('y')], vec(1, 2, 3), 3)).toThrow(/holds 2-dim vectors but the model gave 3: delete that folder/);
  });

  it('keeps working in memory, with one warning, when the folder cannot be written', () => {
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const c = new VectorCache(blocker, 'ro');
    c.load();
    c.add([sha256Hex('x')], vec(1), 1);
    c.add([sha256Hex('y')], vec(2), 1);
    expect(c.get(sha256Hex('y'))).toEqual(vec(2));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/cannot write the vector cache/);
    warn.mockRestore();
    expect(existsSync(join(blocker, 'x'))).toBe(false);
  });
});

/**
 * Checksummed records (issue 18): whatever is done to the log, the vectors a cache serves are the
 * model's, exactly as with a clean or an empty cache; bad records are reported once, with their
 * count, and the log is repaired. Before checksums, a flipped byte was served as a wrong vector
 * and a partial record misaligned every later append.
 */
describe('vector cache: corrupt records', () => {
  const DIMS = 8;
  const RECORD = 36 + 4 * DIMS;
  const texts = Array.from({ length: 20 }, (_, i) => `tool text ${i}`);
  /** "The model": a vector that depends on the text only. */
  const model = (t: string) => Float32Array.from({ length: DIMS }, (_, j) => Number.parseInt(sha256Hex(t).slice(2 * j, 2 * j + 2), 16) / 255 - 0.5);
  let n = 0;

  /** What an index sees: each text's vector, from the cache or "encoded" (then added, as `index()` does). */
  function vectors(cacheDir: string, key: string, which = texts): { values: number[][]; encoded: number } {
    const c = new VectorCache(cacheDir, key);
    c.load();
    const missing = which.filter((t) => c.get(sha256Hex(t)) === undefined);
    if (missing.length > 0) {
      const data = new Float32Array(missing.length * DIMS);
      missing.forEach((t, i) => data.set(model(t), i * DIMS));
      c.add(missing.map(sha256Hex), data, DIMS);
    }
    return { values: which.map((t) => [...c.get(sha256Hex(t))!]), encoded: missing.length };
  }

  /** A cache folder holding the vectors of `texts` in two appends, and its log. */
  function clean(): { key: string; file: string } {
    const key = `model-${n++}`;
    vectors(dir, key, texts.slice(0, 12));
    vectors(dir, key);
    const file = join(new VectorCache(dir, key).folder, 'vectors.bin');
    expect(statSync(file).size).toBe(texts.length * RECORD);
    return { key, file };
  }

  const expected = texts.map((t) => [...model(t)]);

  it('serves the same vectors from a clean, an empty and a damaged log: flipped bytes in a vector, a key and a checksum', () => {
    const { key, file } = clean();
    expect(vectors(dir, key)).toEqual({ values: expected, encoded: 0 });
    expect(vectors(tempDir('embed-empty'), key)).toEqual({ values: expected, encoded: texts.length });
    flipBytes(file, [3 * RECORD + 32 + 4 * 2 + 3, 7 * RECORD + 5, 12 * RECORD + RECORD - 1]);
    const { value, warnings } = warningsOf(() => vectors(dir, key));
    expect(value).toEqual({ values: expected, encoded: 3 });
    expect(warnings).toEqual([corruptLine(3, file)]);
    // Repaired: the good records, then the three encoded again; the next load has nothing to say.
    expect(statSync(file).size).toBe(texts.length * RECORD);
    expect(warningsOf(() => vectors(dir, key))).toEqual({ value: { values: expected, encoded: 0 }, warnings: [] });
  });

  it('a partial record followed by appends: the appends stay aligned and readable', () => {
    const { key, file } = clean();
    appendPartial(file, 17);
    // Another writer that never loaded the log appends after the partial record.
    new VectorCache(dir, key).add([sha256Hex('late')], model('late'), DIMS);
    const { value, warnings } = warningsOf(() => vectors(dir, key, [...texts, 'late']));
    expect(value).toEqual({ values: [...expected, [...model('late')]], encoded: 0 });
    expect(warnings).toEqual([corruptLine(1, file)]);
    expect(statSync(file).size).toBe((texts.length + 1) * RECORD);
    expect(warningsOf(() => vectors(dir, key, [...texts, 'late'])).warnings).toEqual([]);
  });

  it('finds the records after a misaligned stretch in the middle (a partial record, then whole ones)', () => {
    const { key, file } = clean();
    const bytes = readFileSync(file);
    // 5 records, 30 bytes of a sixth, then the other 15 records: every later record is shifted.
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 5 * RECORD), bytes.subarray(5 * RECORD, 5 * RECORD + 30), bytes.subarray(6 * RECORD)]));
    const { value, warnings } = warningsOf(() => vectors(dir, key));
    expect(value).toEqual({ values: expected, encoded: 1 });
    expect(warnings).toEqual([corruptLine(1, file)]);
    expect(statSync(file).size).toBe(texts.length * RECORD);
  });

  it('a log cut mid-record loses only what was cut', () => {
    const { key, file } = clean();
    truncateTo(file, 9 * RECORD + 11);
    const { value, warnings } = warningsOf(() => vectors(dir, key));
    expect(value).toEqual({ values: expected, encoded: 11 });
    expect(warnings).toEqual([corruptLine(1, file)]);
    expect(statSync(file).size % RECORD).toBe(0);
    expect(warningsOf(() => vectors(dir, key)).warnings).toEqual([]);
  });

  it('replaces a log of the format without checksums, silently', () => {
    const { key, file } = clean();
    const metaFile = join(new VectorCache(dir, key).folder, 'meta.json');
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), format: 1 }));
    const { value, warnings } = warningsOf(() => vectors(dir, key));
    expect(value).toEqual({ values: expected, encoded: texts.length });
    expect(warnings).toEqual([]);
    expect(JSON.parse(readFileSync(metaFile, 'utf8')).format).toBe(2);
    expect(statSync(file).size).toBe(texts.length * RECORD);
  });

  it('takes over the lock of a writer that is gone, with a warning, and writes', () => {
    const { key, file } = clean();
    writeFileSync(`${file}.lock`, '99999999\n'); // above any pid_max: no such process
    const { warnings } = warningsOf(() => new VectorCache(dir, key).add([sha256Hex('after')], model('after'), DIMS));
    expect(warnings).toEqual([`warning: taking over the stale lock ${file}.lock (process 99999999 is gone)`]);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(vectors(dir, key, ['after']).encoded).toBe(0);
  });
});
