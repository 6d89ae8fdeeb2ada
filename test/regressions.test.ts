/**
 * The project's own expected figures (regressions/*.json): any change that moves a retrieval
 * figure on MetaTool or on the small preset fails here until the figures are deliberately
 * updated with `npm run regressions:update` and the diff reviewed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeFigures, figuresFile, SUITES } from '../scripts/regressions.ts';

describe.each(Object.keys(SUITES))('expected figures on %s', (suite) => {
  it('are reproduced exactly', async () => {
    const expected = JSON.parse(readFileSync(figuresFile(suite), 'utf8'));
    const actual = await computeFigures(suite);
    expect(actual.catalogSha256, 'the catalog changed').toBe(expected.catalogSha256);
    expect(actual.cases).toBe(expected.cases);
    for (const [name, r] of Object.entries(actual.retrievers)) {
      expect(r.overall, `${suite} ${name} overall`).toEqual(expected.retrievers[name].overall);
      expect(r.slices, `${suite} ${name} slices`).toEqual(expected.retrievers[name].slices);
    }
    expect(actual.configHash).toBe(expected.configHash);
  });
});
