import { checkJsonNesting } from './bounded.ts';
import { InputError } from './errors.ts';

/**
 * Parse JSON Lines: one JSON object a line, blank lines skipped. A bad line is an `InputError`
 * naming the file and the line number. Every value is bounded in nesting (see `bounded.ts`).
 */
/** A value with the place it was read from, so a later check can point at the file and line. */
export interface Located<T> {
  value: T;
  file: string;
  /** `line 3`, `$.tools[2]`, `row 5`… */
  where: string;
}

export function parseJsonLines(text: string, file: string): Array<Located<Record<string, unknown>>> {
  const out: Array<Located<Record<string, unknown>>> = [];
  for (const { text: line, where } of nonBlankLines(text)) out.push({ value: parseJsonLine(line, file, where), file, where });
  return out;
}

/** The non-blank lines of a JSON Lines text, trimmed, with where each is (`line N`). */
export function* nonBlankLines(text: string): Generator<{ text: string; where: string }> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line !== '') yield { text: line, where: `line ${i + 1}` };
  }
}

/** One line of JSON Lines: a JSON object, or an `InputError` naming the file and `where`. */
export function parseJsonLine(line: string, file: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new InputError(`invalid JSON: ${(err as Error).message}`, { file, where });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`each line must be a JSON object (got ${describe(value)})`, { file, where });
  checkJsonNesting(line, value, file, where);
  return value as Record<string, unknown>;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/**
 * Parse a whole JSON file, with an `InputError` naming the file, line and column on failure; the
 * value is bounded in nesting (see `bounded.ts`).
 */
export function parseJson(text: string, file: string): unknown {
  if (text.trim() === '') throw new InputError('the file is empty: expected JSON', { file });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const pos = /at position (\d+)/.exec(message);
    let where: string | undefined;
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split('\n').length;
      where = `line ${line}, column ${Number(pos[1]) - before.lastIndexOf('\n')}`;
    } else if (/end of (JSON|data) input/i.test(message)) {
      where = `line ${text.split('\n').length}`;
    }
    throw new InputError(`invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`, { file, ...(where ? { where } : {}) });
  }
  checkJsonNesting(text, value, file);
  return value;
}
