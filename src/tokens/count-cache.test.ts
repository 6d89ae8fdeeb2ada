import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendPartial, corruptLine, flipBytes, truncateTo, warningsOf } from '../../test/cache-damage.ts';
import { tempDir } from '../../test/helpers.ts';
import { TokenCountCache } from './count-cache.ts';
import { countTokens, O200K_TOKENIZER, TOKEN_COUNTERS, tokenCountCache, useTokenCountCache } from './count.ts';

const real = TOKEN_COUNTERS.o200k.count;

describe('the token-count cache', () => {
  it('gives the real count, computes each text once, and keeps counts across processes on disk', () => {
    const dir = tempDir('tokens');
    let calls = 0;
    const counting = (t: string) => {
      calls++;
      return real(t);
    };
    const a = new TokenCountCache(dir, 'o200k', 'tok@1');
    expect(a.count('Hello, world!', counting)).toBe(4);
    expect(a.count('Hello, world!', counting)).toBe(4);
    expect(a.count('a longer text\nwith two lines', counting)).toBe(real('a longer text\nwith two lines'));
    expect(calls).toBe(2);
    expect([a.hits, a.misses]).toEqual([1, 2]);
    a.flush();
    expect(statSync(join(dir, 'o200k', 'counts.bin')).size).toBe(2 * 24);
    const b = new TokenCountCache(dir, 'o200k', 'tok@1');
    expect(b.size).toBe(2);
    expect(b.count('Hello, world!', () => -1)).toBe(4);
    expect(b.misses).toBe(0);
  });

  it('skips a trailing partial record (saying so) and replaces a log of another tokenizer version', () => {
    const dir = tempDir('tokens');
    const a = new TokenCountCache(dir, 'o200k', 'tok@1');
    a.count('one', real);
    a.count('two', real);
    a.flush();
    const file = join(dir, 'o200k', 'counts.bin');
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([1, 2, 3])]));
    expect(warningsOf(() => new TokenCountCache(dir, 'o200k', 'tok@1').size)).toEqual({ value: 2, warnings: [corruptLine(1, file)] });
    const other = new TokenCountCache(dir, 'o200k', 'tok@2');
    expect(other.size).toBe(0);
    other.count('three', real);
    other.flush();
    expect(statSync(file).size).toBe(24);
    expect(JSON.parse(readFileSync(join(dir, 'o200k', 'meta.json'), 'utf8')).tokenizer).toBe('tok@2');
  });

  it('backs countTokens: the same counts with and without the disk log', () => {
    const dir = tempDir('tokens');
    const texts = ['', 'x', '{"name":"mcp__github__search","description":"Search code."}', 'é🎒 mixed\n\n text'];
    const plain = texts.map((t) => countTokens(t));
    try {
      useTokenCountCache(dir);
      expect(texts.map((t) => countTokens(t))).toEqual(plain);
      tokenCountCache().flush();
      useTokenCountCache(dir);
      expect(texts.map((t) => countTokens(t))).toEqual(plain);
      expect(tokenCountCache().misses).toBe(0);
      expect(O200K_TOKENIZER).toMatch(/^gpt-tokenizer@\d+\.\d+\.\d+$/);
      // The estimators are not memoised (they cost less than a hash).
      expect(countTokens('abcdefgh', 'bytes/4')).toBe(2);
    } finally {
      useTokenCountCache(null);
    }
  });
});

/**
 * Checksummed records (issue 18): the counts a cache gives are the tokenizer's, with a clean, an
 * empty or a damaged log; bad records are reported once with their count and the log is repaired.
 * Before checksums a flipped byte in a count was served as that text's count.
 */
describe('the token-count cache: corrupt records', () => {
  const RECORD = 24;
  const texts = Array.from({ length: 30 }, (_, i) => `{"name":"tool_${i}","description":"${'does things '.repeat(i % 7)}"}`);
  const expected = texts.map((t) => real(t));

  /** Each text's count through a cache on `dir`, flushed; and how many were counted, not read. */
  function counts(dir: string, which = texts): { values: number[]; counted: number } {
    const c = new TokenCountCache(dir, 'o200k', 'tok@1');
    let counted = 0;
    const values = which.map((t) =>
      c.count(t, (x) => {
        counted++;
        return real(x);
      }),
    );
    c.flush();
    return { values, counted };
  }

  function clean(): { dir: string; file: string } {
    const dir = tempDir('tokens');
    counts(dir, texts.slice(0, 10));
    counts(dir);
    const file = join(dir, 'o200k', 'counts.bin');
    expect(statSync(file).size).toBe(texts.length * RECORD);
    return { dir, file };
  }

  it('gives the same counts with a clean, an empty and a damaged log: flipped bytes in a count, a key and a checksum', () => {
    const { dir, file } = clean();
    expect(counts(dir)).toEqual({ values: expected, counted: 0 });
    expect(counts(tempDir('tokens'))).toEqual({ values: expected, counted: texts.length });
    flipBytes(file, [4 * RECORD + 16, 9 * RECORD + 2, 21 * RECORD + 22, 22 * RECORD + 19]);
    const { value, warnings } = warningsOf(() => counts(dir));
    expect(value).toEqual({ values: expected, counted: 4 });
    expect(warnings).toEqual([corruptLine(4, file)]);
    expect(statSync(file).size).toBe(texts.length * RECORD);
    expect(warningsOf(() => counts(dir))).toEqual({ value: { values: expected, counted: 0 }, warnings: [] });
  });

  it('a partial record followed by appends: the appends stay aligned and readable', () => {
    const { dir, file } = clean();
    const late = new TokenCountCache(dir, 'o200k', 'tok@1');
    expect(late.size).toBe(texts.length); // a writer that read the log before the partial record was left
    appendPartial(file, 7);
    late.count('late text', real);
    late.flush();
    const { value, warnings } = warningsOf(() => counts(dir, [...texts, 'late text']));
    expect(value).toEqual({ values: [...expected, real('late text')], counted: 0 });
    expect(warnings).toEqual([corruptLine(1, file)]);
    expect(statSync(file).size).toBe((texts.length + 1) * RECORD);
  });

  it('a log cut mid-record, or shifted in the middle, loses only the bad record', () => {
    const { dir, file } = clean();
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 3 * RECORD), bytes.subarray(3 * RECORD, 3 * RECORD + 9), bytes.subarray(4 * RECORD)]));
    truncateTo(file, statSync(file).size - 5);
    const { value, warnings } = warningsOf(() => counts(dir));
    expect(value).toEqual({ values: expected, counted: 2 });
    expect(warnings).toEqual([corruptLine(2, file)]);
    expect(statSync(file).size).toBe(texts.length * RECORD);
    expect(warningsOf(() => counts(dir)).warnings).toEqual([]);
  });
});
