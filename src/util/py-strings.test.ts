import { describe, expect, it } from 'vitest';
import { compareCodePoints, normalizeWhitespace, pyJson, pyStrip } from './py-strings.ts';

describe('upstream string semantics', () => {
  it('orders strings by code point, as Python str and Rust String do', () => {
    expect(compareCodePoints('\uFF21', '😀')).toBeLessThan(0); // U+FF21 < U+1F600, though '\uFF21' > '\uD83D' in UTF-16
    expect(compareCodePoints('\uffff', '😀')).toBeLessThan(0);
    expect(compareCodePoints('😀', '\uFF21')).toBeGreaterThan(0);
    expect(compareCodePoints('😀', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('B', 'a')).toBeLessThan(0);
    expect(compareCodePoints('a', 'a')).toBe(0);
    const words = ['b', 'é', '\uFF21', '😀', 'a', '🦀', '\uE000', 'ab'];
    expect([...words].sort(compareCodePoints)).toEqual([...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
  });

  it('normalises whitespace as Python split() and strip() do', () => {
    expect(normalizeWhitespace('\x1c a \x85b\ufeff c ')).toBe('a b\ufeff c');
    expect(pyStrip('\x1c a \x85b\ufeff c \x85')).toBe('a \x85b\ufeff c');
  });

  it('writes JSON as Python json.dumps(ensure_ascii=False) does', () => {
    expect(pyJson({ a: [1, 'é\n"'], b: {}, c: [], d: null, e: true })).toBe('{"a": [1, "é\\n\\""], "b": {}, "c": [], "d": null, "e": true}');
  });
});
