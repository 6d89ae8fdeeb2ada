import { describe, expect, it } from 'vitest';
import { DRAFT_2020_12, normaliseSchemaDraft } from './schema-drafts.ts';
import { inputSchemaProblem } from './validate.ts';

describe('normaliseSchemaDraft', () => {
  it('turns draft-04 boolean exclusive bounds into the numeric form, wherever a schema sits', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: {
        radius: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 50000, exclusiveMaximum: false },
        list: { type: 'array', items: { type: 'integer', maximum: 9, exclusiveMaximum: true } },
        odd: { type: 'number', exclusiveMinimum: true },
      },
      anyOf: [{ properties: { n: { minimum: 1, exclusiveMinimum: true } } }],
    };
    expect(inputSchemaProblem(schema)).toBeUndefined();
    const { schema: out, forms } = normaliseSchemaDraft(schema);
    expect(forms).toEqual(['draft-04 boolean exclusiveMinimum/exclusiveMaximum']);
    expect(out).toEqual({
      $schema: DRAFT_2020_12,
      type: 'object',
      properties: {
        radius: { type: 'number', exclusiveMinimum: 0, maximum: 50000 },
        list: { type: 'array', items: { type: 'integer', exclusiveMaximum: 9 } },
        odd: { type: 'number' },
      },
      anyOf: [{ properties: { n: { exclusiveMinimum: 1 } } }],
    });
    // the input is not modified
    expect(schema.properties.radius.exclusiveMinimum).toBe(true);
  });

  it('renames a draft-04 id at schema places only, and leaves a property called id alone', () => {
    const schema = { id: 'https://x.invalid/s.json#', type: 'object', properties: { id: { type: 'string', id: '#ident' } }, required: ['id'] };
    const { schema: out, forms } = normaliseSchemaDraft(schema);
    expect(forms).toEqual(['draft-04 "id"']);
    expect(out).toEqual({ $id: 'https://x.invalid/s.json', type: 'object', properties: { id: { type: 'string', $anchor: 'ident' } }, required: ['id'] });
  });

  it('turns array-form items into prefixItems, additionalItems into items', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      properties: { at: { type: 'array', additionalItems: false, items: [{ type: 'number' }, { type: 'number' }] } },
    };
    expect(normaliseSchemaDraft(schema)).toEqual({
      schema: {
        $schema: DRAFT_2020_12,
        type: 'object',
        properties: { at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      },
      forms: ['array-form "items" (drafts 04 to 2019-09)'],
    });
  });

  it('returns a schema with nothing to change as the same object, $schema and all', () => {
    const draft06 = {
      $schema: 'http://json-schema.org/draft-06/schema#',
      type: 'object',
      properties: { n: { exclusiveMinimum: 0, const: 3, examples: [3] } },
      propertyNames: { pattern: '^[a-z]+$' },
    };
    const r = normaliseSchemaDraft(draft06);
    expect(r.schema).toBe(draft06);
    expect(r.forms).toEqual([]);
    const enumValue = { type: 'object', properties: { mode: { enum: [{ id: 'x', exclusiveMinimum: true }] } } }; // data, not schemas
    expect(normaliseSchemaDraft(enumValue).schema).toBe(enumValue);
  });
  it('splits a draft-06/07 $id with a fragment into $id and $anchor, and drops a JSON-pointer fragment', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://x.invalid/tool.json#',
      type: 'object',
      definitions: {
        a: { $id: '#item', type: 'string' },
        b: { $id: 'https://x.invalid/b.json#thing', type: 'number' },
        c: { $id: '#/definitions/c', type: 'boolean' },
        d: { $id: 'c.json#/x', $anchor: 'mine', type: 'null' },
      },
      properties: { x: { $ref: '#item' } },
    };
    expect(inputSchemaProblem(schema)).toBeUndefined();
    const { schema: out, forms } = normaliseSchemaDraft(schema);
    expect(forms).toEqual(['"$id" with a fragment (drafts 06/07)']);
    expect(out).toEqual({
      $schema: DRAFT_2020_12,
      $id: 'https://x.invalid/tool.json#', // an empty fragment is valid 2020-12
      type: 'object',
      definitions: {
        a: { $anchor: 'item', type: 'string' },
        b: { $id: 'https://x.invalid/b.json', $anchor: 'thing', type: 'number' },
        c: { type: 'boolean' },
        d: { $id: 'c.json', $anchor: 'mine', type: 'null' },
      },
      properties: { x: { $ref: '#item' } },
    });
    // the reviewer's case, without $schema
    expect(inputSchemaProblem({ type: 'object', definitions: { a: { $id: '#item', type: 'string' } } })).toBeUndefined();
  });

  it('drops an empty array-form items (a tuple of nothing), moving additionalItems to items', () => {
    const schema = {
      type: 'object',
      properties: { any: { type: 'array', items: [] }, rest: { type: 'array', items: [], additionalItems: { type: 'string' } } },
    };
    expect(inputSchemaProblem(schema)).toBeUndefined();
    expect(normaliseSchemaDraft(schema)).toEqual({
      schema: { type: 'object', properties: { any: { type: 'array' }, rest: { type: 'array', items: { type: 'string' } } } },
      forms: ['array-form "items" (drafts 04 to 2019-09)'],
    });
  });
});
