import { describe, expect, it } from 'vitest';
import { handBuilt } from '../../test/results-fixtures.ts';
import { formatRunSummary } from './summary.ts';

describe('the console summary', () => {
  it('marks a figure over fewer than 10 cases of its kind with † and says why under the table', () => {
    const plain = formatRunSummary(handBuilt());
    expect(plain).not.toContain('†');
    const r = handBuilt();
    r.retrievers.bm25!.metrics.overall.noToolCases = 7;
    const fp = r.retrievers.bm25!.metrics.overall.noToolFalsePositiveRate!;
    const out = formatRunSummary(r);
    const bm25 = out.split('\n').find((l) => l.startsWith('bm25 '))!;
    expect(bm25).toContain(`${fp.toFixed(3)}†`);
    // only that figure: recall@5 is over enough graded cases
    expect(bm25.match(/†/g)).toHaveLength(1);
    expect(out).toContain('† thin: a mean over fewer than 10 cases of the kind it counts (7 no-tool cases): one case moves it by a tenth or more');
  });
});
