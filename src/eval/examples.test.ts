import { describe, expect, it } from 'vitest';
import { InputError } from '../util/errors.ts';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { augmentCatalog } from './examples.ts';

const catalog: Catalog = {
  tools: ['a', 'b'].map((n) => makeTool({ name: n, source: 'core', summary: '', description: n, examples: n === 'a' ? ['doc example'] : [] })),
  skills: [],
  servers: [],
  plugins: [],
};
const c = (id: string, request: string, expectedTools: string[], split: 'train' | 'test'): Case => ({ id, request, expectedTools, slices: [], split });
const cases = [
  c('1', 'first a', ['a'], 'train'),
  c('2', 'second a', ['a'], 'train'),
  c('3', 'third a', ['a'], 'train'),
  c('4', 'both', ['a', 'b'], 'train'),
  c('5', 'test a', ['a'], 'test'),
  c('6', 'nothing', [], 'test'),
];

describe('augmentCatalog', () => {
  it('adds the first n single-gold train requests to each tool and keeps only test cases to score', () => {
    const { catalog: out, scored, added } = augmentCatalog(catalog, cases, { from: 'train', perTool: 2 }, 'test');
    expect(out.tools[0]!.examples).toEqual(['doc example', 'first a', 'second a']);
    expect(out.tools[1]!.examples).toEqual([]); // the multi-tool request is not an example of b
    expect(out.tools[0]!.hash).not.toBe(catalog.tools[0]!.hash);
    expect(out.tools[1]).toBe(catalog.tools[1]);
    expect(added).toBe(2);
    expect(scored.map((x) => x.id)).toEqual(['5', '6']);
    // no scored request is an example
    const examples = new Set(out.tools.flatMap((t) => t.examples));
    expect(scored.some((x) => examples.has(x.request))).toBe(false);
  });

  it('refuses to take examples from the split it scores', () => {
    expect(() => augmentCatalog(catalog, cases, { from: 'test', perTool: 5 }, 'test')).toThrow(InputError);
  });
});
