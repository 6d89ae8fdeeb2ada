import { describe, expect, it } from 'vitest';
import { listAll } from './list.ts';
import { mapBounded } from './snapshot.ts';

describe('listAll', () => {
  it('follows nextCursor until a page has none, keeping the order', async () => {
    const seen: Array<string | undefined> = [];
    const r = await listAll('tools/list', async (cursor) => {
      seen.push(cursor);
      const i = cursor === undefined ? 0 : Number(cursor);
      return { items: [i, i + 1], nextCursor: i < 4 ? String(i + 2) : undefined };
    });
    expect(r).toEqual({ items: [0, 1, 2, 3, 4, 5], pages: 3 });
    expect(seen).toEqual([undefined, '2', '4']);
  });

  it('ends at a null or empty nextCursor, as the file loader does', async () => {
    for (const end of [null, '']) {
      let calls = 0;
      const r = await listAll('tools/list', async () => ({ items: [calls++], nextCursor: end }));
      expect(r).toEqual({ items: [0], pages: 1 });
    }
  });

  it('stops a pagination that loops or never ends', async () => {
    await expect(listAll('tools/list', async () => ({ items: [1], nextCursor: 'same' }))).rejects.toThrow(/returned cursor "same" twice/);
    let n = 0;
    await expect(listAll('tools/list', async () => ({ items: [], nextCursor: String(n++) }), 5)).rejects.toThrow(/more than 5 pages/);
  });
});

describe('mapBounded', () => {
  it('keeps at most `limit` running and returns results in input order', async () => {
    let running = 0;
    let peak = 0;
    const r = await mapBounded([5, 1, 4, 2, 3], 2, async (x) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((res) => setTimeout(res, x));
      running--;
      return x * 10;
    });
    expect(r).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });
});
