/** What an evaluation runs on: a catalog, its labelled cases, and where they came from. */
import { InputError, setting } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import { type AppliedRenames, applyRenames, readRenames } from '../catalog/renames.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { loadSkillsFolder } from '../catalog/loaders/skills.ts';
import { loadCatalog } from '../catalog/loaders/registry.ts';
import { catalogHash } from '../catalog/manifest.ts';
import { withTextWarnings } from '../util/bounded.ts';
import type { LoadedDataset } from '../catalog/dataset-files.ts';
import type { ManifestDrift } from '../catalog/manifest.ts';
import type { RoleMap } from '../catalog/roles.ts';
import { loadDataset, namedDatasetDir, resolveDatasetPath } from '../catalog/resolve.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { casesHash, type DatasetSource, goldRemovedOf } from './results.ts';

/** What an evaluation runs on: the catalog, the labelled cases, where they came from, and what loading warned of. */
export interface EvalInput {
  /** Role map for gating, when the dataset has one (or --roles gave one). */
  roles?: RoleMap;
  name: string;
  source: DatasetSource;
  catalog: Catalog;
  cases: Case[];
  catalogSha256: string;
  /** sha256 of the dataset's `corpus.jsonl` when its stored tool hashes were checked against the tools (see `ReadOptions.contentChecked`). */
  corpusSha256?: string;
  /** What loading warned of (see `Results.warnings`), in order; absent or empty when nothing. */
  warnings?: string[];
  /** The dataset folder was re-signed (`eval --re-sign`, on this load or before): what had changed. */
  reSigned?: ManifestDrift;
  /**
   * `eval --renames`: the renames applied to the cases' gold (old id → new id and the cases it
   * changed). The cases above carry the new ids; `casesAsGivenSha256` is the hash of the cases as
   * the file gave them, so the run still pairs with runs over the old catalog.
   */
  goldRenamed?: Record<string, { to: string; cases: string[] }>;
  casesAsGivenSha256?: string;
}

export interface LoadInputOptions {
  /** Accept a dataset folder whose files differ from its manifest, and re-sign it (see `ReadOptions.reSign`). */
  reSign?: boolean;
  /** See `ReadOptions.contentChecked`: corpus files whose stored tool hashes the caller already checked. */
  contentChecked?: ReadonlySet<string>;
  /** A renames file (`eval --renames`): old tool id → new tool id, applied to the cases' gold (catalog and cases files only). */
  renames?: string;
}

/** The evaluation input of a dataset already loaded. */
export function inputOfDataset(d: LoadedDataset, source: DatasetSource): EvalInput {
  return {
    name: d.name,
    source,
    catalog: d.catalog,
    cases: d.cases,
    catalogSha256: d.catalogSha256,
    ...(d.corpusSha256 !== undefined ? { corpusSha256: d.corpusSha256 } : {}),
    ...(d.roles ? { roles: d.roles } : {}),
  };
}

/**
 * Load the input an evaluation (or a merge) names. `warn` hears each of the loader's warnings
 * (`LoadOptions.onWarning`, invalid UTF-8 replaced, a re-signed manifest) as it is said; the input
 * keeps them all in `warnings`, for the results.
 */
export function loadEvalInput(source: DatasetSource, warn?: (message: string) => void, opts: LoadInputOptions = {}): EvalInput {
  const warnings: string[] = [];
  const onWarning = (message: string): void => {
    if (warnings.includes(message)) return; // a file read twice (format detection, then the load) warns once
    warnings.push(message);
    warn?.(message);
  };
  const input = withTextWarnings(onWarning, () => loadInput(source, onWarning, warn ?? (() => {}), opts));
  return { ...input, ...(warnings.length ? { warnings } : {}) };
}

/** `onWarning`: said and kept in the results; `note`: said only (about this load, not the data). */
function loadInput(source: DatasetSource, onWarning: (message: string) => void, note: (message: string) => void, opts: LoadInputOptions): EvalInput {
  if (source.kind === 'dataset') {
    const d = loadDataset(source.ref, {
      ...(source.split !== null ? { split: source.split } : {}),
      onWarning,
      onNote: note,
      ...(opts.reSign ? { reSign: true } : {}),
      ...(opts.contentChecked ? { contentChecked: opts.contentChecked } : {}),
    });
    if (source.split !== null && d.cases.length === 0) {
      const all = loadDataset(source.ref, { verify: false });
      const splits = [...new Set(all.cases.map((c) => c.split ?? 'test'))].sort();
      throw new InputError(`no case is in split "${source.split}"; splits here: ${splits.join(', ') || 'none'}`, { file: source.ref });
    }
    if (d.reSigned) onWarning(reSignedWarning(d.name, d.reSigned));
    if (d.reSignedNow === false) note(`--re-sign: the files of ${d.name} match its manifest; nothing to re-sign`);
    return { ...inputOfDataset(d, source), ...(d.reSigned ? { reSigned: d.reSigned } : {}) };
  }
  if (opts.reSign) note('--re-sign applies to dataset folders (--dataset); a catalog file has no manifest to re-sign');
  if (opts.renames !== undefined && source.kind !== 'files')
    throw new InputError(`${setting('renames')} applies to ${setting('catalog')} with ${setting('cases')} (a registry change), not to a dataset folder`);
  const catalog = withSkills(loadCatalog(source.catalog, { ...(source.format !== null ? { format: source.format } : {}), onWarning }), source.skills ?? null);
  const given = loadCases(source.cases, catalog, { acceptRemovedGold: true });
  let cases = given;
  let renamed: Pick<EvalInput, 'goldRenamed' | 'casesAsGivenSha256'> = {};
  if (opts.renames !== undefined) {
    const r = applyRenames(given, readRenames(opts.renames), new Set(catalog.tools.map((t) => t.id)), opts.renames);
    cases = r.cases;
    for (const from of r.ignored) onWarning(`--renames: "${from}" is still in the catalog: not renamed`);
    if (r.applied.size) {
      onWarning(renamedGoldWarning(r.applied));
      renamed = { goldRenamed: Object.fromEntries([...r.applied].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), casesAsGivenSha256: casesHash(given) };
    }
  }
  const { goldRemoved } = goldRemovedOf(catalog, cases);
  if (goldRemoved) onWarning(removedGoldWarning(new Map(Object.entries(goldRemoved)), catalog));
  const name = source.catalog.split(/[\\/]/).filter(Boolean).pop() ?? 'catalog';
  return { name, source, catalog, cases, catalogSha256: catalogHash(catalog), ...renamed };
}

/** Tool ids (and case ids) named in one warning at most. */
const NAMED = 5;

/**
 * The warning of cases whose gold tools the catalog no longer has: how many, which tools (with a
 * "did you mean" for a likely rename) and a few of their cases. They are scored as misses.
 */
export function removedGoldWarning(removed: ReadonlyMap<string, readonly string[]>, catalog: Catalog): string {
  const cases = new Set([...removed.values()].flat());
  const ids = new Set(catalog.tools.map((t) => t.id));
  const tools = [...removed.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, NAMED)
    .map(
      ([id, list]) =>
        `"${id}" (${list.length} case${list.length === 1 ? '' : 's'}: ${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''})${didYouMean(id, ids)}`,
    );
  return `${cases.size} case${cases.size === 1 ? '' : 's'} expect${cases.size === 1 ? 's' : ''} ${removed.size} tool${removed.size === 1 ? '' : 's'} the catalog does not have (removed or renamed): ${tools.join('; ')}${removed.size > NAMED ? `; … ${removed.size - NAMED} more` : ''}. They are scored as misses (results: dataset.goldRemoved).`;
}

/** The warning of renames applied to the cases' gold: each old id → new id and how many cases. */
export function renamedGoldWarning(applied: AppliedRenames): string {
  const list = [...applied].map(([from, a]) => `"${from}" → "${a.to}" (${a.cases.length} case${a.cases.length === 1 ? '' : 's'})`);
  return `--renames: ${applied.size} renamed gold tool${applied.size === 1 ? '' : 's'} mapped to the new id${applied.size === 1 ? '' : 's'}: ${list.slice(0, NAMED).join('; ')}${list.length > NAMED ? `; … ${list.length - NAMED} more` : ''} (results: dataset.goldRenamed).`;
}

/** A tool catalog with the skills of a SKILL.md folder added (duplicate skill names are an error). */
export function withSkills(catalog: Catalog, skillsDir: string | null): Catalog {
  if (skillsDir === null) return catalog;
  const skills = loadSkillsFolder(skillsDir).skills;
  const names = new Set(catalog.skills.map((s) => s.name));
  for (const s of skills)
    if (names.has(s.name)) throw new InputError(`skill "${s.name}" is defined twice (in the catalog and in the skills folder)`, { file: skillsDir });
  return { ...catalog, skills: [...catalog.skills, ...skills] };
}

/**
 * How to name a dataset in results so another machine can find it: a named dataset (under
 * `datasets/`, or bundled with Backpack) stays a name; a folder elsewhere becomes an absolute path.
 */
export function portableRef(ref: string): string {
  const path = resolveDatasetPath(ref);
  return namedDatasetDir(ref) === path ? ref : path;
}

/** The warning every run on a re-signed folder carries (the same for every load: shards agree). */
export function reSignedWarning(name: string, d: ManifestDrift): string {
  const what = (['added', 'removed', 'changed'] as const).filter((k) => d[k].length).map((k) => `${k} ${d[k].join(', ')}`);
  return `dataset ${name} was re-signed with eval --re-sign (${what.join('; ')}): its figures do not compare with the folder as first written`;
}
