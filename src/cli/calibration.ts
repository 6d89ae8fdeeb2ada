/**
 * The command-line side of floors and calibration: `--floor` (a score, `none`, or `auto[:TARGET]`,
 * for every strategy or per name) and `--calibrate-on SPLIT|FILE` (the calibration cases: a split
 * of the evaluated cases, or a cases file over the same catalog). Every refusal is an `InputError`
 * (exit 2) that names the flag or the file, raised before anything is written.
 */
import { InputError } from '../util/errors.ts';
import { DEFAULT_FLOOR_TARGET } from '../eval/calibrate.ts';
import { autoFloor, floorsFor, profileDefaultFloors } from '../eval/floors.ts';

export { profileDefaultFloors };
import { isAutoFloor, type FloorSetting } from '../eval/results.ts';
import type { FloorOption } from '../eval/pipeline.ts';
export { FEW_NO_TOOL_CASES, resolveCalibration } from '../eval/calibration-source.ts';

/**
 * `--floor 2.5` (every strategy with a floor in its design), `--floor auto` / `auto:0.05` (the
 * same, calibrated), `--floor none`, or `--floor bm25=8,hybrid=auto:0.2,codex=none` (named ones;
 * the others get none, or their default below).
 * "Every strategy" means the retrievers and the profiles whose registry entry declares
 * `floorInDesign`: a harness profile (codex, claude-code, hermes, deferred, …) runs as the harness
 * runs, with no floor, unless `--floor codex=…` names it (a what-if, labelled in the results and
 * the report).
 * A profile with a default floor (`defaults`, from {@link profileDefaultFloors}: calibrated when
 * the run has calibration cases, else its documented score) keeps it wherever `--floor` does not
 * name it or set every strategy.
 */
export function parseFloors(
  text: string | undefined,
  strategies: readonly string[],
  defaults: Readonly<Record<string, FloorSetting>> = {},
): Record<string, FloorSetting> {
  return floorsFor(strategies, parseFloorOption(text, strategies), defaults);
}

/** `--floor` as given, unresolved: one setting for every strategy, settings by name, or undefined (see {@link parseFloors}). */
export function parseFloorOption(text: string | undefined, strategies: readonly string[]): FloorOption {
  if (text === undefined) return undefined;
  const value = (v: string): FloorSetting => {
    const t = v.trim();
    if (t === 'none') return null;
    const auto = /^auto(?::(.*))?$/.exec(t);
    if (auto) {
      if (auto[1] === undefined) return autoFloor(DEFAULT_FLOOR_TARGET);
      const target = Number(auto[1]);
      if (auto[1].trim() === '' || !Number.isFinite(target) || target < 0 || target > 1)
        throw new InputError(`--floor: the target in "${t}" must be a no-tool false-positive rate from 0 to 1 (e.g. auto:0.1)`);
      return autoFloor(target);
    }
    const x = Number(t);
    if (t === '' || !Number.isFinite(x)) throw new InputError(`--floor: "${v}" is not a number, "none" or "auto[:TARGET]"`);
    return x;
  };
  if (!text.includes('=')) return value(text);
  const named: Record<string, FloorSetting> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? undefined : part.slice(0, eq).trim();
    if (name === undefined || !strategies.includes(name)) {
      throw new InputError(`--floor: "${part}" must be name=value for one of the strategies evaluated (${strategies.join(', ')})`);
    }
    named[name] = value(part.slice(eq + 1));
  }
  return named;
}

/** Whether any strategy's floor is calibrated. */
export function wantsCalibration(floors: Record<string, FloorSetting>): boolean {
  return Object.values(floors).some((f) => isAutoFloor(f));
}
