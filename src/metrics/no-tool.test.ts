import { describe, expect, it } from 'vitest';
import { noToolFalsePositive } from './no-tool.ts';

describe('noToolFalsePositive', () => {
  const pinned = new Set(['finish', 'escalate']);

  it('is 0 when nothing or only pinned tools survived the floor', () => {
    expect(noToolFalsePositive([], pinned)).toBe(0);
    expect(noToolFalsePositive(['finish'], pinned)).toBe(0);
    expect(noToolFalsePositive(['finish', 'escalate', 'finish'], pinned)).toBe(0);
  });

  it('is 1 when any non-pinned tool survived, wherever it is in the list', () => {
    expect(noToolFalsePositive(['crm__find'], pinned)).toBe(1);
    expect(noToolFalsePositive(['finish', 'escalate', 'crm__find'], pinned)).toBe(1);
    expect(noToolFalsePositive(['a', 'b', 'c'], new Set())).toBe(1); // one case, still 1, not 3
  });
});
