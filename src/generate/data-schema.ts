/**
 * One schema for every data file of the generator (`data/generator-data.schema.json`, one
 * definition per kind): the vocabulary, frames and shapes are data, checked when they load.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ajv2020Class } from '../util/ajv.ts';
import schema from './data/generator-data.schema.json' with { type: 'json' };

/** The kinds of generator data file, by their definition in the schema. */
export type GeneratorDataKind =
  | 'surface'
  | 'noTool'
  | 'workflows'
  | 'phrasing'
  | 'lexicon'
  | 'departments'
  | 'archetypes'
  | 'servers'
  | 'operations'
  | 'coreTools'
  | 'plugins'
  | 'voice';

let loaded: Ajv2020 | undefined;
/** Ajv with the generator data schema, made on first use. */
function ajv(): Ajv2020 {
  if (!loaded) {
    loaded = new (ajv2020Class())({ strict: false, allErrors: true });
    loaded.addSchema(schema);
  }
  return loaded;
}

/** Errors of `data` against the schema's definition for `kind` (empty when it validates). */
export function generatorDataErrors(kind: GeneratorDataKind, data: unknown): string[] {
  const validate = ajv().getSchema(`${schema.$id}#/$defs/${kind}`);
  if (!validate) throw new Error(`generator-data.schema.json has no definition "${kind}"`);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

/** The error for a data file with problems: the file, then one line per JSON path and what is wrong there. */
export function generatorDataError(file: string, problems: readonly string[]): Error {
  return new Error(`src/generate/data/${file} is invalid:\n  ${problems.join('\n  ')}`);
}

/** `data` typed as `T` once it matches the schema's definition for `kind`; throws naming `file` and each failing JSON path otherwise. */
export function checkedGeneratorData<T>(kind: GeneratorDataKind, file: string, data: unknown): T {
  const errors = generatorDataErrors(kind, data);
  if (errors.length) throw generatorDataError(file, errors);
  return data as T;
}
