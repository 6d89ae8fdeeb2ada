/**
 * Reading a large line-oriented file (an agent transcript can be hundreds of MB) one line at a time,
 * without holding the file, or an overlong line, in memory: the file is read in 1 MiB blocks; a
 * line longer than `maxLineBytes` is skipped as it streams by (counted, never decoded). Lines are
 * decoded as UTF-8, a byte-order mark at the start and a `\r` before each `\n` removed.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from './errors.ts';

/** Bytes of one record Backpack reads from a transcript (a line longer than this is skipped and counted). */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

const BLOCK = 1024 * 1024;

/** One non-blank line of a file. */
export interface FileLine {
  text: string;
  /** 1-based line number. */
  line: number;
  /** False for a last line with no newline after it (a file being written, or cut short). */
  terminated: boolean;
  /** The line held invalid UTF-8 (replaced with U+FFFD). */
  invalidUtf8: boolean;
}

/** What reading a file skipped. */
export interface LineStats {
  /** Lines longer than the limit, skipped. */
  tooLong: number;
  /** The line number of the first of them. */
  firstTooLong?: number;
  bytes: number;
}

/** Throw an `InputError` unless `file` is a regular file (a folder, a FIFO or a device would block or mislead). */
export function requireRegularFile(file: string): number {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? (err as Error).message})`, { file });
  }
  if (st.isDirectory()) throw new InputError('is a folder, not a file', { file });
  if (!st.isFile()) throw new InputError('is not a regular file (a FIFO, socket or device): Backpack reads files', { file });
  return st.size;
}

/**
 * The non-blank lines of `file`, in order (see the module comment). `stats` is filled in as the
 * file is read. Every failure to read is an `InputError` naming the file.
 */
export function* readLines(file: string, stats: LineStats = { tooLong: 0, bytes: 0 }, maxLineBytes = MAX_RECORD_BYTES): Generator<FileLine> {
  requireRegularFile(file);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new InputError(`cannot read file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file });
  }
  try {
    const block = Buffer.allocUnsafe(BLOCK);
    let parts: Buffer[] = [];
    let partBytes = 0;
    let overlong = false;
    let line = 1;
    let first = true;
    const finish = (terminated: boolean): FileLine | undefined => {
      const at = line++;
      if (overlong) {
        overlong = false;
        stats.tooLong++;
        stats.firstTooLong ??= at;
        return undefined;
      }
      let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes);
      parts = [];
      partBytes = 0;
      if (first) {
        first = false;
        if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      }
      if (bytes.length && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
      const text = bytes.toString('utf8');
      if (text.trim() === '') return undefined;
      const invalidUtf8 = text.includes('\uFFFD') && !bytes.includes(Buffer.from([0xef, 0xbf, 0xbd]));
      return { text, line: at, terminated, invalidUtf8 };
    };
    const take = (piece: Buffer): void => {
      if (overlong || piece.length === 0) return;
      if (partBytes + piece.length > maxLineBytes) {
        overlong = true;
        parts = [];
        partBytes = 0;
        return;
      }
      parts.push(Buffer.from(piece)); // the block is reused: copy what is kept
      partBytes += piece.length;
    };
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, block, 0, BLOCK, null);
      } catch (err) {
        throw new InputError(`cannot read file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file });
      }
      if (n === 0) break;
      stats.bytes += n;
      let start = 0;
      for (let nl = block.indexOf(0x0a, start); nl >= 0 && nl < n; nl = block.indexOf(0x0a, start)) {
        take(block.subarray(start, nl));
        start = nl + 1;
        const out = finish(true);
        if (out) yield out;
      }
      if (start < n) take(block.subarray(start, n));
    }
    if (partBytes > 0 || overlong) {
      const out = finish(false);
      if (out) yield out;
    }
  } finally {
    closeSync(fd);
  }
}
