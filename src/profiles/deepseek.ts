/**
 * `deepseek` and `deepseek-code`: the DeepSeek Harness (DSH), from secondary sources (its core
 * repository was not readable; see ../shared/docs/harness-profiles.md, part (d)).
 *
 * - `native` (`deepseek`): DSH has no official tool-search plugin, and DeepSeek's Anthropic-compatible
 *   API ignores the `anthropic-beta` header, so every tool is sent eagerly as a native tool: the
 *   static full list.
 * - `code` (`deepseek-code`): the `code` preset's code mode shows the model ONE tool, `run_code`,
 *   and describes a preselected tool set as a generated TypeScript SDK (`await tools.<name>(args)`):
 *   O(N) in the set's size. Code mode has no search primitive: "selection has to happen before SDK
 *   generation". How DSH projects tools into the prompt is [unknown]; pinned here: the preselection
 *   is Backpack's `bm25` top 10 for the request (scope-masked by the policy), each tool one
 *   `/** summary *\/` line plus one signature line whose argument type is derived from the input
 *   schema's top-level properties.
 */
import type { Catalog, JsonSchema, Tool } from '../catalog/types.ts';
import { createBm25 } from '../retrievers/bm25/presets.ts';
import type { Hit, Retriever } from '../retrievers/types.ts';
import { StaticProfile } from './static.ts';
import type { BeforeSearch, Caller, Profile, SearchAddition, ToolDefinition, CallProtocol, QueryStyle } from './types.ts';

export const CODE_MODE_PRESELECT = 10;

export const RUN_CODE: ToolDefinition = {
  name: 'run_code',
  description:
    'Run a TypeScript program (types stripped) in a fresh worker thread. Call tools with `await tools.<name>(args)`; a failed call throws ToolCallError (with `toolName`). Return a small value: only the return value enters the conversation.',
  inputSchema: { type: 'object', properties: { code: { type: 'string', description: 'The program.' } }, required: ['code'], additionalProperties: false },
};

/** A JSON-schema fragment as a TypeScript type (top level and one nested level; anything else `unknown`). */
export function schemaType(schema: unknown, depth = 0): string {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'unknown';
  const s = schema as JsonSchema;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return depth < 2 ? `Array<${schemaType(s.items, depth + 1)}>` : 'unknown[]';
    case 'object': {
      const props = s.properties;
      if (depth >= 2 || props === null || typeof props !== 'object' || Array.isArray(props)) return 'Record<string, unknown>';
      const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).filter((x): x is string => typeof x === 'string') : []);
      const fields = Object.entries(props as Record<string, unknown>).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${schemaType(v, depth + 1)}`);
      return fields.length ? `{ ${fields.join('; ')} }` : 'Record<string, never>';
    }
    default:
      return 'unknown';
  }
}

/** The SDK member name of a tool: its id with every character outside `[A-Za-z0-9_$]` replaced by `_`. */
export function sdkName(id: string): string {
  const n = id.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[0-9]/.test(n) ? `_${n}` : n;
}

/** The generated SDK for a tool set: one doc line and one signature per tool, in the given order. */
export function renderSdk(tools: readonly Tool[]): string {
  if (!tools.length) return '';
  const lines = ['declare const tools: {'];
  for (const t of tools) {
    lines.push(`  /** ${t.summary.replace(/\*\//g, '* /')} */`);
    lines.push(`  ${sdkName(t.id)}(args: ${schemaType(t.inputSchema)}): Promise<unknown>;`);
  }
  lines.push('};');
  return `${lines.join('\n')}\n`;
}

export class DeepSeekCodeProfile implements Profile {
  readonly name: string;
  readonly searchLimit = CODE_MODE_PRESELECT;
  /** No search primitive: one run_code call runs every tool the task needs. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, call: 'script' };
  readonly queryStyle: QueryStyle = 'raw';
  readonly provider = 'openai';
  /** The SDK is regenerated for each request's preselection, in the prompt. */
  readonly placement = 'prefix';
  private readonly preselect: Retriever;
  private byId = new Map<string, Tool>();

  constructor(name: string, preselect: Retriever = createBm25('bm25')) {
    this.name = name;
    this.preselect = preselect;
  }

  async index(catalog: Catalog): Promise<void> {
    await this.preselect.index(catalog);
    this.byId = new Map(catalog.tools.map((t) => [t.id, t]));
  }

  searcher(): Retriever {
    return this.preselect;
  }

  beforeSearch(_caller: Caller): BeforeSearch {
    return { eager: [], metaTools: [RUN_CODE], advertisement: '' };
  }

  afterSearch(hits: readonly Hit[]): SearchAddition {
    const tools = hits.map((h) => this.byId.get(h.id)).filter((t): t is Tool => t !== undefined);
    return { form: 'sdk', loaded: tools.map((t) => t.id), text: renderSdk(tools) };
  }

  describe(): Record<string, unknown> {
    return {
      profile: 'deepseek',
      mode: 'code',
      exposure: 'one run_code tool; the preselected tools as a generated TypeScript SDK (one doc line + one signature each)',
      preselection: { retriever: this.preselect.name, size: CODE_MODE_PRESELECT, pinned: 'code mode has no search primitive; the preselection is [unknown] upstream, pinned to Backpack bm25 top 10' },
      sources: 'secondary: DSH ports and source-documentation pages (packages/core/tools/src/code-mode.ts)',
    };
  }
}

/** `deepseek`: every tool eager as a native tool (no tool search in DSH; the Anthropic-compatible API ignores anthropic-beta). */
export function createDeepSeekNative(name: string, provider: 'openai' | 'anthropic' = 'openai'): Profile {
  return new StaticProfile(name, provider, {
    profile: 'deepseek',
    mode: 'native',
    why: 'no official DSH tool-search plugin; api.deepseek.com/anthropic ignores the anthropic-beta header, so tool search cannot be assumed',
  });
}
