/**
 * The floors a run starts from, one rule for the command line and the API (`backpack eval`,
 * `backpack run`, `evaluate()`): a setting for every strategy reaches only the strategies whose
 * design has a floor (every retriever; the profiles whose registry entry declares `floorInDesign`),
 * a setting by name reaches that strategy (a harness profile named there is a labelled what-if),
 * and a profile with a documented default floor keeps it wherever the setting says nothing about
 * it — calibrated (`auto` at the default target) when the run has calibration cases.
 */
import { createProfile, floorInDesign } from '../profiles/registry.ts';
import type { ProfileOptions } from '../profiles/types.ts';
import { DEFAULT_FLOOR_TARGET } from './calibrate.ts';
import { InputError } from '../util/errors.ts';
import type { FloorSetting } from './results.ts';

/** An auto floor before calibration fills it in. */
export function autoFloor(target: number): FloorSetting {
  return { mode: 'auto', target, value: null, calibratedOn: '', calibrationFalsePositiveRate: null, calibrationNoToolCases: 0 };
}

/** The documented default floor of each profile that has one: its score, or `auto` when the run calibrates. */
export function profileDefaultFloors(profiles: readonly string[], calibrating = false, options: ProfileOptions = {}): Record<string, FloorSetting> {
  const out: Record<string, FloorSetting> = {};
  for (const name of profiles) {
    const f = createProfile(name, options).defaultFloor;
    if (f !== undefined) out[name] = calibrating ? autoFloor(DEFAULT_FLOOR_TARGET) : f;
  }
  return out;
}

/**
 * The floor of every strategy: `setting` undefined — the defaults (else none); one setting — every
 * strategy whose design has a floor gets it, the others their default; by name — those named get
 * theirs, the others their default; a name not evaluated is an `InputError`.
 */
export function floorsFor(
  strategies: readonly string[],
  setting: FloorSetting | Readonly<Record<string, FloorSetting>> | undefined,
  defaults: Readonly<Record<string, FloorSetting>> = {},
): Record<string, FloorSetting> {
  const floors: Record<string, FloorSetting> = Object.fromEntries(strategies.map((r) => [r, defaults[r] ?? null]));
  if (setting === undefined) return floors;
  if (setting === null || typeof setting === 'number' || isSetting(setting)) {
    for (const r of strategies) if (floorInDesign(r)) floors[r] = setting as FloorSetting;
    return floors;
  }
  for (const [name, value] of Object.entries(setting)) {
    if (!strategies.includes(name)) throw new InputError(`floor: "${name}" is not one of the strategies evaluated (${strategies.join(', ')})`);
    floors[name] = value;
  }
  return floors;
}

/** An auto floor (as opposed to a record of floors by name). */
function isSetting(x: object): boolean {
  return (x as { mode?: unknown }).mode === 'auto';
}
