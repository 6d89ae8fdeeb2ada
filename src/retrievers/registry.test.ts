import { describe, expect, it } from 'vitest';
import { InputError } from '../catalog/errors.ts';
import { createRetriever, parseRetrieverList, registerRetriever, RETRIEVERS, retrieverNames, unregisterRetriever } from './registry.ts';

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
});
