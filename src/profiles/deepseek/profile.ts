/**
 * `deepseek`, `deepseek-code` and `deepseek-code-preselect`: the DeepSeek Harness (DSH), from
 * secondary sources (its core repository was not readable; see docs/harness-facts.md#deepseek and the
 * sources in `facts.ts`).
 *
 * - `native` (`deepseek`): DSH has no official tool-search plugin, and DeepSeek's Anthropic-compatible
 *   API ignores the `anthropic-beta` header, so every tool is sent eagerly as a native tool: the
 *   static full list.
 * - `code` (`deepseek-code`): the `code` preset's code mode shows the model ONE tool, `run_code`,
 *   and describes the tools as a generated TypeScript SDK (`await tools.<name>(args)`) in the
 *   prompt. Code mode has no discovery primitive ("selection has to happen before SDK
 *   generation"), and DSH documents no preselection: so here the SDK lists EVERY tool the caller
 *   may use (core and pinned tools included, catalog order), each one `/** summary *\/` line plus
 *   one signature line whose argument type is derived from the input schema's top-level
 *   properties. Those tools are callable from the SDK alone (`callable`): nothing is searched and
 *   the prompt is O(N) in the catalog (≥ 50 tokens per tool: millions on a 50,000-tool catalog,
 *   far over a 200k window, which is the point the source makes). One `run_code` call runs every
 *   tool the task needs. How DSH projects tools into the prompt is [unknown] upstream; the
 *   rendering is pinned here.
 * - `deepseek-code-preselect`: the same code mode over a preselected set: Backpack's `bm25` top 10
 *   for the request (scope-masked by the policy), rendered as the SDK after the harness-side
 *   preselection. The preselection is Backpack's, not DeepSeek's: DSH code mode has no search,
 *   and an upstream preselection step is unknown.
 *
 * The facts and their sources: `facts.ts`, docs/harness-facts.md#deepseek.
 */
import type { Catalog, JsonSchema, Tool } from '../../catalog/types.ts';
import { createBm25 } from '../../retrievers/bm25/presets.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { StaticProfile } from '../seed/static.ts';
import { DEEPSEEK_CODE_FACTS, DEEPSEEK_NATIVE_FACTS, DEEPSEEK_PRESELECT_FACTS } from './facts.ts';
import { describeWith } from '../facts.ts';
import { listedPositions, withListing } from '../catalog-listing.ts';
import type { BeforeSearch, Caller, Profile, SearchAddition, ToolDefinition, CallProtocol, QueryStyle } from '../types.ts';

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
      const fields = Object.entries(props as Record<string, unknown>).map(
        ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${schemaType(v, depth + 1)}`,
      );
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

/** One tool's SDK member: its doc line and its signature line (no trailing newline). */
export function sdkMember(t: Tool): string {
  return `  /** ${t.summary.replace(/\*\//g, '* /')} */\n  ${sdkName(t.id)}(args: ${schemaType(t.inputSchema)}): Promise<unknown>;`;
}

const SDK_HEAD = 'declare const tools: {\n';
const SDK_TAIL = '};\n';

/** The SDK around its member lines (`''` for none). */
function sdkOf(members: readonly string[]): string {
  return members.length ? `${SDK_HEAD}${members.join('\n')}\n${SDK_TAIL}` : '';
}

/** The generated SDK for a tool set: one doc line and one signature per tool, in the given order. */
export function renderSdk(tools: readonly Tool[]): string {
  return sdkOf(tools.map(sdkMember));
}

/**
 * `deepseek-code`: code mode as the source describes it — no search; `run_code` and an SDK of every
 * tool the caller may use, in the prompt. Each tool's member is rendered once at `index()`; a
 * caller's SDK joins the members its mask allows (50,000 tools per distinct caller stay cheap).
 */
export class DeepSeekCodeProfile implements Profile {
  readonly name: string;
  readonly searchLimit = 0;
  /** No search primitive, nothing to load: one run_code call runs every tool the task needs. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, call: 'script' };
  readonly queryStyle: QueryStyle = 'raw';
  readonly provider = 'openai';
  /** The SDK is part of the prompt. */
  readonly placement = 'prefix';
  private tools: readonly Tool[] | undefined;
  private members: string[] = [];

  constructor(name: string) {
    this.name = name;
  }

  async index(catalog: Catalog): Promise<void> {
    this.tools = catalog.tools;
    this.members = catalog.tools.map(sdkMember);
  }

  searcher(): null {
    return null;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    const tools = this.tools;
    if (!tools) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const allowed = caller.allowed;
    const positions = listedPositions(allowed, undefined, tools.length);
    const callable = Array.from(positions, (i) => tools[i]!.id);
    const b = { eager: [], metaTools: [RUN_CODE], callable };
    // the SDK as a listing: `sdkOf` of the allowed members, kept as its parts
    if (!positions.length) return { ...b, advertisement: '' };
    return withListing(b, { head: SDK_HEAD, positions, pieces: this.members, tail: SDK_TAIL });
  }

  afterSearch(): SearchAddition {
    return { form: 'sdk', loaded: [], text: '' };
  }

  describe(): Record<string, unknown> {
    return describeWith(DEEPSEEK_CODE_FACTS.description);
  }
}

/**
 * `deepseek-code-preselect`: code mode over a set Backpack preselects for the request (bm25 top
 * 10), rendered as the SDK. The preselection is harness-side and Backpack's own.
 */
export class DeepSeekPreselectProfile implements Profile {
  readonly name: string;
  readonly searchLimit = CODE_MODE_PRESELECT;
  /** The harness preselects (no model call); one run_code call runs every tool the task needs. */
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
    return describeWith(DEEPSEEK_PRESELECT_FACTS.description, { preselection: { retriever: this.preselect.name, size: CODE_MODE_PRESELECT } });
  }
}

/** `deepseek`: every tool eager as a native tool (no tool search in DSH; the Anthropic-compatible API ignores anthropic-beta). */
export function createDeepSeekNative(name: string, provider: 'openai' | 'anthropic' = 'openai'): Profile {
  return new StaticProfile(name, provider, DEEPSEEK_NATIVE_FACTS.description);
}
