/**
 * JSON Schemas for generated tools, from two string parameters up to REST wrappers with many
 * optional parameters and enums: the realistic token-size spread the seed article describes.
 */
import type { JsonSchema } from '../catalog/types.ts';
import type { Rng } from '../util/rng.ts';
import { styleName, type NameStyle } from './text.ts';
import type { ParamKind } from './vocab/operations.ts';
import type { ParamSpec } from './vocab/types.ts';

/** How a server documents its tools: the register of descriptions and the size of schemas. */
export type DocStyle = 'terse' | 'neutral' | 'verbose' | 'rest';

interface P {
  name: string;
  schema: JsonSchema;
  required?: boolean;
}

const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const int = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', description, ...extra });
const bool = (description: string): JsonSchema => ({ type: 'boolean', description });
const strArray = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

function byKind(kind: ParamKind, key: string, doc: string, docs: string): P[] {
  const id: P = { name: `${key}_id`, schema: str(`ID of the ${doc}.`), required: true };
  switch (kind) {
    case 'get':
      return [id];
    case 'byId':
      return [id, { name: 'reason', schema: str('Optional reason recorded with the change.') }];
    case 'list':
      return [
        { name: 'limit', schema: int(`Maximum number of ${docs} to return.`, { minimum: 1, maximum: 100, default: 25 }) },
        { name: 'cursor', schema: str('Pagination cursor from a previous response.') },
      ];
    case 'search':
      return [
        { name: 'query', schema: str(`Search text matched against ${docs}.`), required: true },
        { name: 'limit', schema: int('Maximum results.', { minimum: 1, maximum: 50, default: 10 }) },
      ];
    case 'create':
      return [
        { name: 'name', schema: str(`Name of the new ${doc}.`), required: true },
        { name: 'description', schema: str('Free-text description.') },
      ];
    case 'update':
      return [id, { name: 'name', schema: str('New name.') }, { name: 'description', schema: str('New description.') }];
    case 'count':
      return [{ name: 'filter', schema: str(`Filter expression, e.g. status:open, applied to ${docs}.`) }];
    case 'timeline':
      return [id, { name: 'since', schema: str('Only entries after this time (ISO 8601).', { format: 'date-time' }) }];
    case 'export':
      return [{ name: 'format', schema: str('File format of the export.', { enum: ['csv', 'json', 'xlsx'], default: 'csv' }), required: true }];
    case 'import':
      return [
        { name: 'file_url', schema: str('URL of the file to import.'), required: true },
        { name: 'dry_run', schema: bool('Validate without writing.') },
      ];
    case 'bulkUpdate':
      return [
        { name: `${key}_ids`, schema: strArray(`IDs of the ${docs} to update.`), required: true },
        { name: 'changes', schema: { type: 'object', description: 'Field values to set on every item.', additionalProperties: true }, required: true },
      ];
    case 'bulkDelete':
      return [
        { name: `${key}_ids`, schema: strArray(`IDs of the ${docs} to delete.`), required: true },
        { name: 'confirm', schema: bool('Must be true.'), required: true },
      ];
    case 'merge':
      return [
        { name: 'primary_id', schema: str('ID of the record to keep.'), required: true },
        { name: 'duplicate_ids', schema: strArray('IDs merged into the primary.'), required: true },
      ];
    case 'assign':
      return [id, { name: 'assignee_id', schema: str('User who becomes responsible.'), required: true }];
    case 'comment':
      return [id, { name: 'body', schema: str('Comment text (Markdown).'), required: true }];
    case 'tags':
      return [id, { name: 'tags', schema: strArray('Tag names.'), required: true }];
    case 'move':
      return [id, { name: 'destination_id', schema: str('ID of the new parent container.'), required: true }];
    case 'share':
      return [
        id,
        { name: 'principal_id', schema: str('User or group to share with.'), required: true },
        { name: 'role', schema: str('Access level.', { enum: ['viewer', 'commenter', 'editor'] }) },
      ];
    case 'permissions':
      return [
        id,
        {
          name: 'policy',
          required: true,
          schema: {
            type: 'object',
            description: 'Access-control policy replacing the current one.',
            properties: {
              entries: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { principal_id: { type: 'string' }, role: { type: 'string', enum: ['viewer', 'editor', 'admin'] } },
                  required: ['principal_id', 'role'],
                },
              },
              inherit: { type: 'boolean', description: 'Keep permissions inherited from the parent.' },
            },
            required: ['entries'],
          },
        },
      ];
    case 'subscribe':
      return [id, { name: 'channel', schema: str('Where notifications go.', { enum: ['email', 'webhook', 'in_app'] }), required: true }];
    case 'link':
      return [
        id,
        { name: 'target_id', schema: str('ID of the related record.'), required: true },
        { name: 'relation', schema: str('Kind of link.', { enum: ['relates_to', 'blocks', 'duplicates', 'parent_of'] }) },
      ];
  }
}

/** Optional extras that verbose and REST-wrapper servers add (the long tail of token sizes). */
const EXTRAS: P[] = [
  { name: 'fields', schema: strArray('Sparse fieldset: only these fields are returned. Defaults to all standard fields.') },
  { name: 'expand', schema: strArray('Related objects to expand inline, e.g. owner, parent, custom_fields. Each expansion adds latency.') },
  { name: 'include_archived', schema: bool('Include archived records. Default false.') },
  {
    name: 'sort_by',
    schema: { type: 'string', description: 'Field to sort by.', enum: ['created_at', 'updated_at', 'name', 'priority', 'status'], default: 'updated_at' },
  },
  { name: 'order', schema: { type: 'string', description: 'Sort direction.', enum: ['asc', 'desc'], default: 'desc' } },
  { name: 'created_after', schema: str('Only records created after this instant (RFC 3339).', { format: 'date-time' }) },
  { name: 'created_before', schema: str('Only records created before this instant (RFC 3339).', { format: 'date-time' }) },
  { name: 'updated_since', schema: str('Only records modified since this instant (RFC 3339).', { format: 'date-time' }) },
  { name: 'owner_id', schema: str('Restrict to records owned by this user ID.') },
  {
    name: 'status',
    schema: { type: 'string', description: 'Lifecycle status filter.', enum: ['draft', 'active', 'pending', 'blocked', 'closed', 'archived'] },
  },
  { name: 'priority', schema: { type: 'string', description: 'Priority filter or value.', enum: ['p0', 'p1', 'p2', 'p3', 'p4'] } },
  { name: 'region', schema: { type: 'string', description: 'Data residency region of the record.', enum: ['us', 'eu', 'apac', 'ca', 'uk', 'au'] } },
  { name: 'locale', schema: str('BCP 47 locale used for localized fields, e.g. en-US.') },
  { name: 'timezone', schema: str('IANA time zone for date fields in the response, e.g. Europe/Berlin.') },
  { name: 'page', schema: int('Page number (1-based) for offset pagination.', { minimum: 1 }) },
  { name: 'per_page', schema: int('Page size for offset pagination.', { minimum: 1, maximum: 500, default: 50 }) },
  {
    name: 'api_version',
    schema: { type: 'string', description: 'Pin the API version used for this call.', enum: ['2023-10-01', '2024-04-01', '2025-01-15', '2026-02-01'] },
  },
  { name: 'idempotency_key', schema: str('Unique key that makes retries of this call safe.') },
  { name: 'workspace_id', schema: str("Workspace (tenant) to operate in. Defaults to the token's workspace.") },
  {
    name: 'custom_fields',
    schema: {
      type: 'object',
      description: 'Values for custom fields, keyed by field API name.',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
  },
  { name: 'notify', schema: bool('Send notifications to watchers about this change.') },
  { name: 'dry_run', schema: bool('Validate the request and return the would-be result without persisting it.') },
  { name: 'tags', schema: strArray('Filter or set by tag names.') },
  { name: 'visibility', schema: { type: 'string', description: 'Who can see the record.', enum: ['private', 'team', 'organization', 'public'] } },
];

/** How many optional extras each style adds: [min, max]. */
const EXTRA_RANGE: Record<DocStyle, [number, number]> = { terse: [0, 0], neutral: [0, 3], verbose: [2, 7], rest: [6, 18] };

/** Short parameter descriptions for the terse style. */
function terseDescription(s: JsonSchema): JsonSchema {
  const { description: _d, ...rest } = s;
  return rest;
}

export function operationSchema(kind: ParamKind, key: string, doc: string, docs: string, style: DocStyle, paramStyle: NameStyle, rng: Rng): JsonSchema {
  const base = byKind(kind, key, doc, docs);
  const names = new Set(base.map((p) => p.name));
  const [lo, hi] = EXTRA_RANGE[style];
  const extras = rng.sample(
    EXTRAS.filter((p) => !names.has(p.name)),
    rng.int(lo, hi),
  );
  const params = [...base, ...extras];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of params) {
    // An object whose own id collides with an operation parameter (an `assignee` object's
    // `assignee_id` and the assign operation's `assignee_id`): the operation's becomes `new_…`.
    const raw = properties[styleName(p.name, paramStyle === 'kebab' ? 'snake' : paramStyle)] ? `new_${p.name}` : p.name;
    const n = styleName(raw, paramStyle === 'kebab' ? 'snake' : paramStyle);
    properties[n] = style === 'terse' ? terseDescription(p.schema) : p.schema;
    if (p.required) required.push(n);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  if (style === 'rest' || style === 'verbose') schema.additionalProperties = false;
  return schema;
}

/** Schema for a hand-written tool (core and plugin tools). */
export function handSchema(params: readonly ParamSpec[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of params) {
    const s: JsonSchema = { type: p.type, description: p.description };
    if (p.enum) s.enum = [...p.enum];
    if (p.type === 'array') s.items = { type: 'string' };
    properties[p.name] = s;
    if (p.required) required.push(p.name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length) schema.required = required;
  return schema;
}
