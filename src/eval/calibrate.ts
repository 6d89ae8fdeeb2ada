/**
 * Calibration: choices made by measuring, made on calibration cases (a train split, or a cases
 * file over the same catalog) and never on the cases being scored.
 *
 * - A calibrated floor (`--floor auto[:TARGET]`): each no-tool calibration case is searched with no
 *   floor and per turn (never sticky), with the query the scored run gives the strategy (the
 *   request, or its keywords); its best non-pinned score is its "top"; the floor is the
 *   lowest one whose false-positive rate over those tops is ≤ TARGET ({@link floorForRate}).
 * - A retriever that fits its score scale (`Calibrating`, e.g. the hybrid fusions) is given every
 *   tool-labelled calibration case before it searches anything.
 */
import { canonicalJson, sha256 } from '../util/hash.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { floorForRate, topUnpinned } from '../metrics/abstention.ts';
import { clopperPearson } from '../metrics/clopper-pearson.ts';
import { Policy } from '../retrievers/policy.ts';
import type { CalibrationCase, Retriever } from '../retrievers/types.ts';
import type { QueryStyle } from '../profiles/types.ts';
import { searchCases } from './search.ts';
import { isAutoFloor, type AutoFloor, type CalibrationInfo, type FloorSetting } from './results.ts';

/** The no-tool false-positive rate `--floor auto` aims at when no target is given. */
export const DEFAULT_FLOOR_TARGET = 0.1;

/** The calibration cases of a run and where they came from. */
export interface CalibrationSet {
  /** `split:<name>` or the path of a cases file. */
  source: string;
  /** Tool-labelled cases only (skill-only cases are left out), in their file order. */
  cases: CalibrationCase[];
}

/** A calibration set from loaded cases (skill-only cases are left out). */
export function calibrationSet(source: string, cases: readonly Case[]): CalibrationSet {
  return {
    source,
    cases: cases
      .filter((c) => c.expectedTools !== undefined)
      .map((c) => ({
        id: c.id,
        request: c.request,
        expectedTools: c.expectedTools!,
        ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}),
        ...(c.role !== undefined ? { role: c.role } : {}),
      })),
  };
}

/** What results.json records of the calibration set. */
export function calibrationInfo(set: CalibrationSet): CalibrationInfo {
  return {
    source: set.source,
    cases: set.cases.length,
    noToolCases: set.cases.filter((c) => c.expectedTools.length === 0).length,
    sha256: sha256(canonicalJson(set.cases)),
  };
}

/**
 * The calibrated floor of one strategy. `searcher` null (a profile with no search) or a depth of 0:
 * floors do not apply (`value: null`). Profiles are calibrated on what their search returns (the
 * part a floor controls); eager tools are counted in the scored figures, not here.
 */
export async function calibrateFloor(
  searcher: Retriever | null,
  catalog: Catalog,
  set: CalibrationSet,
  depth: number,
  target: number,
  style: QueryStyle = 'raw',
): Promise<AutoFloor> {
  const noTool = set.cases.filter((c) => c.expectedTools.length === 0);
  const floor = (value: number | null, rate: number | null, reason?: string): AutoFloor => ({
    mode: 'auto',
    target,
    value,
    calibratedOn: set.source,
    calibrationFalsePositiveRate: rate,
    calibrationNoToolCases: noTool.length,
    ...(rate !== null && noTool.length > 0 ? { falsePositiveRateInterval: clopperPearson(Math.round(rate * noTool.length), noTool.length) } : {}),
    ...(reason !== undefined ? { reason } : {}),
  });
  if (!searcher || depth <= 0) return floor(null, null, 'no search: a floor does not apply');
  const pinned = new Set(catalog.tools.filter((t) => t.pinned).map((t) => t.id));
  // the runner's search loop: the no-tool cases as the scored ones are searched, without a floor,
  // per turn (a request with no keyword issues no search, so nothing is shown: the lowest top)
  const found = await searchCases(noTool, {
    name: 'calibration',
    searcher,
    exposure: null,
    policy: new Policy(catalog),
    depth,
    floor: undefined,
    style,
    sticky: false,
  });
  const tops = found.map((d) => topUnpinned(d.ranked, pinned));
  const f = floorForRate(tops, target);
  // floorForRate is undefined only for no case (refused before a run starts) or +∞ tops (none here)
  if (!f) return floor(null, null, 'no no-tool calibration case');
  return floor(f.floor, f.rate, f.floor === null ? `the target holds without a floor (${fmt(f.rate)} on the calibration cases)` : undefined);
}

function fmt(x: number): string {
  return x.toFixed(3);
}

/** Below this many no-tool calibration cases, a calibrated floor's false-positive rate is too loose to promise: warned, with its interval. */
export const FEW_CALIBRATION_NO_TOOL_CASES = 100;

/**
 * One warning per calibrated floor picked on fewer than {@link FEW_CALIBRATION_NO_TOOL_CASES}
 * no-tool cases, naming the count and the 95% interval of the false-positive rate it was picked at
 * (what the floor may give on new requests), in the order of `floors`.
 */
export function thinCalibrationWarnings(floors: Readonly<Record<string, FloorSetting>>): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(floors)) {
    if (!isAutoFloor(a) || !a.falsePositiveRateInterval || a.calibrationFalsePositiveRate === null) continue;
    if (a.calibrationNoToolCases >= FEW_CALIBRATION_NO_TOOL_CASES) continue;
    const [lo, hi] = a.falsePositiveRateInterval;
    out.push(
      `the floor of ${name} was calibrated on ${a.calibrationNoToolCases} no-tool case${a.calibrationNoToolCases === 1 ? '' : 's'}: its false-positive rate there, ${a.calibrationFalsePositiveRate.toFixed(3)} (target ${a.target}), has a 95% interval of ${lo.toFixed(3)}–${hi.toFixed(3)}, so on new requests it may be anywhere in it (${FEW_CALIBRATION_NO_TOOL_CASES} or more no-tool calibration cases advised)`,
    );
  }
  return out;
}
