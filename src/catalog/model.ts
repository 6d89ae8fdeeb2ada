import { canonicalJson, sha256 } from '../util/hash.ts';
import type { JsonSchema, Skill, Tool, ToolSource } from './types.ts';

/** The canonical id of a tool: `mcp__<server>__<name>`, `plugin__<plugin>__<name>`, or the plain name of a core tool. */
export function toolId(source: ToolSource, name: string, owner?: string): string {
  if (source === 'core') return name;
  if (owner === undefined || owner === '') throw new Error(`a ${source} tool needs a ${source === 'mcp' ? 'server' : 'plugin'} name`);
  return source === 'mcp' ? `mcp__${owner}__${name}` : `plugin__${owner}__${name}`;
}

/** What `makeTool` needs; `id`, `namespace` and `hash` are derived when not given. */
export type ToolInit = Omit<Tool, 'id' | 'hash' | 'namespace' | 'examples' | 'scopes' | 'pinned' | 'inputSchema'> & {
  id?: string;
  namespace?: string;
  inputSchema?: JsonSchema;
  examples?: string[];
  scopes?: string[];
  pinned?: boolean;
};

/** The input schema of a tool that declares none: an object with no properties. */
export const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: {} }) as JsonSchema;

/**
 * Build a `Tool` with its canonical id, namespace and content hash. Field order is fixed here, so
 * two tools built from the same definition serialise to the same bytes. `knownHash`: the hash as
 * already computed and checked (a dataset file that matches its manifest); otherwise computed.
 */
export function makeTool(init: ToolInit, knownHash?: string): Tool {
  const owner = init.source === 'mcp' ? init.server : init.source === 'plugin' ? (init.plugin ?? init.server) : undefined;
  const id = init.id ?? toolId(init.source, init.name, owner);
  const tool: Omit<Tool, 'hash'> = {
    id,
    name: init.name,
    source: init.source,
    ...(init.server !== undefined ? { server: init.server } : {}),
    ...(init.plugin !== undefined ? { plugin: init.plugin } : {}),
    namespace: init.namespace ?? owner ?? 'core',
    ...(init.title !== undefined && init.title !== '' ? { title: init.title } : {}),
    summary: init.summary,
    description: init.description,
    inputSchema: init.inputSchema ?? { ...EMPTY_INPUT_SCHEMA, properties: {} },
    examples: init.examples ?? [],
    scopes: init.scopes ?? [],
    pinned: init.pinned ?? false,
    ...(init.annotations !== undefined ? { annotations: init.annotations } : {}),
    ...(init.idOnly === true ? { idOnly: true as const } : {}),
    ...(init.standIn === true ? { standIn: true as const } : {}),
  };
  const hash = knownHash ?? toolHash(tool);
  // Every tool gets every key, in one order (absent ones undefined: JSON and the content hash skip
  // them), so all tools share one object shape and the walks along a 50,000-tool catalog read
  // their fields at one offset instead of looking each one up among a dozen shapes.
  return {
    id: tool.id,
    name: tool.name,
    source: tool.source,
    server: tool.server,
    plugin: tool.plugin,
    namespace: tool.namespace,
    title: tool.title,
    summary: tool.summary,
    description: tool.description,
    inputSchema: tool.inputSchema,
    examples: tool.examples,
    scopes: tool.scopes,
    pinned: tool.pinned,
    annotations: tool.annotations,
    idOnly: tool.idOnly,
    standIn: tool.standIn,
    hash,
  } as Tool;
}

/** Content hash of a tool's definition: sha256 of the canonical JSON of every field but `hash`. */
export function toolHash(tool: Omit<Tool, 'hash'> | Tool): string {
  const { hash: _ignored, ...definition } = tool as Tool;
  return sha256(canonicalJson(definition));
}

export type SkillInit = Omit<Skill, 'hash' | 'whenToUse' | 'disableModelInvocation' | 'locator' | 'category' | 'body'> & {
  whenToUse?: string;
  disableModelInvocation?: boolean;
  locator?: string;
  category?: string;
  body?: string;
};

/** Build a `Skill` with defaults and its content hash. */
export function makeSkill(init: SkillInit): Skill {
  const skill: Omit<Skill, 'hash'> = {
    name: init.name,
    description: init.description,
    whenToUse: init.whenToUse ?? '',
    category: init.category ?? 'uncategorized',
    body: init.body ?? '',
    locator: init.locator ?? `skills/${init.name}/SKILL.md`,
    disableModelInvocation: init.disableModelInvocation ?? false,
  };
  return { ...skill, hash: skillHash(skill) };
}

export function skillHash(skill: Omit<Skill, 'hash'> | Skill): string {
  const { hash: _ignored, ...definition } = skill as Skill;
  return sha256(canonicalJson(definition));
}

/** First sentence (or first line) of a description, trimmed, for a one-line summary. */
export function firstSentence(text: string, maxChars = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  let s = m?.[1] ?? flat;
  if (s.length > maxChars) {
    let cut = s.slice(0, maxChars - 1);
    // Drop a word cut in half, unless the cut falls on a word boundary.
    if (!/\s/.test(s[maxChars - 1] ?? ' ')) cut = cut.replace(/\s+\S*$/, '');
    s = `${cut.trimEnd()}…`;
  }
  return s;
}
