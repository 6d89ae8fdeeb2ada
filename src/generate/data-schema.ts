/**
 * One schema for every data file of the generator (`data/generator-data.schema.json`, one
 * definition per kind): the vocabulary, frames and shapes are data, checked when they load.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import schema from './data/generator-data.schema.json' with { type: 'json' };

/** The kinds of generator data file, by their definition in the schema. */
export type GeneratorDataKind = 'surface' | 'noTool' | 'workflows' | 'phrasing' | 'lexicon' | 'departments';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(schema);

/** Errors of `data` against the schema's definition for `kind` (empty when it validates). */
export function generatorDataErrors(kind: GeneratorDataKind, data: unknown): string[] {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${kind}`);
  if (!validate) throw new Error(`generator-data.schema.json has no definition "${kind}"`);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
