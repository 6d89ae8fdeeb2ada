/**
 * Archetypes of the monster company's SaaS and infrastructure estate: each is a family of MCP
 * servers managing the same kinds of objects. Hand-written vocabulary in `data/archetypes.json`,
 * checked against the generator data schema when this module loads; see `types.ts` for the two
 * registers (`doc` vs `casual`).
 */
import archetypesData from '../data/archetypes.json' with { type: 'json' };
import { checkedGeneratorData } from '../data-schema.ts';
import type { ArchetypeSpec, ObjectSpec } from './types.ts';

/** An object as written in the data file: `plural` defaults to `key + 's'`, `confusable` to none. */
type ObjectData = Omit<ObjectSpec, 'plural'> & { plural?: string };

const data = checkedGeneratorData<{ archetypes: Array<Omit<ArchetypeSpec, 'objects'> & { objects: ObjectData[] }> }>(
  'archetypes',
  'archetypes.json',
  archetypesData,
);

function object({ key, plural = `${key}s`, doc, casual, confusable }: ObjectData): ObjectSpec {
  return confusable ? { key, plural, doc, casual, confusable } : { key, plural, doc, casual };
}

export const ARCHETYPES: readonly ArchetypeSpec[] = data.archetypes.map(({ key, domain, casualDomain, objects }) => ({
  key,
  domain,
  casualDomain,
  objects: objects.map(object),
}));
