import { describe, expect, it } from 'vitest';
import { Rng } from './rng.ts';

describe('Rng', () => {
  it('gives the same stream for the same seed and label, and a different one otherwise', () => {
    const a = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.nextU32()
      )(new Rng(7)),
    );
    const b = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.nextU32()
      )(new Rng(7)),
    );
    const c = Array.from(
      { length: 5 },
      (
        (r) => () =>
          r.nextU32()
      )(new Rng(8)),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('forks independent streams: drawing from one fork does not move another', () => {
    const root = new Rng(1);
    const x1 = root.fork('x').next();
    const y = root.fork('y');
    for (let i = 0; i < 100; i++) y.next();
    expect(root.fork('x').next()).toBe(x1);
    expect(new Rng(1).fork('x').fork('z').label).toBe('root/x/z');
  });

  it('keeps int() within bounds and reaches both ends', () => {
    const r = new Rng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.int(2, 5);
      expect(v).toBeGreaterThanOrEqual(2);
      expect(v).toBeLessThanOrEqual(5);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([2, 3, 4, 5]);
  });

  it('shuffle is a permutation and sample returns distinct items', () => {
    const r = new Rng(11);
    const items = Array.from({ length: 50 }, (_, i) => i);
    const s = r.shuffle(items);
    expect([...s].sort((a, b) => a - b)).toEqual(items);
    expect(s).not.toEqual(items);
    const pick = r.sample(items, 10);
    expect(new Set(pick).size).toBe(10);
    expect(r.sample([1, 2], 5)).toHaveLength(2);
  });

  it('weighted() never picks a zero-weight item and follows the weights', () => {
    const r = new Rng(5);
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 4000; i++) counts[r.weighted(['a', 'b', 'c'] as const, [1, 0, 3])]++;
    expect(counts.b).toBe(0);
    expect(counts.c / counts.a).toBeGreaterThan(2.4);
    expect(counts.c / counts.a).toBeLessThan(3.7);
  });

  it('pick from an empty list is an error naming the stream', () => {
    expect(() => new Rng(1, 'here').pick([])).toThrow(/here/);
  });
});
