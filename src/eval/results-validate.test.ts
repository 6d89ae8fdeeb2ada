import { describe, expect, it } from 'vitest';
import { inputError } from '../../test/helpers.ts';
import { asOlder, handBuilt } from '../../test/results-fixtures.ts';
import { checkDetails, checkResults, detailProblem } from './results-validate.ts';

describe('results.json against schemas/results.schema.json', () => {
  it('accepts what eval writes (with an extra top-level field, as later versions may add)', () => {
    const r = handBuilt();
    expect(() => checkResults(r, 'results.json')).not.toThrow();
    expect(() => checkResults({ ...r, warnings: ['a note'] }, 'results.json')).not.toThrow();
    expect(() => checkResults(asOlder(r), 'results.json')).not.toThrow(); // written before operating curves and context fit
  });

  it('names the file and the first places that are wrong', () => {
    const r = structuredClone(handBuilt()) as unknown as Record<string, Record<string, unknown>>;
    r.config!.ks = 'x';
    delete r.dataset!.name;
    r.shard = { index: 'one', count: 2 } as unknown as Record<string, unknown>;
    const e = inputError(() => checkResults(r, 'results.json'));
    expect(e.describe()).toMatch(/^results\.json: does not match the results schema \(schemas\/results\.schema\.json\): /);
    expect(e.message).toContain('$.dataset lacks "name"');
    expect(e.message).toContain('$.config.ks must be array');
    expect(e.message).toContain('$.shard.index must be integer');
    expect(e.message).not.toContain('oneOf');
  });

  it('refuses strategy names that would leave the folder, and lists that disagree with config', () => {
    const r = structuredClone(handBuilt());
    const [name] = Object.keys(r.retrievers);
    const escaping = { ...r, retrievers: { '../../x': r.retrievers[name!]! }, config: { ...r.config, retrievers: ['../../x'] } };
    expect(inputError(() => checkResults(escaping, 'results.json')).message).toMatch(/not one Backpack writes/);
    const unlisted = { ...r, config: { ...r.config, retrievers: [] } };
    expect(inputError(() => checkResults(unlisted, 'results.json')).message).toMatch(/which config\.retrievers does not list/);
  });
});

describe('details/*.jsonl lines', () => {
  const ok = { caseId: 'q1', ranked: [['a', 1.5]], pinned: [], leaks: [], ms: 0.1 };
  it('accepts a detail and refuses each broken field with its name', () => {
    expect(detailProblem(ok)).toBeUndefined();
    expect(detailProblem({ ...ok, ranked: null })).toMatch(/"ranked"/);
    expect(detailProblem({ ...ok, ranked: [['a']] })).toMatch(/"ranked"/);
    expect(detailProblem({ ...ok, ms: -1 })).toMatch(/"ms"/);
    expect(detailProblem({ ...ok, exposure: { eagerTools: 1 } })).toMatch(/"exposure\.loadedTools"/);
  });

  it('a case listed twice is refused at its second line', () => {
    const e = inputError(() =>
      checkDetails(
        [
          { value: ok, where: 'line 1' },
          { value: ok, where: 'line 2' },
        ],
        'bm25.jsonl',
      ),
    );
    expect(e.describe()).toBe('bm25.jsonl: line 2: case "q1" is listed twice (first at line 1)');
  });
});
