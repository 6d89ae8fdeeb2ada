/**
 * The command-line side of floors and calibration: `--floor` (a score, `none`, or `auto[:TARGET]`,
 * for every strategy or per name) and `--calibrate-on SPLIT|FILE` (the calibration cases: a split
 * of the evaluated cases, or a cases file over the same catalog). Every refusal is an `InputError`
 * (exit 2) that names the flag or the file, raised before anything is written.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../util/errors.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { caseSplit } from '../catalog/dataset-files.ts';
import { loadDataset } from '../catalog/resolve.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { calibrationSet, DEFAULT_FLOOR_TARGET, type CalibrationSet } from '../eval/calibrate.ts';
import { autoFloor, floorsFor, profileDefaultFloors } from '../eval/floors.ts';

export { profileDefaultFloors };
import { removedGoldWarning } from '../eval/input.ts';
import { goldRemovedOf, isAutoFloor, type DatasetSource, type FloorSetting } from '../eval/results.ts';

/** Below this many no-tool calibration cases, a calibrated floor is flagged as a rough estimate. */
export const FEW_NO_TOOL_CASES = 30;

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
  if (text === undefined) return floorsFor(strategies, undefined, defaults);
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
  if (!text.includes('=')) return floorsFor(strategies, value(text), defaults);
  const named: Record<string, FloorSetting> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? undefined : part.slice(0, eq).trim();
    if (name === undefined || !strategies.includes(name)) {
      throw new InputError(`--floor: "${part}" must be name=value for one of the strategies evaluated (${strategies.join(', ')})`);
    }
    named[name] = value(part.slice(eq + 1));
  }
  return floorsFor(strategies, named, defaults);
}

/** Whether any strategy's floor is calibrated. */
export function wantsCalibration(floors: Record<string, FloorSetting>): boolean {
  return Object.values(floors).some((f) => isAutoFloor(f));
}

/** What `--calibrate-on` names: a file when one exists at that path (or it looks like one), else a split. */
function isFileSpec(spec: string): boolean {
  if (existsSync(spec)) return statSync(spec).isFile();
  return /[\\/]/.test(spec) || /\.(csv|jsonl|json)$/i.test(spec);
}

/** The cases of one split of the evaluation source (`loaded`: every case of a dataset already in memory). */
function splitCases(spec: string, source: DatasetSource, catalog: Catalog, loaded: readonly Case[] | undefined): Case[] {
  if (source.kind === 'dataset') {
    const all = loaded ?? loadDataset(source.ref, { verify: false }).cases;
    const cases = all.filter((c) => caseSplit(c) === spec);
    if (!cases.length)
      throw new InputError(`--calibrate-on: no case is in split "${spec}"; splits here: ${[...new Set(all.map(caseSplit))].sort().join(', ') || 'none'}`, {
        file: source.ref,
      });
    return cases;
  }
  // the scored load already warned of gold the catalog lacks, over the same file
  const all = loadCases(source.cases, catalog, { acceptRemovedGold: true });
  const cases = all.filter((c) => caseSplit(c) === spec);
  if (!cases.length)
    throw new InputError(
      `--calibrate-on: no case is in split "${spec}" (and no file has that name); splits here: ${[...new Set(all.map(caseSplit))].sort().join(', ') || 'none'}`,
      { file: source.cases },
    );
  return cases;
}

function sample(items: readonly string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')}, … (${items.length} in all)` : items.join(', ');
}

/** Same request and labels (whoever the caller): one case written twice. */
function caseKey(c: Case): string {
  return JSON.stringify([c.request, [...(c.expectedTools ?? [])].sort()]);
}

/**
 * The calibration set `--calibrate-on` names, checked against the scored cases: a case in both (the
 * same id; for a file, also the same request, labels and caller) is refused, naming both sides; so
 * is a set without no-tool cases when a floor is calibrated. `scoredLabel` says which the scored
 * cases are (`--split test`, `all cases`); `loaded`, every case of the dataset when the caller has
 * them already (so it is not read again). Returns the set and warnings to print.
 */
export function resolveCalibration(
  spec: string,
  source: DatasetSource,
  catalog: Catalog,
  scored: readonly Case[],
  scoredLabel: string,
  needsNoTool: boolean,
  loaded?: readonly Case[],
): { set: CalibrationSet; warnings: string[] } {
  const file = isFileSpec(spec);
  if (file && !existsSync(spec))
    throw new InputError('--calibrate-on: no such cases file (give a split name such as train, or a CSV/JSONL cases file)', { file: spec });
  const cases = file ? loadCases(spec, catalog, { acceptRemovedGold: true }) : splitCases(spec, source, catalog, loaded);
  const label = file ? `--calibrate-on ${spec}` : `--calibrate-on ${spec} (split "${spec}")`;
  const scoredIds = new Set(scored.map((c) => c.id));
  const sameId = cases.filter((c) => scoredIds.has(c.id)).map((c) => c.id);
  if (sameId.length)
    throw new InputError(
      `${label} overlaps the scored cases (${scoredLabel}): ${sameId.length} case${sameId.length > 1 ? 's are' : ' is'} in both: ${sample(sameId)}. Score another split (e.g. --split test) or calibrate on other cases`,
    );
  const scoredKeys = new Map(scored.map((c) => [caseKey(c), c.id]));
  const sameText = cases.filter((c) => scoredKeys.has(caseKey(c)));
  const warnings: string[] = [];
  if (sameText.length) {
    const pairs = sameText.map((c) => `${c.id} = ${scoredKeys.get(caseKey(c))}`);
    if (file)
      throw new InputError(`${label} repeats scored cases (${scoredLabel}) under other ids (same request and labels): ${sample(pairs)}`, { file: spec });
    warnings.push(
      `warning: ${sameText.length} calibration case${sameText.length > 1 ? 's repeat' : ' repeats'} a scored case's request and labels verbatim (the dataset's own duplicates across splits): ${sample(pairs)}`,
    );
  }
  const set = calibrationSet(file ? resolve(spec) : `split:${spec}`, cases);
  if (!set.cases.length) throw new InputError(`${label} has no case labelled for tools`, file ? { file: spec } : {});
  if (needsNoTool && !set.cases.some((c) => c.expectedTools.length === 0)) {
    throw new InputError(
      `${label} has no no-tool case (expected: []): --floor auto picks the floor from the calibration cases' no-tool false-positive rate`,
      file ? { file: spec } : {},
    );
  }
  const noTool = set.cases.filter((c) => c.expectedTools.length === 0).length;
  if (needsNoTool && noTool < FEW_NO_TOOL_CASES)
    warnings.push(
      `warning: ${label} has only ${noTool} no-tool case${noTool > 1 ? 's' : ''}: a floor calibrated on so few is a rough estimate (${FEW_NO_TOOL_CASES} or more advised)`,
    );
  const { goldRemoved } = file ? goldRemovedOf(catalog, cases) : {};
  if (goldRemoved) warnings.push(`warning: ${label}: ${removedGoldWarning(new Map(Object.entries(goldRemoved)), catalog)}`);
  return { set, warnings };
}
