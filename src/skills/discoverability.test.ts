import { describe, expect, it } from 'vitest';
import type { Case } from '../catalog/types.ts';
import { discoverability } from './discoverability.ts';

const skillCase = (id: string, expectedSkill?: string): Case => ({
  id,
  request: `request ${id}`,
  slices: ['skill'],
  ...(expectedSkill ? { expectedSkill } : {}),
});

describe('discoverability', () => {
  it('splits skill cases into described, name-only and dropped', () => {
    const listing = { listed: ['a', 'b'], withDescription: ['a'] };
    const cases = [skillCase('1', 'a'), skillCase('2', 'b'), skillCase('3', 'c'), { id: '4', request: 'tool', slices: [], expectedTools: ['t'] }];
    expect(discoverability(listing, cases)).toEqual({ cases: 3, withDescription: 1 / 3, nameOnly: 1 / 3, dropped: 1 / 3 });
  });

  it('counts repeated gold skills once per case', () => {
    const listing = { listed: ['a'], withDescription: [] };
    expect(discoverability(listing, [skillCase('1', 'a'), skillCase('2', 'a'), skillCase('3', 'z'), skillCase('4', 'z')])).toEqual({
      cases: 4,
      withDescription: 0,
      nameOnly: 0.5,
      dropped: 0.5,
    });
  });

  it('is null without skill cases', () => {
    expect(discoverability({ listed: ['a'], withDescription: ['a'] }, [skillCase('1')])).toEqual({
      cases: 0,
      withDescription: null,
      nameOnly: null,
      dropped: null,
    });
  });
});
