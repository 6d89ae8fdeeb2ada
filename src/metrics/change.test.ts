import { describe, expect, it } from 'vitest';
import { changedCasesText, changeVerdict, decideChange, minChangedForTest, pValue } from './change.ts';

/** Per-case scores `q1…qn` from a list of values. */
const scores = (values: readonly number[]): Map<string, number> => new Map(values.map((v, i) => [`q${i + 1}`, v]));

describe('the change rule shared by the gate and the comparison report', () => {
  it('needs 6 changed cases for a test at alpha 0.05 (2/2^5 = 0.0625, 2/2^6 = 0.031), 5 at 0.1', () => {
    expect(minChangedForTest(0.05)).toBe(6);
    expect(minChangedForTest(0.1)).toBe(5);
    expect(minChangedForTest(0.01)).toBe(8); // 2/2^7 = 0.0156 ≥ 0.01, 2/2^8 = 0.0078
  });

  it('identical runs: nothing changed, on the named-cases basis, verdict same', () => {
    const c = decideChange(scores([1, 0, 1]), scores([1, 0, 1]))!;
    expect(c).toMatchObject({ pairs: 3, meanDelta: 0, up: [], down: [], basis: 'cases', p: 1, changed: false });
    expect(changeVerdict(c, true)).toBe('same');
  });

  it('one lost case of 13: too few for a test (p = 1 exactly), so the case decides: changed, worse, named', () => {
    const base = scores(Array(13).fill(1));
    const head = scores([...Array(6).fill(1), 0, ...Array(6).fill(1)]);
    const c = decideChange(base, head)!;
    expect(c.basis).toBe('cases');
    expect(c.p).toBe(1); // m = 1: both sign patterns give |Σ| = 1
    expect(c.changed).toBe(true);
    expect(c.down).toEqual(['q7']);
    expect(c.meanDelta).toBeCloseTo(-1 / 13, 12);
    expect(changeVerdict(c, true)).toBe('worse');
    expect(changedCasesText(c, true)).toBe('1 lost (q7)');
    // for a lower-is-better figure (a false-positive rate) a rise is the loss
    expect(changeVerdict(decideChange(scores([0, 0]), scores([1, 0]))!, false)).toBe('worse');
  });

  it('changed cases that cancel out are noise, not a change', () => {
    const c = decideChange(scores([1, 0, 1]), scores([0, 1, 1]))!;
    expect(c).toMatchObject({ basis: 'cases', changed: false, up: ['q2'], down: ['q1'] });
    expect(changeVerdict(c, true)).toBe('noise');
    expect(changedCasesText(c, true)).toBe('1 lost (q1), 1 won (q2)');
    expect(changedCasesText(c, null)).toBe('1 fell (q1), 1 rose (q2)');
  });

  it('with 8 changed cases the exact test decides: all lost is p = 2/256 (worse); half and half is p = 1 (within noise)', () => {
    const base = scores(Array(20).fill(1));
    const allLost = decideChange(base, scores([...Array(8).fill(0), ...Array(12).fill(1)]))!;
    expect(allLost.basis).toBe('test');
    expect(allLost.p).toBeCloseTo(2 / 256, 12);
    expect(changeVerdict(allLost, true)).toBe('worse');
    const mixed = decideChange(scores([1, 1, 1, 1, 0, 0, 0, 0]), scores([0, 0, 0, 0, 1, 1, 1, 1]))!;
    expect(mixed.basis).toBe('test');
    expect(mixed.p).toBe(1);
    expect(changeVerdict(mixed, true)).toBe('noise');
    // a figure with no better direction that changed is "changed"
    expect(changeVerdict(allLost, null)).toBe('changed');
  });

  it('pairs only the cases both runs scored, names at most `max` ids, and prints p-values alike', () => {
    const c = decideChange(new Map([['a', 1]]), new Map([['b', 0]]));
    expect(c).toBeUndefined();
    const many = decideChange(scores(Array(7).fill(1)), scores(Array(7).fill(0)))!;
    expect(changedCasesText(many, true, 3)).toBe('7 lost (q1, q2, q3, … 4 more)');
    expect(pValue(0.0123)).toBe('0.012');
    expect(pValue(0.00025)).toBe('0.00025');
  });
});
