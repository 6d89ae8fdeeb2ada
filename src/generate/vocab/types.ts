/**
 * Vocabulary the monster-company generator draws from. Two registers are kept apart on purpose:
 * `doc` phrases are how tool descriptions are written; `casual` phrases are how users ask. The
 * generator writes tool text only from the first and requests mostly from the second, so a
 * retriever cannot win by matching the generator's own templates.
 */

/** A kind of object a server manages (the noun of a CRUD tool). */
export interface ObjectSpec {
  /** snake_case singular used in tool names: `contact`, `rollout`, `log_stream`. */
  key: string;
  /** snake_case plural used by list/search tools: `contacts`, `log_streams`. */
  plural: string;
  /** Noun phrase in documentation register: `contact record`, `deployment rollout`. */
  doc: string;
  /**
   * 2–4 noun phrases a user would say, sharing NO word (nor plural/singular form of one) with
   * the words of `key` or `plural`: for `contact` → `person in our address book`, `customer`.
   */
  casual: string[];
  /** Keys of objects in the same archetype easily confused with this one (near-duplicate pairs). */
  confusable?: string[];
}

/** A family of servers that manage the same kinds of objects (GitHub, GitLab, Bitbucket are all `vcs`). */
export interface ArchetypeSpec {
  key: string;
  /** Domain in documentation register: `customer relationship management`. */
  domain: string;
  /** Domain as a user says it: `sales stuff`, `our customer database`. */
  casualDomain: string[];
  objects: ObjectSpec[];
}

/** One MCP server of the monster company. */
export interface ServerSpec {
  /** Id-safe name, used in `mcp__<name>__<tool>`: lowercase, `[a-z0-9-]`. */
  name: string;
  /** Product name as written: `Kubernetes`, `ClickUp`. */
  display: string;
  /** Key of its archetype. */
  archetype: string;
  /** What users call it besides `display` (may be empty): `k8s`, `kube`. */
  aliases: string[];
  /** One-line server description (MCP server description / namespace description). */
  description: string;
  /** Fixed tool count (only the seed article's seven named servers have one). */
  size?: number;
}

/** A parameter of a hand-written tool (core or plugin). */
export interface ParamSpec {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  description: string;
  required?: boolean;
  enum?: string[];
}

/** A hand-written tool: core tools and plugin tools. */
export interface HandToolSpec {
  /** snake_case tool name. */
  name: string;
  /** One line, documentation register. */
  summary: string;
  /** 1–3 sentences, documentation register. */
  description: string;
  params: ParamSpec[];
  /** 2–4 requests a user would type that need this tool, sharing no content word with `name`. */
  casual: string[];
  /** Always exposed (finish, escalate). */
  pinned?: boolean;
}

/** A plugin of the monster company: a box of a few native tools. */
export interface PluginSpec {
  /** Id-safe name: `[a-z0-9-]`. */
  name: string;
  display: string;
  description: string;
  tools: HandToolSpec[];
}
