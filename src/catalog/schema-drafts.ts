/**
 * Older JSON Schema drafts as 2020-12: tool input schemas in the wild are written in drafts 04, 06,
 * 07, 2019-09 and 2020-12, with or without `$schema`. Backpack validates and keeps every schema in
 * the 2020-12 form; `normaliseSchemaDraft` rewrites the forms that differ:
 *
 *  - draft-04 boolean `exclusiveMinimum` / `exclusiveMaximum` beside `minimum` / `maximum` →
 *    the numeric form (`{"minimum":0,"exclusiveMinimum":true}` → `{"exclusiveMinimum":0}`); a
 *    `false`, or a `true` with no bound, is dropped (it says nothing);
 *  - draft-04 `id` → `$id` (a plain-name fragment `"#foo"` → `$anchor`), when there is no `$id`;
 *  - a draft-06/07 `$id` with a fragment (`"#foo"`, `"base#foo"`; 2020-12's `$id` takes none) →
 *    `$id` (the base, if any) and `$anchor` (a plain-name fragment); any other fragment (a JSON
 *    pointer such as `"#/definitions/x"`) names nothing 2020-12 can express and is dropped, as it is
 *    for a draft-04 `id`. An `$id` ending in an empty fragment (`"base#"`) is valid 2020-12: kept;
 *  - the array form of `items` (drafts 04 to 2019-09) → `prefixItems`, and `additionalItems`
 *    beside it → `items`. An empty array (`"items": []`, a tuple of nothing) constrains nothing:
 *    dropped (2020-12's `prefixItems` may not be empty).
 *
 * Only places that hold schemas are rewritten (a property named `id` stays a property). When
 * anything changed and the root names an older draft in `$schema`, `$schema` becomes 2020-12's.
 * `definitions` and `dependencies` are left as they are: 2020-12 still reads them.
 */

/** The forms `normaliseSchemaDraft` rewrote, in this fixed order (for deterministic messages). */
export const SCHEMA_FORMS = [
  'draft-04 boolean exclusiveMinimum/exclusiveMaximum',
  'draft-04 "id"',
  '"$id" with a fragment (drafts 06/07)',
  'array-form "items" (drafts 04 to 2019-09)',
] as const;
export type SchemaForm = (typeof SCHEMA_FORMS)[number];

export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Keywords whose value is one schema. */
const ONE_SCHEMA = [
  'additionalProperties',
  'additionalItems',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
/** Keywords whose value is an array of schemas (array-form `items` is rewritten before these). */
const SCHEMA_ARRAY = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value is an object of schemas. */
const SCHEMA_MAP = ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'dependencies'];

const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
const OLDER_DRAFT = /json-schema\.org\/(draft-0[3-7]|draft\/2019-09)\//;

/** `schema` in the 2020-12 form, and the older forms it used (empty: returned unchanged, same object). */
export function normaliseSchemaDraft(schema: unknown): { schema: unknown; forms: SchemaForm[] } {
  const found = new Set<SchemaForm>();
  let out = walk(schema, found);
  if (found.size > 0 && isObject(out) && typeof out.$schema === 'string' && OLDER_DRAFT.test(out.$schema)) {
    out = { ...out, $schema: DRAFT_2020_12 };
  }
  return { schema: out, forms: SCHEMA_FORMS.filter((f) => found.has(f)) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The node rewritten (a new object only where something changed). */
function walk(node: unknown, found: Set<SchemaForm>): unknown {
  if (!isObject(node)) return node;
  const entries: Array<[string, unknown]> = [];
  let changed = false;
  const push = (k: string, v: unknown, original: unknown) => {
    entries.push([k, v]);
    if (v !== original) changed = true;
  };
  const tuple = Array.isArray(node.items);
  const exclusive = (key: 'exclusiveMinimum' | 'exclusiveMaximum') => typeof node[key] === 'boolean';
  const hasId = typeof node.id === 'string' && node.$id === undefined;
  const fragmentId = typeof node.$id === 'string' && /#./.test(node.$id);
  const hasAnchor = node.$anchor !== undefined;
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean') {
      found.add('draft-04 boolean exclusiveMinimum/exclusiveMaximum');
      changed = true; // folded into minimum/maximum below, or dropped
      continue;
    }
    if (
      (k === 'minimum' && exclusive('exclusiveMinimum') && node.exclusiveMinimum === true) ||
      (k === 'maximum' && exclusive('exclusiveMaximum') && node.exclusiveMaximum === true)
    ) {
      entries.push([k === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum', v]);
      changed = true;
      continue;
    }
    if (k === 'id' && hasId) {
      found.add('draft-04 "id"');
      changed = true;
      entries.push(...idAsKeywords(v as string, hasAnchor));
      continue;
    }
    if (k === '$id' && fragmentId) {
      found.add('"$id" with a fragment (drafts 06/07)');
      changed = true;
      entries.push(...idAsKeywords(v as string, hasAnchor));
      continue;
    }
    if (k === 'items' && tuple) {
      found.add('array-form "items" (drafts 04 to 2019-09)');
      changed = true;
      if ((v as unknown[]).length > 0) entries.push(['prefixItems', (v as unknown[]).map((s) => walk(s, found))]);
      if (node.additionalItems !== undefined) entries.push(['items', walk(node.additionalItems, found)]);
      continue;
    }
    if (k === 'additionalItems' && tuple) continue; // moved to items above
    if (ONE_SCHEMA.includes(k)) {
      push(k, walk(v, found), v);
    } else if (SCHEMA_ARRAY.includes(k) && Array.isArray(v)) {
      const list = v.map((s) => walk(s, found));
      push(k, list.some((s, i) => s !== v[i]) ? list : v, v);
    } else if (SCHEMA_MAP.includes(k) && isObject(v)) {
      const map = Object.entries(v).map(([name, s]): [string, unknown] => [name, Array.isArray(s) ? s : walk(s, found)]);
      push(k, map.some(([name, s]) => s !== v[name]) ? Object.fromEntries(map) : v, v);
    } else {
      entries.push([k, v]);
    }
  }
  return changed ? Object.fromEntries(entries) : node;
}

/**
 * A draft-04 `id` or a draft-06/07 `$id` as 2020-12 keywords: `"#foo"` → `$anchor`, `"base#foo"` →
 * `$id` and `$anchor`; a fragment that is not a plain name (`"#/definitions/x"`) is dropped, and so
 * is the anchor when the schema has an `$anchor` of its own (`keepAnchor`).
 */
function idAsKeywords(id: string, keepAnchor: boolean): Array<[string, unknown]> {
  const hash = id.indexOf('#');
  const base = hash < 0 ? id : id.slice(0, hash);
  const fragment = hash < 0 ? '' : id.slice(hash + 1);
  const out: Array<[string, unknown]> = [];
  if (base !== '') out.push(['$id', base]);
  if (fragment !== '' && ANCHOR.test(fragment) && !keepAnchor) out.push(['$anchor', fragment]);
  return out;
}
