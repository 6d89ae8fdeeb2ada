import { describe, expect, it } from 'vitest';
import { InputError } from '../util/errors.ts';
import { CalibratedHybridRetriever, HybridRetriever } from './hybrid.ts';
import { createRetriever, parseRetrieverList, registerRetriever, RETRIEVERS, retrieverNames, unregisterRetriever } from './registry.ts';
import { isCalibrating } from './types.ts';

describe('retriever registry', () => {
  it('lists the built-in retrievers in table order', () => {
    expect(retrieverNames().slice(0, Object.keys(RETRIEVERS).length)).toEqual(Object.keys(RETRIEVERS));
    expect(retrieverNames()).toContain('bm25');
  });

  it('fails on an unknown name with a "did you mean" and the list', () => {
    expect(() => createRetriever('bm52')).toThrow(InputError);
    expect(() => createRetriever('bm52')).toThrow(/unknown retriever "bm52" \(did you mean bm25/);
  });

  it('refuses a duplicate name and a malformed one', () => {
    const factory = { description: 'x', create: () => createRetriever('bm25') };
    expect(() => registerRetriever('bm25', factory)).toThrow(/already registered/);
    registerRetriever('test-extra', factory);
    try {
      expect(() => registerRetriever('test-extra', factory)).toThrow(/already registered/);
      expect(retrieverNames()).toContain('test-extra');
    } finally {
      unregisterRetriever('test-extra');
    }
    expect(() => registerRetriever('Bad Name', factory)).toThrow(/lowercase/);
  });

  it('parses a retriever list, rejecting repeats and unknown names', () => {
    expect(parseRetrieverList('bm25, bm25-plain')).toEqual(['bm25', 'bm25-plain']);
    expect(() => parseRetrieverList('bm25,bm25')).toThrow(/twice/);
    expect(() => parseRetrieverList('')).toThrow(/no retriever/);
    expect(() => parseRetrieverList('bm25,nope')).toThrow(/unknown retriever "nope"/);
  });

  it('keeps the names hybrid and hybrid-rrf, now calibrated (comparable scores), and the per-request z-score fusion as hybrid-zscore', () => {
    const hybrid = createRetriever('hybrid');
    const rrf = createRetriever('hybrid-rrf');
    const z = createRetriever('hybrid-zscore');
    expect(hybrid).toBeInstanceOf(CalibratedHybridRetriever);
    expect(rrf).toBeInstanceOf(CalibratedHybridRetriever);
    expect(z).toBeInstanceOf(HybridRetriever);
    expect((hybrid as CalibratedHybridRetriever).describe()).toMatchObject({ name: 'hybrid', features: 'zscore', coefficientsFrom: 'defaults' });
    expect((rrf as CalibratedHybridRetriever).describe()).toMatchObject({ name: 'hybrid-rrf', features: 'rrf', coefficientsFrom: 'defaults' });
    expect((z as HybridRetriever).describe()).toMatchObject({ method: 'zscore', weights: [0.4, 0.6] });
    // only the calibrated ones take a calibration source
    expect(Object.keys(RETRIEVERS).filter((n) => isCalibrating(createRetriever(n, { roles: { roles: {}, always: [] } as never })))).toEqual([
      'hybrid',
      'hybrid-rrf',
    ]);
    // both children of the hybrids are the registry's bm25 and embed, with the user's model
    expect((createRetriever('hybrid', { model: 'x/y' }) as CalibratedHybridRetriever).children.map((c) => c.name)).toEqual(['bm25', 'embed']);
  });

  it("states every built-in retriever's score scale (floors are on it)", () => {
    for (const [name, f] of Object.entries(RETRIEVERS)) {
      expect(f.description, name).toMatch(/Score: /);
      expect(f.description, name).toMatch(/floor/);
    }
  });
});
