/**
 * The tolerances `backpack bless` writes next to the figures it pins, one rule per kind of figure
 * (docs/gate.md, "Tolerances bless writes"):
 *
 * - a **token figure** (`tokens.*`): `{ rel: 0.05 }`. Token counts are deterministic, but editing one
 *   description moves the catalog's totals by a few per cent; 5 % lets such an edit through
 *   (OKISH up to 7.5 %) and still fails a catalog that grows by a tenth.
 * - a **rate** (a mean of per-case scores in [0, 1]: `top1`, `recall@k`, `mrr@k`, `ndcg@k`,
 *   `visible`, `noToolFalsePositiveRate`, …) over `n` cases: `{ abs: T }` with
 *
 *       T = min(0.005, max(1/n, √(p(1−p)/n)))      p = the blessed value
 *
 *   √(p(1−p)/n) is the binomial standard error at the blessed value, and for a mean of scores in
 *   [0, 1] (recall with several gold tools, mrr, ndcg) an upper bound on its standard error
 *   (Bhatia–Davis: the variance of a [0, 1] score with mean p is at most p(1−p)). It is the noise
 *   floor of a large set: a move below one standard error is within what another sample of cases
 *   would give. The floor 1/n (one case's worth) keeps a rate pinned at 0 or 1 from tolerating
 *   nothing: one case passes, two fail. The cap 0.005 is the gate's built-in default, so bless
 *   never writes a looser rate tolerance than a hand-written file without tolerances gets; on a
 *   small set the cap wins and a single case is more than 1.5 T (FAIL) up to n = 133.
 *   `n` is the figure's own denominator: `noToolCases` for the no-tool false-positive rates,
 *   `multiGoldCases` for `allGold@k`/`anyGold@k`, `gradedCases` for the others.
 * - a **count** (`cases`, `gradedCases`, `noToolCases`, `multiGoldCases`): `{ abs: 0 }`, exact.
 * - `scopeLeakCount`: nothing (the gate tolerates no leak whatever the file says).
 *
 * Written tolerances are rounded up to 3 significant digits, so the file stays readable and the
 * written value is never tighter than the rule's.
 */
import type { Results } from '../eval/results.ts';
import { InputError, setting } from '../util/errors.ts';
import { casesBehindKind, METRICS } from '../metrics/ids.ts';
import type { Figure } from './figures.ts';
import { DEFAULT_TOLERANCE, type Tolerance } from './schema.ts';

/** The relative tolerance of a token figure. */
export const TOKEN_REL_TOLERANCE = 0.05;

/** The largest absolute tolerance bless writes for a rate: the gate's built-in default. */
export const RATE_TOLERANCE_CAP = DEFAULT_TOLERANCE.abs!;

/** The count a rate is a mean over, in a strategy's overall table. */
export function denominatorOf(f: Figure): 'gradedCases' | 'noToolCases' | 'multiGoldCases' | null {
  return f.kind === 'metric' ? casesBehindKind(f.metric.kind) : null;
}

/** Round `x` up to 3 significant digits (0 stays 0). */
export function roundUp3(x: number): number {
  if (x <= 0) return 0;
  const scale = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Number((Math.ceil(x / scale - 1e-9) * scale).toPrecision(3));
}

/** The absolute tolerance of a rate `p` over `n` cases (see the module comment), before rounding. */
export function rateTolerance(p: number, n: number): number {
  if (!(n > 0)) return RATE_TOLERANCE_CAP;
  const q = Math.min(1, Math.max(0, p));
  const se = Math.sqrt((q * (1 - q)) / n);
  return Math.min(RATE_TOLERANCE_CAP, Math.max(1 / n, se));
}

/**
 * The tolerance bless writes for figure `f` of `strategy` blessed at `value`, or `null` for none
 * (`scopeLeakCount`).
 */
export function blessTolerance(r: Results, strategy: string, f: Figure, value: number): Tolerance | null {
  if (f.kind === 'tokens') return { rel: TOKEN_REL_TOLERANCE };
  const kind = f.metric.kind;
  if (kind === 'scopeLeakCount') return null;
  if (METRICS[kind].group === 'count') return { abs: 0 };
  const den = denominatorOf(f);
  const metrics = r.retrievers[strategy]?.metrics ?? r.profiles?.[strategy]?.metrics;
  // a slice's rate is a mean over the slice's own cases
  const table = (f.slice === undefined ? metrics?.overall : metrics?.slices?.[f.slice]) ?? {};
  const n = den ? table[den] : undefined;
  return { abs: roundUp3(rateTolerance(value, typeof n === 'number' ? n : 0)) };
}

/** One `--tolerance` entry: a figure pattern (`*` matches any run of characters) and what to write. */
export interface ToleranceOverride {
  pattern: string;
  /** A tolerance to write, or `auto` for the rule's (replacing one the file has). */
  tolerance: Tolerance | 'auto';
}

function toleranceValue(text: string, entry: string): Tolerance | 'auto' {
  const t = text.trim();
  if (t === 'auto') return 'auto';
  const m = /^(?:(abs|rel):)?([-+]?[0-9]*\.?[0-9]+(?:e[-+]?\d+)?)(%?)$/i.exec(t);
  if (!m || (m[1] !== undefined && m[3] === '%'))
    throw new InputError(`${setting('tolerance')}: "${entry}": the value must be a number (absolute), abs:X, rel:X, X% (relative) or auto`);
  const x = Number(m[2]);
  // 1e999 reads as Infinity: a tolerance the file could not even hold (JSON has no Infinity).
  if (!Number.isFinite(x) || x < 0) throw new InputError(`${setting('tolerance')}: "${entry}": not a finite number ≥ 0`);
  if (m[3] === '%') return { rel: x / 100 };
  return m[1]?.toLowerCase() === 'rel' ? { rel: x } : { abs: x };
}

/** Parse `--tolerance top1=0.01,tokens.*=2%,recall@5=rel:0.02,cases=auto`. */
export function parseToleranceOverrides(text: string): ToleranceOverride[] {
  const out: ToleranceOverride[] = [];
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.lastIndexOf('=');
    if (eq <= 0) throw new InputError(`${setting('tolerance')}: "${entry}" is not figure=value (e.g. top1=0.01, tokens.*=2%, recall@5=auto)`);
    out.push({ pattern: entry.slice(0, eq).trim(), tolerance: toleranceValue(entry.slice(eq + 1), entry) });
  }
  return out;
}

/** Whether a figure key matches an override pattern. */
export function matchesPattern(pattern: string, key: string): boolean {
  if (!pattern.includes('*')) return pattern === key;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(key);
}

/** The last override matching `key`, if any. */
export function overrideFor(overrides: readonly ToleranceOverride[], key: string): ToleranceOverride | undefined {
  let found: ToleranceOverride | undefined;
  for (const o of overrides) if (matchesPattern(o.pattern, key)) found = o;
  return found;
}
