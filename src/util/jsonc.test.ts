import { describe, expect, it } from 'vitest';
import { inputError } from '../../test/helpers.ts';
import { parseJson } from './jsonl.ts';
import { stripJsonc } from './jsonc.ts';

describe('stripJsonc', () => {
  it('blanks comments and trailing commas in place, never inside strings', () => {
    const text = '{\n  // a "comment", }\n  "a": "x // not, a comment ]", /* block\n  */ "b": [1, 2,],\n  "c": "\\" /* still a string",\n}\n';
    const out = stripJsonc(text);
    expect(out.length).toBe(text.length);
    expect(out.split('\n').length).toBe(text.split('\n').length);
    expect(JSON.parse(out)).toEqual({ a: 'x // not, a comment ]', b: [1, 2], c: '" /* still a string' });
  });

  it('leaves what is not a trailing comma to the parser, which names the original line and column', () => {
    expect(inputError(() => parseJson(stripJsonc('{\n  // c\n  "s": {,}\n}'), 'f.json')).describe()).toMatch(/f\.json: line 3, column 9: invalid JSON/);
    expect(() => JSON.parse(stripJsonc('[1,,]'))).toThrow();
    expect(() => JSON.parse(stripJsonc('[,]'))).toThrow();
    expect(JSON.parse(stripJsonc('[1, // x\n]'))).toEqual([1]);
  });
});
