import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputError, tempDir } from '../../test/helpers.ts';
import { type LineStats, readLines } from './line-reader.ts';

const dir = tempDir('lines');
const file = (name: string, content: string | Buffer): string => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe('readLines', () => {
  it('gives the non-blank lines with their numbers, CRLF and a byte-order mark removed', () => {
    const p = file('a.jsonl', '\uFEFF{"a":1}\r\n\r\n  \n{"b":2}\n{"c":3}');
    const lines = [...readLines(p)];
    expect(lines.map((l) => [l.text, l.line, l.terminated])).toEqual([
      ['{"a":1}', 1, true],
      ['{"b":2}', 4, true],
      ['{"c":3}', 5, false],
    ]);
  });

  it('skips a line over the limit without decoding it, and counts it', () => {
    const long = 'x'.repeat(5000);
    const p = file('long.jsonl', `first\n${long}\nlast\n${long}`);
    const stats: LineStats = { tooLong: 0, bytes: 0 };
    const lines = [...readLines(p, stats, 4096)].map((l) => [l.text, l.line]);
    expect(lines).toEqual([
      ['first', 1],
      ['last', 3],
    ]);
    expect(stats).toEqual({ tooLong: 2, firstTooLong: 2, bytes: 6 + 5001 + 5 + 5000 });
  });

  it('reads lines that cross the 1 MiB read blocks whole', () => {
    const a = 'a'.repeat(1024 * 1024 - 3);
    const b = 'b'.repeat(2 * 1024 * 1024);
    const p = file('blocks.jsonl', `${a}\n${b}\nc\n`);
    expect([...readLines(p)].map((l) => [l.text.length, l.text[0]])).toEqual([
      [a.length, 'a'],
      [b.length, 'b'],
      [1, 'c'],
    ]);
  });

  it('marks a line with invalid UTF-8 (replaced), not one holding U+FFFD itself', () => {
    const p = file('utf8.jsonl', Buffer.concat([Buffer.from('ok\uFFFD\n'), Buffer.from([0x61, 0xff, 0x62, 0x0a])]));
    expect([...readLines(p)].map((l) => l.invalidUtf8)).toEqual([false, true]);
  });

  it('reads a sparse 200 MB file of no newline as one line over the limit, in bounded memory', () => {
    const p = join(dir, 'sparse.jsonl');
    writeFileSync(p, '');
    truncateSync(p, 200 * 1024 * 1024);
    const stats: LineStats = { tooLong: 0, bytes: 0 };
    expect([...readLines(p, stats)]).toEqual([]);
    expect(stats.tooLong).toBe(1);
    expect(stats.bytes).toBe(200 * 1024 * 1024);
  });

  it('refuses what is not a regular file: a folder, a FIFO, a missing file', () => {
    expect(inputError(() => [...readLines(dir)]).message).toBe('is a folder, not a file');
    expect(inputError(() => [...readLines(join(dir, 'none'))]).message).toBe('file not found');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(inputError(() => [...readLines(fifo)]).message).toMatch(/not a regular file/);
  });
});
