/** What an evaluation runs on: a catalog, its labelled cases, and where they came from. */
import { loadCases } from '../catalog/loaders/cases.ts';
import { loadCatalog } from '../catalog/loaders/registry.ts';
import { catalogHash } from '../catalog/manifest.ts';
import type { LoadedDataset } from '../catalog/dataset-files.ts';
import { loadDataset } from '../catalog/resolve.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import type { DatasetSource } from './results.ts';

export interface EvalInput {
  name: string;
  source: DatasetSource;
  catalog: Catalog;
  cases: Case[];
  catalogSha256: string;
}

/** The evaluation input of a dataset already loaded. */
export function inputOfDataset(d: LoadedDataset, source: DatasetSource): EvalInput {
  return { name: d.name, source, catalog: d.catalog, cases: d.cases, catalogSha256: d.manifest?.catalogSha256 ?? catalogHash(d.catalog) };
}

/** Load the input an evaluation (or a merge) names. */
export function loadEvalInput(source: DatasetSource): EvalInput {
  if (source.kind === 'dataset') return inputOfDataset(loadDataset(source.ref, source.split !== null ? { split: source.split } : {}), source);
  const catalog = loadCatalog(source.catalog, source.format !== null ? { format: source.format } : {});
  const cases = loadCases(source.cases, catalog);
  const name = source.catalog.split(/[\\/]/).filter(Boolean).pop() ?? 'catalog';
  return { name, source, catalog, cases, catalogSha256: catalogHash(catalog) };
}
