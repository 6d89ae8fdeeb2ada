import { describe, expect, it } from 'vitest';
import { charBytes, charCount, compareStrings, cutToBytes, cutToChars, utf8Bytes } from './unicode.ts';

describe('text measured as harnesses measure it', () => {
  it('cuts at UTF-8 byte and character boundaries', () => {
    expect(utf8Bytes('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(cutToBytes('aé€😀', 3)).toBe('aé');
    expect(cutToBytes('aé€😀', 5)).toBe('aé'); // € needs 3 more
    expect(cutToBytes('aé€😀', 9)).toBe('aé€'); // 😀 needs 4 more
    expect(cutToBytes('abc', 0)).toBe('');
    expect(cutToChars('a😀b', 2)).toBe('a😀');
  });
});

it('counts code points, not UTF-16 units, and orders by code unit', () => {
  expect(charCount('a😀b')).toBe(3);
  expect('a😀b'.length).toBe(4);
  expect(charCount('\ud800x')).toBe(2); // a lone surrogate is one character
  expect(charBytes('aé€😀')).toEqual([1, 2, 3, 4]);
  expect(cutToChars('😀😀😀', 2)).toBe('😀😀');
  expect(cutToChars('abc', 0)).toBe('');
  expect(['b', 'B', 'a'].sort(compareStrings)).toEqual(['B', 'a', 'b']);
});
