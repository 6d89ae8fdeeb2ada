/** What an evaluation runs on: a catalog, its labelled cases, and where they came from. */
import { InputError } from '../catalog/errors.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { loadSkillsFolder } from '../catalog/loaders/skills.ts';
import { loadCatalog } from '../catalog/loaders/registry.ts';
import { catalogHash } from '../catalog/manifest.ts';
import type { LoadedDataset } from '../catalog/dataset-files.ts';
import type { RoleMap } from '../catalog/roles.ts';
import { loadDataset, namedDatasetDir, resolveDatasetPath } from '../catalog/resolve.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import type { DatasetSource } from './results.ts';

export interface EvalInput {
  /** Role map for gating, when the dataset has one (or --roles gave one). */
  roles?: RoleMap;
  name: string;
  source: DatasetSource;
  catalog: Catalog;
  cases: Case[];
  catalogSha256: string;
}

/** The evaluation input of a dataset already loaded. */
export function inputOfDataset(d: LoadedDataset, source: DatasetSource): EvalInput {
  return { name: d.name, source, catalog: d.catalog, cases: d.cases, catalogSha256: d.manifest?.catalogSha256 ?? catalogHash(d.catalog), ...(d.roles ? { roles: d.roles } : {}) };
}

/** Load the input an evaluation (or a merge) names. */
/** `warn` receives the catalog loader's warnings (see `LoadOptions.onWarning`); without it they go nowhere. */
export function loadEvalInput(source: DatasetSource, warn?: (message: string) => void): EvalInput {
  if (source.kind === 'dataset') {
    const d = loadDataset(source.ref, { ...(source.split !== null ? { split: source.split } : {}), ...(warn ? { onWarning: warn } : {}) });
    if (source.split !== null && d.cases.length === 0) {
      const all = loadDataset(source.ref, { verify: false });
      const splits = [...new Set(all.cases.map((c) => c.split ?? 'test'))].sort();
      throw new InputError(`no case is in split "${source.split}"; splits here: ${splits.join(', ') || 'none'}`, { file: source.ref });
    }
    return inputOfDataset(d, source);
  }
  const catalog = withSkills(loadCatalog(source.catalog, { ...(source.format !== null ? { format: source.format } : {}), ...(warn ? { onWarning: warn } : {}) }), source.skills ?? null);
  const cases = loadCases(source.cases, catalog);
  const name = source.catalog.split(/[\\/]/).filter(Boolean).pop() ?? 'catalog';
  return { name, source, catalog, cases, catalogSha256: catalogHash(catalog) };
}

/** A tool catalog with the skills of a SKILL.md folder added (duplicate skill names are an error). */
export function withSkills(catalog: Catalog, skillsDir: string | null): Catalog {
  if (skillsDir === null) return catalog;
  const skills = loadSkillsFolder(skillsDir).skills;
  const names = new Set(catalog.skills.map((s) => s.name));
  for (const s of skills) if (names.has(s.name)) throw new InputError(`skill "${s.name}" is defined twice (in the catalog and in the skills folder)`, { file: skillsDir });
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
