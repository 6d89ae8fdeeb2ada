/**
 * The data model every later stage reads: tools, skills, servers, plugins, labelled cases.
 *
 * Plain data only (JSON-serialisable), so a catalog can be written to and read from a
 * dataset folder byte for byte. Construct tools and skills with `makeTool` / `makeSkill`
 * (see `model.ts`), which fill in ids and content hashes the one way the project does it.
 */
import type { RoleMap } from './roles.ts';

/** Where a tool comes from. Core tools are the harness's own; MCP tools are a server's; plugin tools ship in a plugin. */
export type ToolSource = 'core' | 'mcp' | 'plugin';

/** A JSON Schema object describing a tool's input (MCP `inputSchema`, OpenAI `parameters`, Anthropic `input_schema`). */
export type JsonSchema = { [key: string]: unknown };

/** One tool of a catalog, whatever it was read from: id, namespace, texts, input schema, scopes, pinned. */
export interface Tool {
  /**
   * Canonical id, unique in a catalog: `mcp__<server>__<tool>` for MCP tools (Claude Code's naming),
   * `plugin__<plugin>__<tool>` for plugin tools, the plain name for core tools.
   */
  id: string;
  /** The tool's own name as its server or provider declares it (may repeat across servers). */
  name: string;
  source: ToolSource;
  /** MCP server name, for MCP tools (and plugin-bundled MCP tools). */
  server?: string;
  /** Plugin name, for plugin tools (and MCP servers a plugin ships). */
  plugin?: string;
  /** Routing namespace: the server for MCP tools, the plugin for plugin tools, `core` for core tools. */
  namespace: string;
  /** Optional human-readable title (MCP `title`). */
  title?: string;
  /** One line, suitable for a compact catalogue entry. */
  summary: string;
  /** Full natural-language description, as the server wrote it (untrusted text). */
  description: string;
  /** JSON Schema of the input. */
  inputSchema: JsonSchema;
  /** Example user requests that should route to this tool. */
  examples: string[];
  /** Scopes the caller must hold, all of them, for the tool to be exposed. */
  scopes: string[];
  /** Pinned tools (finish, escalate) are always exposed and never count as false positives. */
  pinned: boolean;
  /** MCP annotations (readOnlyHint, destructiveHint, …) when the source gave them. */
  annotations?: { [key: string]: unknown };
  /**
   * Known only by its id: a tool that imported transcripts show being called but that no catalog
   * given defines (`backpack import`). Its description and schema are unknown (empty), so its
   * token figures are n/a.
   */
  idOnly?: true;
  /**
   * Defined by Backpack's stand-in: a harness's core tool, whose own definition a transcript does
   * not record (`backpack import`): its name and parameters are the harness's, its one-line
   * description Backpack's, so its token figures are lower than what the harness sends.
   */
  standIn?: true;
  /** sha256 (hex) of the canonical JSON of the definition (every field above but `hash`). */
  hash: string;
}

export interface Skill {
  /** Unique skill name (kebab-case in SKILL.md front matter). */
  name: string;
  description: string;
  /** Claude Code's `when_to_use`; empty when the skill does not say. */
  whenToUse: string;
  category: string;
  /** The SKILL.md body (markdown after the front matter). */
  body: string;
  /** Where the harness finds the skill: a path such as `skills/<name>/SKILL.md`, or a resource id. */
  locator: string;
  /** `disable-model-invocation: true` removes the skill from model-visible listings. */
  disableModelInvocation: boolean;
  /** sha256 (hex) of the canonical JSON of the skill (every field but `hash`). */
  hash: string;
}

/** An MCP server (or a plugin's server) as a unit of routing: its name, description and instructions. */
export interface Server {
  name: string;
  source: ToolSource;
  description: string;
  /** MCP `instructions` from the initialize result: Codex uses them as the namespace description. */
  instructions: string;
  /** Plugin that ships this server, if any. */
  plugin?: string;
}

export interface Plugin {
  name: string;
  description: string;
}

/** Everything a retriever can index: tools, skills, and the servers/plugins that group them. */
export interface Catalog {
  tools: Tool[];
  skills: Skill[];
  servers: Server[];
  plugins: Plugin[];
}

/** How a case's expected tools combine: `all` are needed (a multi-tool task), or `any` one will do (ambiguous labels). */
export type GoldMode = 'all' | 'any';

/** Slice names the generator uses; loaders for other datasets may add their own. */
export const GENERATED_SLICES = [
  'lexical',
  'paraphrase',
  'near-duplicate',
  'rare-tool',
  'scope-restricted',
  'no-tool',
  'multi-tool',
  'skill',
  'multi-turn',
] as const;
export type GeneratedSlice = (typeof GENERATED_SLICES)[number];

/** Dataset splits. `train` cases may feed example-augmented indexes; only `test` is scored then. */
export type Split = 'train' | 'test';

/** A labelled request. */
export interface Case {
  id: string;
  request: string;
  /**
   * Expected tool ids. `[]` (explicit) means "no tool needed"; `undefined` means the case is not
   * labelled for tools (a skill-only case) and is left out of tool metrics.
   */
  expectedTools?: string[];
  /** How `expectedTools` combine when there are several. Default `all`. */
  goldMode?: GoldMode;
  /** Expected skill name, for skill requests. */
  expectedSkill?: string;
  /** Caller's scopes; `undefined` means an unrestricted caller. */
  callerScopes?: string[];
  /** Caller's role or task phase (e.g. `triage`, `read-only-analyst`). */
  role?: string;
  /** Slice tags (a case may sit in several). */
  slices: string[];
  sessionId?: string;
  turn?: number;
  /** Tools this request is known to be confused with (hard negatives): never gold. */
  hardNegatives?: string[];
  split?: Split;
  /**
   * The tool ids the agent called for this request, in call order, repeats kept (cases imported
   * from transcripts: `backpack import`). Never scored: the gold is `expectedTools` (the distinct
   * calls the import counts); `backpack audit` counts these.
   */
  calls?: string[];
}

/** A catalog plus its labelled cases, as one dataset. */
export interface Dataset {
  name: string;
  catalog: Catalog;
  cases: Case[];
  /** Role / phase → the namespaces and tools it sees, for gating (`roles.json`), when the dataset has one. */
  roles?: RoleMap;
}
