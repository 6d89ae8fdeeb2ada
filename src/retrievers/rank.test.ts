import { describe, expect, it } from 'vitest';
import { compareHits, rankStable, topK } from './rank.ts';

describe('rankStable', () => {
  it('orders by score descending, then id ascending, whatever the input order', () => {
    const hits = [
      { id: 'b', score: 1 },
      { id: 'c', score: 2 },
      { id: 'a', score: 1 },
      { id: 'B', score: 1 },
    ];
    const expected = ['c', 'B', 'a', 'b']; // 'B' < 'a' < 'b' in code-unit order
    expect(rankStable(hits).map((h) => h.id)).toEqual(expected);
    expect(rankStable([...hits].reverse()).map((h) => h.id)).toEqual(expected);
    expect(hits[0]!.id).toBe('b'); // input untouched
  });

  it('topK cuts after ranking', () => {
    expect(
      topK(
        [
          { id: 'x', score: 0 },
          { id: 'y', score: 3 },
        ],
        1,
      ),
    ).toEqual([{ id: 'y', score: 3 }]);
    expect(topK([{ id: 'x', score: 0 }], 0)).toEqual([]);
    expect(compareHits({ id: 'a', score: 1 }, { id: 'a', score: 1 })).toBe(0);
  });
});
