import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    expect(statSync(join(dir, 'o200k', 'counts.bin')).size).toBe(2 * 20);
    const b = new TokenCountCache(dir, 'o200k', 'tok@1');
    expect(b.size).toBe(2);
    expect(b.count('Hello, world!', () => -1)).toBe(4);
    expect(b.misses).toBe(0);
  });

  it('ignores a trailing partial record and replaces a log of another tokenizer version', () => {
    const dir = tempDir('tokens');
    const a = new TokenCountCache(dir, 'o200k', 'tok@1');
    a.count('one', real);
    a.count('two', real);
    a.flush();
    const file = join(dir, 'o200k', 'counts.bin');
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([1, 2, 3])]));
    expect(new TokenCountCache(dir, 'o200k', 'tok@1').size).toBe(2);
    const other = new TokenCountCache(dir, 'o200k', 'tok@2');
    expect(other.size).toBe(0);
    other.count('three', real);
    other.flush();
    expect(statSync(file).size).toBe(20);
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
