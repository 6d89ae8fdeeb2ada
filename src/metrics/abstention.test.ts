import { describe, expect, it } from 'vitest';
import { floorForRate, nextUp, operatingCurve, recallAtRates, topUnpinned, type AbstentionCase } from './abstention.ts';
import { recallAtK } from './ranking.ts';

const none = new Set<string>();

describe('nextUp', () => {
  it('is the next double above, for positive, negative and zero', () => {
    expect(nextUp(1)).toBe(1 + Number.EPSILON);
    expect(nextUp(1) > 1).toBe(true);
    expect(nextUp(-1)).toBe(-1 + Number.EPSILON / 2);
    expect(nextUp(0)).toBe(Number.MIN_VALUE);
    expect(nextUp(-0)).toBe(Number.MIN_VALUE);
    expect(nextUp(Infinity)).toBe(Infinity);
    for (const x of [0.3, 7.25, -2.5, 1e-300, 123456.789]) {
      const y = nextUp(x);
      expect(y > x).toBe(true);
      expect((x + y) / 2 === x || (x + y) / 2 === y).toBe(true); // nothing in between
    }
  });
});

describe('floorForRate', () => {
  it('picks the lowest floor that lets at most ⌊rate·n⌋ no-tool cases through', () => {
    // 10 tops; rate 0.2 → m = 2: sorted 9 8 7 6 5 4 3 2 1 0; t₃ = 7 → floor just above 7, cases 9 and 8 pass: 0.2
    const tops = [5, 9, 1, 7, 3, 8, 0, 2, 4, 6];
    const f = floorForRate(tops, 0.2)!;
    expect(f.floor).toBe(nextUp(7));
    expect(f.rate).toBe(0.2);
    // rate 0.1 → m = 1: floor just above 8, only 9 passes
    expect(floorForRate(tops, 0.1)).toEqual({ floor: nextUp(8), rate: 0.1 });
    // rate 0 → floor just above the highest
    expect(floorForRate(tops, 0)).toEqual({ floor: nextUp(9), rate: 0 });
  });

  it('ties at the cut are all dropped (the rate may end below the target)', () => {
    // sorted 5 5 5 1; rate 0.5 → m = 2, t₃ = 5 → floor above 5: no case passes
    expect(floorForRate([5, 1, 5, 5], 0.5)).toEqual({ floor: nextUp(5), rate: 0 });
  });

  it('needs no floor when enough cases return nothing, and none reaches a rate eager cases exceed', () => {
    // sorted 3 −∞ −∞ −∞; rate 0.25 → m = 1, t₂ = −∞: no floor, the rate is 1/4
    expect(floorForRate([-Infinity, 3, -Infinity, -Infinity], 0.25)).toEqual({ floor: null, rate: 0.25 });
    // two of four are false positives whatever the floor: 0.25 cannot be reached, 0.5 can
    expect(floorForRate([Infinity, Infinity, 2, 1], 0.25)).toBeUndefined();
    expect(floorForRate([Infinity, Infinity, 2, 1], 0.5)).toEqual({ floor: nextUp(2), rate: 0.5 });
    expect(floorForRate([], 0.1)).toBeUndefined();
    expect(floorForRate([4, 2], 1)).toEqual({ floor: null, rate: 1 });
  });
});

describe('topUnpinned', () => {
  it('skips pinned tools', () => {
    expect(
      topUnpinned(
        [
          ['finish', 9],
          ['a', 4],
        ],
        new Set(['finish']),
      ),
    ).toBe(4);
    expect(topUnpinned([['finish', 9]], new Set(['finish']))).toBe(-Infinity);
    expect(topUnpinned([], none)).toBe(-Infinity);
  });
});

// Two graded cases and two no-tool cases.
//   g1: gold a, ranked a 0.9, b 0.5          g2: gold c, ranked d 0.8, c 0.4
//   n1: ranked e 0.6                          n2: ranked f 0.2
const cases: AbstentionCase[] = [
  {
    expected: ['a'],
    hits: [
      ['a', 0.9],
      ['b', 0.5],
    ],
  },
  {
    expected: ['c'],
    hits: [
      ['d', 0.8],
      ['c', 0.4],
    ],
  },
  { expected: [], hits: [['e', 0.6]] },
  { expected: [], hits: [['f', 0.2]] },
];

describe('operatingCurve', () => {
  const curve = operatingCurve(cases, none)!;

  it('spans the score range with at least 20 floors, ascending', () => {
    expect(curve.length).toBeGreaterThanOrEqual(20);
    expect(curve[0]!.floor).toBe(0.2);
    expect(curve[curve.length - 1]!.floor).toBe(nextUp(0.9));
    for (let i = 1; i < curve.length; i++) expect(curve[i]!.floor).toBeGreaterThan(curve[i - 1]!.floor);
  });

  it('gives hand-computed figures at each floor', () => {
    const at = (f: number) => curve.find((p) => p.floor === f)!;
    // floor 0.2 (the lowest score): nothing dropped. recall@1: g1 1, g2 0 → 0.5; recall@5 1; FP both → 1
    expect(at(0.2)).toEqual({ floor: 0.2, 'recall@1': 0.5, 'recall@5': 1, noToolFalsePositiveRate: 1 });
    // floor 0.9 − 0.7·10/20 = 0.55: g2 keeps d only (c 0.4 dropped) → recall@5 0.5; n1 (0.6) passes, n2 not → 0.5
    const mid = curve.find((p) => Math.abs(p.floor - 0.55) < 1e-12)!;
    expect(mid).toMatchObject({ 'recall@1': 0.5, 'recall@5': 0.5, noToolFalsePositiveRate: 0.5 });
    // above the top: everything dropped
    expect(at(nextUp(0.9))).toEqual({ floor: nextUp(0.9), 'recall@1': 0, 'recall@5': 0, noToolFalsePositiveRate: 0 });
  });

  it('counts eager tools as false positives at every floor, and the search-only rate apart', () => {
    const eager = cases.map((c) => (c.expected.length ? c : { ...c, eagerUnpinned: true }));
    const c = operatingCurve(eager, none, { search: true })!;
    for (const p of c) expect(p.noToolFalsePositiveRate).toBe(1);
    expect(c[c.length - 1]!.searchNoToolFalsePositiveRate).toBe(0);
    expect(c[0]!.searchNoToolFalsePositiveRate).toBe(1);
  });

  it('gives, at every floor, the mean recall of ranking the hits each case keeps (random cases, ties, repeats, NaN, short lists)', () => {
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const many: AbstentionCase[] = Array.from({ length: 300 }, (_, i) => {
      const hits = Array.from({ length: Math.floor(rand() * 9) }, () => [ids[Math.floor(rand() * ids.length)]!, Math.round(rand() * 8) / 8] as const);
      if (i % 37 === 5 && hits.length > 1) hits[1] = [hits[1]![0], Number.NaN];
      hits.sort((x, y) => y[1] - x[1]);
      const expected = i % 4 === 0 ? [] : ids.filter(() => rand() < 0.3);
      return { expected: expected.length || i % 4 === 0 ? expected : ['a'], goldMode: i % 3 === 0 ? ('any' as const) : ('all' as const), hits };
    });
    // the plain computation: keep each case's hits down to the first below the floor, rank, average
    const plain = (k: number, floor: number) => {
      let sum = 0;
      let n = 0;
      for (const c of many) {
        if (!c.expected.length) continue;
        const kept: string[] = [];
        for (const [id, score] of c.hits) {
          if (score < floor) break;
          kept.push(id);
        }
        sum += recallAtK(kept, c.expected, k, c.goldMode);
        n++;
      }
      return sum / n;
    };
    const curve = operatingCurve(many, none)!;
    expect(curve.length).toBeGreaterThan(5);
    for (const p of curve) {
      expect(p['recall@1']).toBe(plain(1, p.floor));
      expect(p['recall@5']).toBe(plain(5, p.floor));
    }
  });

  it('does not apply without both graded and no-tool cases', () => {
    expect(operatingCurve(cases.slice(0, 2), none)).toBeUndefined();
    expect(operatingCurve(cases.slice(2), none)).toBeUndefined();
  });
});

describe('recallAtRates', () => {
  it('reads recall@5 at the floor each rate allows', () => {
    const r = recallAtRates(cases, none)!;
    // 2 no-tool cases: rate 0.05 and 0.1 → m = 0 → floor above 0.6: g1 keeps a (1), g2 keeps d (0) → 0.5
    expect(r['0.05']).toEqual({ 'recall@5': 0.5, floor: nextUp(0.6), noToolFalsePositiveRate: 0 });
    expect(r['0.1']).toEqual(r['0.05']);
    // 0.2 → m = 0 as well (⌊0.4⌋)
    expect(r['0.2']).toEqual(r['0.05']);
    // with 10 no-tool cases 0.2 allows two through
  });

  it('is null where eager tools make the rate unreachable', () => {
    const eager = cases.map((c) => (c.expected.length ? c : { ...c, eagerUnpinned: true }));
    expect(recallAtRates(eager, none)).toEqual({ '0.05': null, '0.1': null, '0.2': null });
  });
});
