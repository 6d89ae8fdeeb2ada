import { describe, expect, it } from 'vitest';
import { neverSurfaced } from './coverage.ts';

describe('neverSurfaced', () => {
  const toolIds = ['a', 'b', 'c', 'd', 'e', 'finish'];
  const pinned = new Set(['finish']);
  const lists = [['a', 'b', 'c'], ['b', 'd'], []];

  it('counts catalog tools outside every top k, pinned excluded, and lists the gold ones', () => {
    // top 2: {a, b} ∪ {b, d} = {a, b, d}; never = {c, e} (finish is pinned)
    // gold c, d, ghost, finish: d surfaced, ghost not in the catalog, finish pinned → [c]
    expect(neverSurfaced(lists, 2, toolIds, pinned, ['d', 'c', 'ghost', 'finish', 'c'])).toEqual({
      k: 2,
      count: 2,
      gold: ['c'],
    });
    // top 3 adds c: never = {e}
    expect(neverSurfaced(lists, 3, toolIds, pinned, ['c'])).toEqual({ k: 3, count: 1, gold: [] });
  });

  it('sorts the gold list', () => {
    expect(neverSurfaced([], 1, ['z', 'y', 'x'], new Set(), ['z', 'x', 'y']).gold).toEqual(['x', 'y', 'z']);
  });

  it('counts a repeated catalog id once and rejects a bad k', () => {
    expect(neverSurfaced([], 5, ['a', 'a'], new Set(), []).count).toBe(1);
    expect(() => neverSurfaced([], 0, ['a'], new Set(), [])).toThrow(/k must be/);
  });
});
