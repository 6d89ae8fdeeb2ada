import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { inputError, tempDir } from '../../test/helpers.ts';
import { checkNesting, MAX_CONFIG_BYTES, MAX_NESTING, MAX_TEXT_BYTES, mayNestPast, readTextFile, tooDeep, yamlErrorMessage, yamlValue } from './bounded.ts';
import { parseJson, parseJsonLine } from './jsonl.ts';

const tmp = tempDir('bounded');
const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('nesting', () => {
  it('allows exactly the limit and refuses one level more, with the path of the first value past it', () => {
    expect(tooDeep(JSON.parse(arrays(MAX_NESTING)))).toBeUndefined();
    expect(tooDeep(JSON.parse(arrays(MAX_NESTING + 1)))).toMatch(/^\$\[0\]\[0\]\[0\]\[0\]…\[0\]\[0\]$/);
    expect(tooDeep({ a: { b: [1, { c: {} }] } }, 3)).toBe('$.a.b[1]');
    expect(tooDeep({ a: [{}], 'odd key': { x: 1 } }, 3)).toBeUndefined();
    expect(tooDeep({ a: [{}], 'odd key': { x: 1 } }, 2)).toBe('$.a[0]');
    expect(tooDeep('text')).toBeUndefined();
  });

  it('counts brackets to skip the walk: never says a text that nests past the limit cannot', () => {
    expect(mayNestPast(arrays(MAX_NESTING))).toBe(false);
    expect(mayNestPast(arrays(MAX_NESTING + 1))).toBe(true);
    expect(mayNestPast(JSON.stringify({ a: 'x'.repeat(1000), b: [1, 2, 3] }))).toBe(false);
    expect(mayNestPast(`"${'['.repeat(300)}"`)).toBe(true); // brackets in strings count: a walk, never a miss
  });

  it('walks 100,000 levels without overflowing itself', () => {
    expect(tooDeep(JSON.parse(arrays(100_000)))).toBeDefined();
  });

  it('JSON files and JSON Lines refuse 10,000 levels with a message naming the file and the line', () => {
    const e = inputError(() => parseJson(`{"tools": ${arrays(10_000)}}`, 'tools.json'));
    expect(e.describe()).toMatch(/^tools\.json: arrays and objects nested more than 256 levels deep \(at \$\.tools\[0\]/);
    expect(inputError(() => parseJsonLine(`{"x": ${arrays(300)}}`, 'corpus.jsonl', 'line 7')).describe()).toMatch(
      /^corpus\.jsonl: line 7: arrays and objects nested more than 256/,
    );
    expect(() => checkNesting({ a: 1 }, 'f')).not.toThrow();
  });

  it('an empty JSON file says so', () => {
    expect(inputError(() => parseJson('  \n', 'x.json')).describe()).toBe('x.json: the file is empty: expected JSON');
  });
});

describe('YAML', () => {
  it('refuses an alias bomb and deep nesting, reads an ordinary document', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`),
      'z: *h',
    ].join('\n');
    expect(inputError(() => yamlValue(parseDocument(bomb), 'c.yaml')).message).toMatch(/^invalid YAML: its aliases \(\*name\) expand to more than 100 copies/);
    expect(inputError(() => yamlValue(parseDocument(`x: ${arrays(MAX_NESTING + 1)}`), 'c.yaml')).message).toMatch(/nested more than 256 levels/);
    expect(yamlValue(parseDocument('a: &x 1\nb: *x\n'), 'c.yaml')).toEqual({ a: 1, b: 1 });
    const deep = parseDocument(`x: ${arrays(5_000)}`);
    expect(yamlErrorMessage(deep.errors[0]!.message)).toMatch(/^invalid YAML: nested more than 256 levels/);
  });
});

describe('text files', () => {
  it('names a folder, a missing file and one over the limit; strips a byte-order mark', () => {
    mkdirSync(join(tmp, 'dir'));
    expect(inputError(() => readTextFile(join(tmp, 'dir'))).message).toBe('is a folder, not a text file');
    expect(inputError(() => readTextFile(join(tmp, 'nope'))).message).toBe('file not found');
    const big = join(tmp, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_TEXT_BYTES + 1); // sparse: nothing is written
    expect(inputError(() => readTextFile(big)).message).toBe('is 500 MB (524,288,001 bytes), more than the 500 MB Backpack reads in a text file');
    truncateSync(big, MAX_CONFIG_BYTES + 1);
    expect(inputError(() => readTextFile(big, MAX_CONFIG_BYTES, 'config file')).message).toBe(
      'is 4.0 MB (4,194,305 bytes), more than the 4.0 MB Backpack reads in a config file',
    );
    writeFileSync(join(tmp, 'bom.json'), '\uFEFF{}');
    expect(readTextFile(join(tmp, 'bom.json'))).toBe('{}');
  });
});
