import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseSplit, readDataset, type LoadedDataset, type ReadOptions } from './dataset-files.ts';
import { catalogHash } from './manifest.ts';
import { InputError, setting } from '../util/errors.ts';
import { isMetaToolDir, loadMetaTool } from './loaders/metatool.ts';
import { didYouMean } from '../util/suggest.ts';

/**
 * `datasets/` under the working directory: where generated datasets are written (`backpack run`
 * keeps `monster-7` there) and where named datasets are looked for first. From a clone of Backpack
 * the working directory is the repository, so this is the repository's `datasets/`.
 */
export const DATASETS_DIR = resolve('datasets');

/** The datasets shipped with Backpack (`metatool`), found by name after those in {@link DATASETS_DIR}. */
export const BUNDLED_DATASETS_DIR = fileURLToPath(new URL('../../datasets/', import.meta.url));

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

/** The folder of the named dataset `name` (under `datasets/` in the working directory, else a bundled one), or null. */
export function namedDatasetDir(name: string): string | null {
  if (!/^[\w.-]+$/.test(name) || name === '.' || name === '..') return null;
  for (const root of [DATASETS_DIR, BUNDLED_DATASETS_DIR]) {
    const dir = join(root, name);
    if (isDir(dir)) return dir;
  }
  return null;
}

/** The names of the named datasets, sorted (those in the working directory's `datasets/` and the bundled ones). */
export function namedDatasets(): string[] {
  const names = new Set<string>();
  for (const root of [DATASETS_DIR, BUNDLED_DATASETS_DIR]) {
    if (isDir(root)) for (const n of readdirSync(root)) if (isDir(join(root, n))) names.add(n);
  }
  return [...names].sort();
}

/** A folder path, or the name of a named dataset (see {@link namedDatasetDir}). */
export function resolveDatasetPath(nameOrDir: string): string {
  const direct = resolve(nameOrDir);
  if (isDir(direct)) return direct;
  const named = namedDatasetDir(nameOrDir);
  if (named !== null) return named;
  if (existsSync(direct))
    throw new InputError(
      `"${nameOrDir}" is a file, not a dataset folder: for a catalog file (MCP tools/list, OpenAI or Anthropic tools, a bundle…) use ${setting('catalog')} ${nameOrDir}${/\.(csv|jsonl)$/i.test(nameOrDir) ? ` (a cases file goes with ${setting('cases')})` : ''}`,
    );
  const known = namedDatasets();
  throw new InputError(
    `no dataset folder or named dataset "${nameOrDir}"${didYouMean(nameOrDir, known)}${known.length ? `; named datasets: ${known.join(', ')}` : ''}`,
  );
}

/** Load a dataset by folder or name: a Backpack/BEIR dataset folder, or the MetaTool files. */
export function loadDataset(nameOrDir: string, opts: ReadOptions = {}): LoadedDataset {
  const dir = resolveDatasetPath(nameOrDir);
  if (isMetaToolDir(dir)) {
    const d = loadMetaTool(dir);
    const cases = opts.split === undefined ? d.cases : d.cases.filter((c) => caseSplit(c) === opts.split);
    return { ...d, cases, manifest: null, dir, catalogSha256: catalogHash(d.catalog) };
  }
  return readDataset(dir, opts);
}
