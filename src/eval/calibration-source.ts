/**
 * Where calibration cases come from: a split of the evaluated cases, or a cases file over the same
 * catalog, checked against the scored cases. Messages name the setting with `setting()`
 * (`--calibrate-on` on the command line, `calibrateOn` in the API).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, setting } from '../util/errors.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { caseSplit } from '../catalog/dataset-files.ts';
import { loadDataset } from '../catalog/resolve.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { calibrationSet, type CalibrationSet } from './calibrate.ts';
import { removedGoldWarning } from './input.ts';
import { goldRemovedOf, type DatasetSource } from './results.ts';

const CALIBRATE_ON = setting('calibrateOn');
const FLOOR_AUTO = `${setting('floor')} auto`;

/** Below this many no-tool calibration cases, a calibrated floor is flagged as a rough estimate. */
export const FEW_NO_TOOL_CASES = 30;

/** What a calibration setting names: a file when one exists at that path (or it looks like one), else a split. */
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
      throw new InputError(`${CALIBRATE_ON}: no case is in split "${spec}"; splits here: ${[...new Set(all.map(caseSplit))].sort().join(', ') || 'none'}`, {
        file: source.ref,
      });
    return cases;
  }
  // the scored load already warned of gold the catalog lacks, over the same file
  const all = loadCases(source.cases, catalog, { acceptRemovedGold: true });
  const cases = all.filter((c) => caseSplit(c) === spec);
  if (!cases.length)
    throw new InputError(
      `${CALIBRATE_ON}: no case is in split "${spec}" (and no file has that name); splits here: ${[...new Set(all.map(caseSplit))].sort().join(', ') || 'none'}`,
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
 * The calibration set `spec` names, checked against the scored cases: a case in both (the
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
    throw new InputError(`${CALIBRATE_ON}: no such cases file (give a split name such as train, or a CSV/JSONL cases file)`, { file: spec });
  const cases = file ? loadCases(spec, catalog, { acceptRemovedGold: true }) : splitCases(spec, source, catalog, loaded);
  const label = file ? `${CALIBRATE_ON} ${spec}` : `${CALIBRATE_ON} ${spec} (split "${spec}")`;
  const scoredIds = new Set(scored.map((c) => c.id));
  const sameId = cases.filter((c) => scoredIds.has(c.id)).map((c) => c.id);
  if (sameId.length)
    throw new InputError(
      `${label} overlaps the scored cases (${scoredLabel}): ${sameId.length} case${sameId.length > 1 ? 's are' : ' is'} in both: ${sample(sameId)}. Score another split (e.g. test) or calibrate on other cases`,
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
      `${label} has no no-tool case (expected: []): ${FLOOR_AUTO} picks the floor from the calibration cases' no-tool false-positive rate`,
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
