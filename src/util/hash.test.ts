import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tinyInput } from '../../test/helpers.ts';
import { canonicalJson } from './hash.ts';

/** The earlier two-step form: a sorted deep copy, then JSON.stringify. Content hashes were taken over it. */
function reference(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[key];
        if (x !== undefined) out[key] = sortKeys(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(value));
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe('{"a":{"d":[1,{"x":1,"y":2}]},"b":1}');
  });

  it('writes the same bytes as the sorted-copy form on awkward values', () => {
    const awkward: unknown[] = [
      null,
      true,
      0,
      -0,
      1.5e300,
      NaN,
      Infinity,
      '',
      'quote " back \\ \n \u2028 \u0000 \ud800 é 🎒',
      [undefined, () => 1, Symbol('s'), null, NaN],
      { '': 1, ' ': 2, B: 3, a: 4, é: 5, '10': 6, '9': 7, __proto__x: 8, f: () => 1, s: Symbol('t'), u: undefined },
      { nested: { z: [{ b: [], a: {} }], y: { '"k"': '<v>' } } },
      { '4294967294': 1, '4294967295': 2, '01': 3, '1': 4, '-1': 5, '1.5': 6, '2': 7, '1e3': 8 },
      new Date(0),
      new String('ab'),
      new Number(3),
      Object.create(null),
    ];
    awkward.forEach((v, i) => expect(canonicalJson(v), `value ${i}`).toBe(reference(v)));
  });

  it('writes the same bytes as the sorted-copy form on generated tools and the MetaTool source file', () => {
    const { g } = tinyInput();
    const values: unknown[] = [...g.dataset.catalog.tools, ...g.dataset.catalog.skills, ...g.dataset.cases];
    values.push(JSON.parse(readFileSync('datasets/metatool/big_tool_des.json', 'utf8')));
    expect(g.dataset.catalog.tools.length).toBeGreaterThan(100);
    for (const v of values) expect(canonicalJson(v)).toBe(reference(v));
  });
});
