/**
 * The records of a dataset folder's JSONL files, both ways: a tool, skill or case as its line
 * (BEIR `_id`, `title`, `text` plus every field of its own), and back, checked.
 */
import { InputError } from '../util/errors.ts';
import { RE_SIGN_HINT } from './manifest-check.ts';
import { makeSkill, makeTool } from './model.ts';
import type { Case, GoldMode, JsonSchema, Skill, Split, Tool, ToolSource } from './types.ts';
import { checkInputSchema, requireText } from './validate.ts';

/** A tool as its `corpus.jsonl` line: BEIR `_id`, `title`, `text`, then every `Tool` field. */
export function toolRecord(t: Tool): Record<string, unknown> {
  // `title` taken out of the rest: an absent title is an undefined key (every tool has every key), which must not undo the name put in its place
  const { id, title, ...rest } = t;
  return { _id: id, title: title ?? t.name, text: t.description, ...rest };
}

/** A skill as its `skills.jsonl` line: `_id` and `title` (the name), `text`, then every `Skill` field. */
export function skillRecord(s: Skill): Record<string, unknown> {
  return { _id: s.name, title: s.name, text: s.description, ...s };
}

/** A case as its `queries.jsonl` line: BEIR `_id`, `text`, `expected`, then every `Case` field. */
export function caseRecord(c: Case): Record<string, unknown> {
  const { id, request, ...rest } = c;
  const expected = c.expectedTools === undefined ? 'skill-only' : c.expectedTools.length ? 'tool' : 'none';
  return { _id: id, text: request, expected, ...rest };
}

const TOOL_SOURCES: readonly ToolSource[] = ['core', 'mcp', 'plugin'];

/** How `toolFromRecord` treats a record's stored `hash`. */
export interface StoredHashPolicy {
  /**
   * The bytes of this line were already checked against their stored hashes in this process
   * (see `ReadOptions.contentChecked`): the stored hash is taken as computed. Otherwise every tool's
   * hash is computed from its definition as read.
   */
  trusted?: boolean;
  /**
   * A stored hash that differs from the definition: reported here and replaced by the computed one
   * (a re-sign accepting an edit). Without it, such a record is an `InputError` naming the tool.
   */
  onStale?: (id: string) => void;
}

/**
 * A tool from its corpus record. `vouched`: the file matches its manifest, so its input schema was
 * checked when it was written. The tool's hash is always that of its definition as read (unless
 * `hashes.trusted`); a stored `hash` that differs is an error naming the tool (see {@link StoredHashPolicy}).
 */
export function toolFromRecord(r: Record<string, unknown>, file: string, where: string, vouched: boolean, hashes: StoredHashPolicy = {}): Tool {
  const id = requireText(r._id, '"_id"', file, where);
  const parsedId = /^mcp__(.+?)__(.+)$/.exec(id) ?? null;
  const source = (r.source ?? (parsedId ? 'mcp' : 'core')) as ToolSource;
  if (!TOOL_SOURCES.includes(source)) throw new InputError(`"source" must be one of ${TOOL_SOURCES.join(', ')}`, { file, where });
  const description = typeof r.description === 'string' ? r.description : typeof r.text === 'string' ? r.text : '';
  const name = typeof r.name === 'string' ? r.name : (parsedId?.[2] ?? (typeof r.title === 'string' && r.title ? r.title : id));
  const inputSchema = (r.inputSchema ?? { type: 'object', properties: {} }) as JsonSchema;
  const trusted = hashes.trusted === true && typeof r.hash === 'string' ? r.hash : undefined;
  if (!vouched) checkInputSchema(inputSchema, file, `${where}: inputSchema`);
  const server = typeof r.server === 'string' ? r.server : parsedId?.[1];
  const tool = makeTool(
    {
      id,
      name,
      source,
      ...(server !== undefined ? { server } : {}),
      ...(typeof r.plugin === 'string' ? { plugin: r.plugin } : {}),
      ...(typeof r.namespace === 'string' ? { namespace: r.namespace } : {}),
      ...(typeof r.title === 'string' && r.title !== name ? { title: r.title } : {}),
      summary: typeof r.summary === 'string' ? r.summary : (description.split(/(?<=[.!?])\s/)[0] ?? ''),
      description,
      inputSchema,
      examples: stringArray(r.examples, 'examples', file, where),
      scopes: stringArray(r.scopes, 'scopes', file, where),
      pinned: r.pinned === true,
      ...(r.annotations && typeof r.annotations === 'object' ? { annotations: r.annotations as Record<string, unknown> } : {}),
      ...(r.idOnly === true ? { idOnly: true as const } : {}),
      ...(r.standIn === true ? { standIn: true as const } : {}),
    },
    trusted,
  );
  if (trusted === undefined && typeof r.hash === 'string' && r.hash !== tool.hash) {
    if (hashes.onStale) hashes.onStale(id);
    else throw new InputError(`tool "${id}": stored hash does not match its definition (edited by hand?); ${RE_SIGN_HINT}`, { file, where });
  }
  return tool;
}

/** A skill from its `skills.jsonl` record (`name`, or `_id` in a BEIR-style file). */
export function skillFromRecord(r: Record<string, unknown>, file: string, where: string): Skill {
  const name = requireText(r.name ?? r._id, '"name"', file, where);
  return makeSkill({
    name,
    description: typeof r.description === 'string' ? r.description : typeof r.text === 'string' ? r.text : '',
    ...(typeof r.whenToUse === 'string' ? { whenToUse: r.whenToUse } : {}),
    ...(typeof r.category === 'string' ? { category: r.category } : {}),
    ...(typeof r.body === 'string' ? { body: r.body } : {}),
    ...(typeof r.locator === 'string' ? { locator: r.locator } : {}),
    disableModelInvocation: r.disableModelInvocation === true,
  });
}

/**
 * A case from its `queries.jsonl` record, its gold taken from the record or else from the qrels;
 * undefined for a query with neither (not part of the split read).
 */
export function caseFromRecord(
  r: Record<string, unknown>,
  file: string,
  where: string,
  qrels: Map<string, Array<{ id: string; split: string }>>,
  skillQrels: Map<string, Array<{ id: string; split: string }>>,
): Case | undefined {
  const id = requireText(r._id, '"_id"', file, where);
  const request = requireText(r.text, `query "${id}": "text"`, file, where);
  const expected = r.expected;
  if (expected !== undefined && expected !== 'tool' && expected !== 'none' && expected !== 'skill-only') {
    throw new InputError(`query "${id}": "expected" must be "tool", "none" or "skill-only"`, { file, where });
  }
  const q = qrels.get(id);
  const sq = skillQrels.get(id);
  let expectedTools: string[] | undefined;
  if (Array.isArray(r.expectedTools)) expectedTools = stringArray(r.expectedTools, 'expectedTools', file, where);
  else if (expected === 'none') expectedTools = [];
  else if (q) expectedTools = q.map((x) => x.id);
  const expectedSkill = typeof r.expectedSkill === 'string' ? r.expectedSkill : sq?.[0]?.id;
  // A plain BEIR query with no qrels in the chosen split and no "expected": not part of this split.
  if (expectedTools === undefined && expectedSkill === undefined) return undefined;
  const split = (typeof r.split === 'string' ? r.split : (q?.[0]?.split ?? sq?.[0]?.split)) as Split | undefined;
  const c: Case = {
    id,
    request,
    ...(expectedTools !== undefined ? { expectedTools } : {}),
    ...(r.goldMode === 'any' || r.goldMode === 'all' ? { goldMode: r.goldMode as GoldMode } : {}),
    ...(expectedSkill !== undefined ? { expectedSkill } : {}),
    ...(Array.isArray(r.callerScopes) ? { callerScopes: stringArray(r.callerScopes, 'callerScopes', file, where) } : {}),
    ...(typeof r.role === 'string' ? { role: r.role } : {}),
    slices: Array.isArray(r.slices) ? stringArray(r.slices, 'slices', file, where) : expectedTools?.length === 0 ? ['no-tool'] : [],
    ...(typeof r.sessionId === 'string' ? { sessionId: r.sessionId } : {}),
    ...(typeof r.turn === 'number' ? { turn: r.turn } : {}),
    ...(Array.isArray(r.hardNegatives) ? { hardNegatives: stringArray(r.hardNegatives, 'hardNegatives', file, where) } : {}),
    ...(split !== undefined ? { split } : {}),
    ...(Array.isArray(r.calls) ? { calls: stringArray(r.calls, 'calls', file, where) } : {}),
  };
  return c;
}

/** A query record that no qrels file judges and that carries no label of its own. */
export function isUnjudged(r: Record<string, unknown>, judged: { tools: Map<string, unknown>; skills: Map<string, unknown> }): boolean {
  const id = String(r._id);
  return r.expected === undefined && r.expectedTools === undefined && r.expectedSkill === undefined && !judged.tools.has(id) && !judged.skills.has(id);
}

function stringArray(v: unknown, what: string, file: string, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new InputError(`"${what}" must be a list of strings`, { file, where });
  return v as string[];
}
