/**
 * The operations a generated MCP server exposes on each object type (CRUD fan-out and beyond).
 * Hand-written vocabulary in `data/operations.json`, checked against the generator data schema
 * when this module loads; a tool name there is a template (`list_{plural}`, `get_{key}`).
 *
 * Placeholders: `{doc}` / `{docs}` the object's documentation noun (singular / plural), `{a}` its
 * article; `{obj}` a casual noun phrase for the object; `{kw}` / `{kws}` the words of the object's
 * key / plural; `{ref}`, `{ref2}`, `{name}`, `{person}`, `{field}`, `{value}`, `{term}`, `{label}`,
 * `{place}`, `{text}` fillers. `casual` phrasings avoid every word of the operation's tool name;
 * `lexical` phrasings reuse them.
 */

import operationsData from '../data/operations.json' with { type: 'json' };
import { checkedGeneratorData } from '../data-schema.ts';
import { placeholderParts } from '../surface.ts';

export type Scope = 'read' | 'write' | 'admin';

/** Parameter template families (see `schemas.ts`). */
export type ParamKind =
  | 'get'
  | 'list'
  | 'search'
  | 'create'
  | 'update'
  | 'byId'
  | 'count'
  | 'timeline'
  | 'export'
  | 'import'
  | 'bulkUpdate'
  | 'bulkDelete'
  | 'merge'
  | 'assign'
  | 'comment'
  | 'tags'
  | 'move'
  | 'share'
  | 'permissions'
  | 'subscribe'
  | 'link';

export interface OperationSpec {
  key: string;
  /** snake_case tool name for an object: `(key, plural) => 'list_' + plural`. */
  name: (key: string, plural: string) => string;
  scope: Scope;
  /** HTTP method and path shape for REST-wrapper descriptions. */
  http: [method: string, path: string];
  /** Third-person documentation sentence(s) for the neutral register. */
  doc: string[];
  /** Imperative fragment for the terse register. */
  terse: string;
  casual: string[];
  lexical: string[];
  params: ParamKind;
  /**
   * For a privileged operation: the key of the lower-privilege operation that serves the same need
   * (delete → archive), or `null` when there is none (the answer for a caller without the scope is
   * "no tool").
   */
  alternative?: string | null;
  /**
   * For a privileged operation with an alternative: requests that name the privileged action
   * (the temptation) but state a need the alternative meets ("…delete it, or just get it out of
   * the active list"), so labelling them with the alternative is fair.
   */
  need?: string[];
  /** Fill order: tier-1 operations are created first on every object, tier 3 last. */
  tier: 1 | 2 | 3;
  /** Documentation-style example requests (the `examples` field of a tool), not case templates. */
  examples: string[];
}

/** An operation as written in the data file: its tool name is a template over `{key}` and `{plural}`. */
type OperationData = Omit<OperationSpec, 'name'> & { name: string };

const data = checkedGeneratorData<{ operations: OperationData[] }>('operations', 'operations.json', operationsData);

/** The tool-name function of a name template: `{key}` and `{plural}` replaced by the object's. */
function toolName(template: string): OperationSpec['name'] {
  return (key, plural) => template.replace(/\{(key|plural)\}/g, (_m, slot: string) => (slot === 'key' ? key : plural));
}

export const OPERATIONS: readonly OperationSpec[] = data.operations.map(
  ({ key, name, scope, http, tier, params, alternative, need, doc, terse, casual, lexical, examples }) => ({
    key,
    name: toolName(name),
    scope,
    http,
    tier,
    params,
    ...(alternative !== undefined ? { alternative } : {}),
    ...(need ? { need } : {}),
    doc,
    terse,
    casual,
    lexical,
    examples,
  }),
);

/** Operations by key. */
export const OPERATION_BY_KEY: ReadonlyMap<string, OperationSpec> = new Map(OPERATIONS.map((o) => [o.key, o]));

/**
 * The parts the placeholder values of request templates are composed of (`surface.ts` composes
 * them: first names × surnames, codenames × project nouns, ticket prefixes × seeded numbers,
 * dates…), by kind. The realism measurement counts how often each part recurs.
 */
export const FILLERS: Readonly<Record<string, readonly string[]>> = placeholderParts();
