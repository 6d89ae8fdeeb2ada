/**
 * The shape of a dataset's `realism.json` (see `manifest.ts` `Realism`), checked before `inspect`
 * prints it: every figure the realism section shows must be there with its type, so a hand-edited
 * or truncated file is an `InputError` naming the file and the field (exit 2), not a crash while
 * formatting. Reading the file (JSON, schema version) is `readRealism`'s (dataset-files.ts).
 */
import { InputError } from '../util/errors.ts';
import type { Realism } from './manifest.ts';

const describe = (v: unknown): string => (v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Why `value` is not a realism.json `inspect` can show (`$.overall.cases must be a number (got null)`), or undefined. */
export function realismProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `must be a JSON object (got ${describe(value)})`;
  const need = (v: unknown, ok: boolean, path: string, what: string): string | undefined => (ok ? undefined : `${path} must be ${what} (got ${describe(v)})`);
  const figures = (x: unknown, path: string): string | undefined => {
    if (!isRecord(x)) return `${path} must be an object of figures (got ${describe(x)})`;
    const count = need(x.cases, isNumber(x.cases), `${path}.cases`, 'a number');
    if (count) return count;
    for (const k of ['distinctRatio', 'meanGoldWordOverlap', 'bm25RecallAt5', 'bm25ExpandedRecallAt5', 'expansionLeak'] as const) {
      const p = need(x[k], x[k] === null || isNumber(x[k]), `${path}.${k}`, 'a number or null');
      if (p) return p;
    }
    return undefined;
  };
  const phrases = (u: unknown, path: string): string | undefined => {
    if (!isRecord(u)) return `${path} must be an object (got ${describe(u)})`;
    for (const k of ['anyShare', 'toolRequests'] as const) {
      const p = need(u[k], isNumber(u[k]), `${path}.${k}`, 'a number');
      if (p) return p;
    }
    if (!Array.isArray(u.top5)) return `${path}.top5 must be a list (got ${describe(u.top5)})`;
    const bad = u.top5.findIndex((t) => !isRecord(t) || typeof t.phrase !== 'string' || !isNumber(t.share));
    return bad >= 0 ? `${path}.top5[${bad}] must be {"phrase": text, "share": number}` : undefined;
  };
  const overall = figures(value.overall, '$.overall');
  if (overall) return overall;
  if (!isRecord(value.slices)) return `$.slices must be an object of figures by slice (got ${describe(value.slices)})`;
  for (const [name, x] of Object.entries(value.slices)) {
    const p = figures(x, `$.slices[${JSON.stringify(name)}]`);
    if (p) return p;
  }
  const fillers = phrases(value.fillers, '$.fillers') ?? phrases(value.placeholders, '$.placeholders');
  if (fillers) return fillers;
  const t = value.noTool;
  if (!isRecord(t)) return `$.noTool must be an object (got ${describe(t)})`;
  // Schema 2 on (generator 3.0): surface, sessions and frames, each optional, checked when present.
  const numbersOrNull = (x: unknown, path: string, keys: readonly string[]): string | undefined => {
    if (x === undefined) return undefined;
    if (!isRecord(x)) return `${path} must be an object (got ${describe(x)})`;
    for (const k of keys) {
      const p = need(x[k], x[k] === null || isNumber(x[k]), `${path}.${k}`, 'a number or null');
      if (p) return p;
    }
    return undefined;
  };
  const v2 =
    numbersOrNull(value.surface, '$.surface', [
      'requests',
      'medianWords',
      'questions',
      'goldWordOverlap',
      'productNamed',
      'inventedIds',
      'overIn',
      'trailingParen',
      'leadingLabel',
    ]) ??
    numbersOrNull(value.sessions, '$.sessions', ['sessions', 'laterGradedTurns', 'reuseEarlierTool', 'staysOnServer', 'previousTurnTool']) ??
    (value.frames === undefined ? undefined : phrases(value.frames, '$.frames'));
  if (v2) return v2;
  return (
    need(t.cases, isNumber(t.cases), '$.noTool.cases', 'a number') ??
    need(t.distinct, isNumber(t.distinct), '$.noTool.distinct', 'a number') ??
    need(t.distinctRatio, t.distinctRatio === null || isNumber(t.distinctRatio), '$.noTool.distinctRatio', 'a number or null')
  );
}

/** `realism` (as `readRealism` returned it), or an `InputError` at `file` when `inspect` could not show it. */
export function checkRealism(realism: Realism | null, file: string): Realism | null {
  if (realism === null) return null;
  const problem = realismProblem(realism);
  if (problem) throw new InputError(`not a realism file Backpack can show: ${problem}`, { file });
  return realism;
}
