import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.ts';
import { applyRenames, readRenames, unrenamed } from './renames.ts';
import type { Case } from './types.ts';

const tmp = tempDir('renames');
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

describe('renames files', () => {
  it('reads a JSON object and a CSV with the header old,new', () => {
    expect(readRenames(file('a.json', '{"x__a": "x__b"}'))).toEqual(new Map([['x__a', 'x__b']]));
    expect(readRenames(file('a.csv', 'old,new\nx__a,x__b\ny__c,y__d\n'))).toEqual(
      new Map([
        ['x__a', 'x__b'],
        ['y__c', 'y__d'],
      ]),
    );
  });

  it('refuses what cannot be a rename, naming the place', () => {
    expect(() => readRenames(file('b.json', '["x"]'))).toThrow(/must be a JSON object/);
    expect(() => readRenames(file('c.json', '{"x": 3}'))).toThrow(/the new id must be a string/);
    expect(() => readRenames(file('d.json', '{"x": "x"}'))).toThrow(/renamed to itself/);
    expect(() => readRenames(file('e.json', '{"a": "b", "b": "c"}'))).toThrow(/"a" → "b", which is renamed again: give the final id/);
    expect(() => readRenames(file('f.csv', 'from,to\na,b\n'))).toThrow(/the header "old,new"/);
    expect(() => readRenames(file('g.csv', 'old,new\na,b\na,c\n'))).toThrow(/"a" is renamed twice/);
  });

  it('maps gold and hard negatives whose old id left the catalog, says which it ignored, and maps back', () => {
    const cases: Case[] = [
      { id: 'c1', request: 'r', expectedTools: ['old', 'keep'], hardNegatives: ['old'], slices: [] },
      { id: 'c2', request: 'r', expectedTools: ['keep'], slices: [] },
      { id: 'c3', request: 'r', expectedTools: ['still'], slices: [] },
    ];
    const ids = new Set(['new', 'keep', 'still', 'still2']);
    const r = applyRenames(
      cases,
      new Map([
        ['old', 'new'],
        ['still', 'still2'],
      ]),
      ids,
      'renames.json',
    );
    expect(r.cases[0]).toMatchObject({ expectedTools: ['new', 'keep'], hardNegatives: ['new'] });
    expect(r.cases[1]).toBe(cases[1]); // untouched
    expect(r.cases[2]).toBe(cases[2]); // "still" is in the catalog: not renamed
    expect(r.ignored).toEqual(['still']);
    expect(r.applied).toEqual(new Map([['old', { to: 'new', cases: ['c1'] }]]));
    expect(unrenamed(r.cases, Object.fromEntries(r.applied))).toEqual(cases);
    expect(() => applyRenames(cases, new Map([['old', 'gone']]), ids, 'renames.json')).toThrow(/"old" → "gone", which the catalog does not have/);
  });
});
