import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseSplit, readDataset, type LoadedDataset, type ReadOptions } from './dataset-files.ts';
import { InputError } from './errors.ts';
import { isMetaToolDir, loadMetaTool } from './loaders/metatool.ts';
import { didYouMean } from './suggest.ts';
import { readdirSync } from 'node:fs';

/** The repository's `datasets/` folder, where named datasets (`metatool`, `monster-7`) live. */
export const DATASETS_DIR = fileURLToPath(new URL('../../datasets/', import.meta.url));

/** A folder path, or the name of a folder under `datasets/`. */
export function resolveDatasetPath(nameOrDir: string): string {
  const direct = resolve(nameOrDir);
  if (existsSync(direct) && statSync(direct).isDirectory()) return direct;
  const named = join(DATASETS_DIR, nameOrDir);
  if (/^[\w.-]+$/.test(nameOrDir) && existsSync(named) && statSync(named).isDirectory()) return named;
  const known = existsSync(DATASETS_DIR) ? readdirSync(DATASETS_DIR).filter((n) => statSync(join(DATASETS_DIR, n)).isDirectory()) : [];
  throw new InputError(`no dataset folder or named dataset "${nameOrDir}"${didYouMean(nameOrDir, known)}${known.length ? `; named datasets: ${known.join(', ')}` : ''}`);
}

/** Load a dataset by folder or name: a Backpack/BEIR dataset folder, or the MetaTool files. */
export function loadDataset(nameOrDir: string, opts: ReadOptions = {}): LoadedDataset {
  const dir = resolveDatasetPath(nameOrDir);
  if (isMetaToolDir(dir)) {
    const d = loadMetaTool(dir);
    const cases = opts.split === undefined ? d.cases : d.cases.filter((c) => caseSplit(c) === opts.split);
    return { ...d, cases, manifest: null, dir };
  }
  return readDataset(dir, opts);
}
