/**
 * The project's own expected figures (regressions/*.json): any change that moves a retrieval
 * figure fails here until the figures are deliberately updated with `npm run regressions:update`
 * and the diff reviewed. Lexical retrievers must match exactly; model-based ones within a small
 * tolerance (float rounding can differ between CPUs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPROXIMATE, computeFigures, figuresFile, SUITES, TOLERANCE } from '../scripts/regressions.ts';

describe.each(Object.keys(SUITES))('expected figures on %s', (suite) => {
  it('are reproduced', async () => {
    const expected = JSON.parse(readFileSync(figuresFile(suite), 'utf8'));
    const actual = await computeFigures(suite);
    expect(actual.catalogSha256, 'the catalog changed').toBe(expected.catalogSha256);
    expect(actual.cases).toBe(expected.cases);
    expect(Object.keys(actual.retrievers)).toEqual(Object.keys(expected.retrievers));
    expect(Object.keys(actual.profiles ?? {})).toEqual(Object.keys(expected.profiles ?? {}));
    for (const [name, p] of Object.entries(actual.profiles ?? {})) {
      if (!APPROXIMATE.has(name)) expect(p.exposure, `${suite} ${name} exposure`).toEqual(expected.profiles[name].exposure);
    }
    for (const [name, r] of [...Object.entries(actual.retrievers), ...Object.entries(actual.profiles ?? {})]) {
      const want = expected.retrievers[name] ?? expected.profiles[name];
      const rates = (r as { recallAtFalsePositiveRate?: unknown }).recallAtFalsePositiveRate;
      if (!APPROXIMATE.has(name)) {
        expect(r.overall, `${suite} ${name} overall`).toEqual(want.overall);
        expect(r.slices, `${suite} ${name} slices`).toEqual(want.slices);
        expect(rates, `${suite} ${name} recallAtFalsePositiveRate`).toEqual(want.recallAtFalsePositiveRate);
        continue;
      }
      for (const [rate, p] of Object.entries((rates ?? {}) as Record<string, { 'recall@5': number } | null>)) {
        const w = want.recallAtFalsePositiveRate?.[rate];
        expect(p === null, `${suite} ${name} recall@5 at rate ${rate} applies`).toBe(w === null || w === undefined);
        if (p && w) expect(Math.abs(p['recall@5'] - w['recall@5']), `${suite} ${name} recall@5 at rate ${rate}`).toBeLessThanOrEqual(TOLERANCE);
      }
      expect(Object.keys(r.overall)).toEqual(Object.keys(want.overall));
      for (const [k, v] of Object.entries(r.overall)) expect(Math.abs(v - want.overall[k]), `${suite} ${name} ${k}: ${v} vs ${want.overall[k]}`).toBeLessThanOrEqual(TOLERANCE * Math.max(1, Math.abs(want.overall[k])));
    }
    expect(actual.configHash).toBe(expected.configHash);
  });
});
