import { InputError } from './errors.ts';
import type { Located } from './validate.ts';

/**
 * Parse JSON Lines: one JSON object a line, blank lines skipped. A bad line is an `InputError`
 * naming the file and the line number.
 */
export function parseJsonLines(text: string, file: string): Array<Located<Record<string, unknown>>> {
  const out: Array<Located<Record<string, unknown>>> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const where = `line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new InputError(`invalid JSON: ${(err as Error).message}`, { file, where });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError('each line must be a JSON object', { file, where });
    out.push({ value: value as Record<string, unknown>, file, where });
  }
  return out;
}

/** Parse a whole JSON file, with an `InputError` naming the file, line and column on failure. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
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
}
