/**
 * The one table of transcript formats `backpack import` reads, and format detection. Detection
 * looks at a file's first records (its first JSON lines, or its whole value for a JSON document)
 * and takes the first format in table order whose `detect` says yes; `--from` names one instead.
 */
import { statSync } from 'node:fs';
import { InputError, setting } from '../util/errors.ts';
import { Registry } from '../util/registry.ts';
import { readTextFile } from '../util/bounded.ts';
import { API_LOG_FORMAT } from './api-log.ts';
import { CLAUDE_CODE_FORMAT } from './claude-code.ts';
import { CODEX_FORMAT } from './codex.ts';
import { OTEL_FORMAT } from './otel.ts';
import { firstRecords } from './records.ts';
import type { TranscriptFormat } from './types.ts';

export const TRANSCRIPT_FORMAT_TABLE = {
  'claude-code': CLAUDE_CODE_FORMAT,
  codex: CODEX_FORMAT,
  'api-log': API_LOG_FORMAT,
  otel: OTEL_FORMAT,
} as const satisfies Record<string, TranscriptFormat>;

export const transcriptFormats = new Registry<TranscriptFormat>(TRANSCRIPT_FORMAT_TABLE, {
  kind: 'transcript format',
  unknown: (name, names) => new InputError(`${setting('from')}: unknown format "${name}"; formats: ${names.join(', ')}`),
});

/** A JSON document (not JSON Lines) is read whole for detection only up to this size. */
const MAX_DETECT_DOCUMENT = 64 * 1024 * 1024;

/** The first records of `file` as detection sees them; never throws. */
function sample(file: string): unknown[] {
  const first = firstRecords(file);
  if (first.length || !/\.json$/i.test(file)) return first;
  // a pretty-printed JSON document: its whole value
  try {
    if (statSync(file).size > MAX_DETECT_DOCUMENT) return [];
    return [JSON.parse(readTextFile(file))];
  } catch {
    return [];
  }
}

/** The name of the format `file` is in, or undefined when no format recognises it. */
export function detectTranscriptFormat(file: string): string | undefined {
  const first = sample(file);
  if (!first.length) return undefined;
  for (const [name, f] of transcriptFormats.entries()) if (f.detect(first)) return name;
  return undefined;
}
