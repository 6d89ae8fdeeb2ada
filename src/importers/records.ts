/**
 * The JSON records of a transcript file, one a line, read as a running agent writes them: a last
 * line cut short (the session was still being written), a line that is not JSON, not an object,
 * nested too deep or over the record size are skipped and counted, never fatal. What a record holds
 * is read with the small accessors below, which never throw on an unexpected shape.
 */
import { tooDeep } from '../util/bounded.ts';
import { type FileLine, type LineStats, MAX_RECORD_BYTES, readLines } from '../util/line-reader.ts';
import type { Tally } from './types.ts';

export type Json = Record<string, unknown>;

/** The object records of `file`, in order; what is skipped is counted in `skipped` (see the module comment). */
export function* jsonRecords(file: string, skipped: Tally, maxLineBytes = MAX_RECORD_BYTES): Generator<{ value: Json; line: number }> {
  const stats: LineStats = { tooLong: 0, bytes: 0 };
  let pending: FileLine | undefined;
  for (const l of readLines(file, stats, maxLineBytes)) {
    if (pending) yield* parsed(pending, skipped);
    pending = l;
  }
  if (pending) yield* parsed(pending, skipped);
  if (stats.tooLong) skipped.add('record-too-large', stats.tooLong);
}

function* parsed(l: FileLine, skipped: Tally): Generator<{ value: Json; line: number }> {
  let value: unknown;
  try {
    value = JSON.parse(l.text);
  } catch {
    skipped.add(l.terminated ? 'not-json' : 'truncated-last-line');
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    skipped.add('not-an-object');
    return;
  }
  if (tooDeep(value) !== undefined) {
    skipped.add('nested-too-deep');
    return;
  }
  if (l.invalidUtf8) skipped.add('invalid-utf8-replaced');
  yield { value: value as Json, line: l.line };
}

/** `v` as an object, or undefined. */
export function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** `v` as an array, or an empty one. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `v` as a string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A valid ISO-8601 time, normalised (`Date#toISOString`), or undefined. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The first records of a file, parsed (for format detection): at most `n` lines, lines that are not JSON skipped; never throws. */
export function firstRecords(file: string, n = 32): unknown[] {
  const out: unknown[] = [];
  try {
    for (const l of readLines(file, { tooLong: 0, bytes: 0 }, 4 * 1024 * 1024)) {
      try {
        out.push(JSON.parse(l.text));
      } catch {
        // a line that is not JSON (or cut short) says nothing about the format
      }
      if (out.length >= n || l.line > n * 4) break;
    }
  } catch {
    // unreadable: no format matches, and the read reports why
  }
  return out;
}
