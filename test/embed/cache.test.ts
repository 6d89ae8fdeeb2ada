/** The on-disk vector cache: round trip, torn writes, foreign logs, unwritable folders. */
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { modelSlug, sha256Hex, VectorCache } from '../../src/retrievers/embed/cache.ts';
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

  it('ignores a torn last record', () => {
    const c = new VectorCache(dir, 'torn');
    c.add([sha256Hex('x')], vec(1, 2), 2);
    appendFileSync(join(c.folder, 'vectors.bin'), Buffer.alloc(17, 1));
    const d = new VectorCache(dir, 'torn');
    d.load();
    expect(d.size).toBe(1);
    expect([...d.get(sha256Hex('x'))!]).toEqual([1, 2]);
  });

  it('replaces a log whose meta names another model instead of appending to it', () => {
    const c = new VectorCache(dir, 'swap');
    c.add([sha256Hex('x')], vec(1, 2), 2);
    writeFileSync(join(c.folder, 'meta.json'), JSON.stringify({ format: 1, model: 'something else', dims: 2 }));
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
