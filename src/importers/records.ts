/**
 * The JSON records of a transcript file, one a line, read as a running agent writes them: a last
 * line cut short (the session was still being written), a line that is not JSON, not an object,
 * nested too deep or over the record size are skipped and counted, never fatal. What a record holds
 * is read with the small accessors below, which never throw on an unexpected shape.
 */
import { readTextFile, tooDeep } from '../util/bounded.ts';
import { type FileLine, type LineStats, MAX_RECORD_BYTES, readLines } from '../util/line-reader.ts';
import type { Tally } from './types.ts';

export type Json = Record<string, unknown>;

/** The object records of `file`, in order; what is skipped is counted in `skipped` (see the module comment). */
export function* jsonRecords(file: string, skipped: Tally, maxLineBytes = MAX_RECORD_BYTES): Generator<{ value: Json; line: number }> {
  const stats: LineStats = { tooLong: 0, bytes: 0 };
  for (const l of readLines(file, stats, maxLineBytes)) yield* parsed(l, skipped);
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

/** A time as the formats write it, as ISO (`Date#toISOString`): a number (seconds or milliseconds since 1970) or a string (ISO; no zone = UTC); else undefined. */
export function anyTime(v: unknown): string | undefined {
  let d: Date | undefined;
  if (typeof v === 'number' && Number.isFinite(v)) d = new Date(v > 1e12 ? v : v * 1000);
  else if (typeof v === 'string' && v.trim() !== '') {
    const t = v.trim();
    d = new Date(/^\d{4}-\d\d-\d\dT[\d:.]+$/.test(t) ? `${t}Z` : t);
  }
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined;
}

/**
 * A `.json` file read as one JSON object (a rollout of the TypeScript CLI, an OTLP document): the
 * object, or why not (`not-json`: not one JSON object, e.g. JSON Lines under a .json name;
 * `nested-too-deep`). Never throws.
 */
export function wholeJson(file: string): { value: Json } | { problem: 'not-json' | 'nested-too-deep' } {
  let v: unknown;
  try {
    v = JSON.parse(readTextFile(file));
  } catch {
    return { problem: 'not-json' };
  }
  const value = obj(v);
  if (!value) return { problem: 'not-json' };
  return tooDeep(value) === undefined ? { value } : { problem: 'nested-too-deep' };
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
