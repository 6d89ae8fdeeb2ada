/**
 * Hermes's bridge tools (`NousResearch/hermes-agent` `tools/tool_search.py` @016260a5): the
 * definitions of `tool_search`, `tool_describe` and `tool_call` the model sees in place of the
 * deferred tools, and the `tool_search` answer (`dispatch_tool_search`) as the model reads it.
 */
import type { Tool } from '../../catalog/types.ts';
import { charCount, cutToChars } from '../../util/unicode.ts';
import type { ToolDefinition } from '../types.ts';
import { hermesSourceKind, hermesToolset } from './config.ts';
import type { ListingForm } from './listing.ts';
import { compareCodePoints, pyJson } from '../../util/py-strings.ts';

export const TOOL_SEARCH_NAME = 'tool_search';
export const TOOL_DESCRIBE_NAME = 'tool_describe';
export const TOOL_CALL_NAME = 'tool_call';
/** `_MAX_QUERIES_PER_CALL` (tool_search.py). */
export const MAX_QUERIES_PER_CALL = 7;
/** `_MAX_DESCRIBE_NAMES_PER_CALL` (tool_search.py). */
export const MAX_DESCRIBE_NAMES_PER_CALL = 10;
/** `_clip_description` cap for a search result's description. */
export const RESULT_DESCRIPTION_CHARS = 500;
/** A search result's `required`: at most 32 names, each cut to 64 characters. */
export const RESULT_REQUIRED_MAX = 32;
export const RESULT_REQUIRED_NAME_CHARS = 64;

/**
 * `_search_description` up to the listing: the opening for N deferred tools and, when there is a
 * listing, the framing for its form. Upstream's description is this + `"\n\n"` + the listing.
 */
export function toolSearchDescription(deferredCount: number, form: ListingForm): string {
  let desc =
    `Search ${deferredCount} additional tools that are loaded on demand. ` +
    'Takes a list of queries searched in parallel against the same ' +
    'catalog; send one query per distinct capability you need. Queries are ' +
    'keyword searches, not questions: the app or service name plus an action ' +
    'and object, no filler words (`gmail send email`, `nvidia driver status`, ' +
    "not `what's my GPU driver version?`); a word no tool contains makes the " +
    'query return nothing. Returns ' +
    'matching tool names grouped per query plus a shared map with each ' +
    "tool's description. Follow with " +
    `\`${TOOL_DESCRIBE_NAME}\` to load full parameter schemas, ` +
    `then \`${TOOL_CALL_NAME}\` to invoke. Tools listed at the top of this ` +
    'system prompt are already available and do not need to be searched.';
  if (form === 'none') return desc;
  if (form === 'groups') {
    return (
      desc +
      '\n\nThe servers below are connected and their tools ARE available ' +
      'through this bridge. For any request in these domains, search ' +
      'here FIRST — do not claim the capability is unavailable and do ' +
      'not substitute a generic tool (terminal/browser) without ' +
      'searching.'
    );
  }
  desc +=
    '\n\nEvery deferred capability is listed below. If a tool name ' +
    'appears here, do NOT claim it is unavailable — load it with ' +
    `\`${TOOL_DESCRIBE_NAME}\` (skip \`${TOOL_SEARCH_NAME}\` when you ` +
    'already see the exact name).';
  if (form === 'mixed') {
    desc +=
      " For servers marked 'names not listed', the tools exist " + `too — find them with \`${TOOL_SEARCH_NAME}\` before ` + 'concluding anything is missing.';
  }
  return desc;
}

/** `tool_search` as defined upstream, its description without the listing (see {@link toolSearchDescription}). */
export function toolSearchDefinition(deferredCount: number, form: ListingForm): ToolDefinition {
  return {
    name: TOOL_SEARCH_NAME,
    description: toolSearchDescription(deferredCount, form),
    inputSchema: {
      type: 'object',
      properties: {
        queries: {
          type: 'array',
          items: { type: 'string' },
          description:
            "Keyword queries, one per capability: app or service name + action + object (e.g. ['github create issue', 'slack send message', 'gmail fetch emails']). Not questions or sentences: every word must appear in tool text, or the query returns nothing. Searched in parallel; results come back grouped per query. A single string is accepted and treated as one query.",
        },
        limit: { type: 'integer', description: 'Maximum number of matches per query. Defaults to 5 and is clamped to the configured maximum (25 by default).' },
      },
      required: ['queries'],
    },
  };
}

export const TOOL_DESCRIBE: ToolDefinition = Object.freeze({
  name: TOOL_DESCRIBE_NAME,
  description: `Load the full JSON schemas for tools returned by \`${TOOL_SEARCH_NAME}\`. Required before \`${TOOL_CALL_NAME}\` if a tool's parameters are unknown. Batch every schema you need into one call.`,
  inputSchema: {
    type: 'object',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        description: 'Exact tool names (as returned by tool_search). A single string is accepted and treated as one name.',
      },
    },
    required: ['names'],
  },
});

export const TOOL_CALL: ToolDefinition = Object.freeze({
  name: TOOL_CALL_NAME,
  description:
    'Invoke deferred tools. Takes `calls`, an array of {name, arguments} ' +
    '— one entry per invocation; a single call is an array of one. ' +
    'Local tools require one entry per tool_call. Only connectors__ names ' +
    'may be batched together; mixed and multi-local batches are rejected. ' +
    'Connector entries execute individually with results in input order. ' +
    `Argument shapes match each tool's schema (see \`${TOOL_DESCRIBE_NAME}\`). ` +
    'Policy, hooks, and approvals run as for directly-listed tools.',
  inputSchema: {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Exact tool name to invoke.' },
            arguments: { type: 'object', description: 'Arguments matching the tool schema.' },
          },
          required: ['name', 'arguments'],
        },
        description: 'One local invocation, or one or more connector invocations. Never mix local and connector tools.',
      },
    },
    required: ['calls'],
  },
});

/** `_clip_description`: the first 500 characters and `…` when longer. */
export function clipDescription(text: string, cap: number = RESULT_DESCRIPTION_CHARS): string {
  return charCount(text) <= cap ? text : `${cutToChars(text, cap)}…`;
}

/** `_shared_tool_record`: what a search result says about one tool. */
export function toolRecord(tool: Tool): { source: string; source_name: string; description: string; required: string[] } {
  const toolset = hermesToolset(tool);
  const req = tool.inputSchema?.required;
  const required = (Array.isArray(req) ? req : [])
    .filter((r): r is string => typeof r === 'string')
    .map((r) => cutToChars(r, RESULT_REQUIRED_NAME_CHARS))
    .slice(0, RESULT_REQUIRED_MAX);
  return { source: hermesSourceKind(toolset), source_name: toolset, description: clipDescription(tool.description ?? ''), required };
}

export const EMPTY_RESULT_HINT =
  'This query returned no lexical matches, but the sources above ' +
  'are connected and their tools remain available. Retry ' +
  'tool_search with the service name plus a concrete action or ' +
  'object before concluding the capability is unavailable.';

/** One row of `available_sources`: a group label and how many of its tools the caller may use. */
export interface SourceCount {
  name: string;
  tool_count: number;
}

/**
 * `dispatch_tool_search` for one query: `{queries, total_available, results:[{query, matches,
 * available_sources?, hint?}], tools}` as Python's `json.dumps(…, ensure_ascii=False)` writes it.
 * `sources` = the caller's deferred tools counted by group label (`total_available` is their sum;
 * listed, sorted by name, when nothing matched).
 */
export function searchResultText(query: string, hits: readonly Tool[], sources: readonly SourceCount[]): string {
  // Written piece by piece, each tool's record and the caller's sources once (a run answers
  // thousands of searches over the same tools and callers); the same text as the whole object
  // through `pyJson` (checked by a test). Ids an object would move or drop (array indices sort
  // first, `__proto__` is no own key) take the plain path.
  if (!hits.some((t) => ODD_KEY.test(t.id))) {
    const q = JSON.stringify(query);
    const seen = new Set<string>();
    const records: string[] = [];
    for (const t of hits) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      records.push(`${JSON.stringify(t.id)}: ${toolRecordJson(t)}`);
    }
    const s = sourcesJson(sources);
    const empty = hits.length === 0 && s.available !== undefined ? `, "available_sources": ${s.available}, "hint": ${JSON.stringify(EMPTY_RESULT_HINT)}` : '';
    const matches = hits.map((t) => JSON.stringify(t.id)).join(', ');
    return `{"queries": [${q}], "total_available": ${s.total}, "results": [{"query": ${q}, "matches": [${matches}]${empty}}], "tools": {${records.join(', ')}}}`;
  }
  return searchResultObjectText(query, hits, sources);
}

/** Keys a JavaScript object does not keep in insertion order (array indices) or as own keys (`__proto__`). */
const ODD_KEY = /^(?:0|[1-9]\d{0,9}|__proto__)$/;

/** Each tool's search-result record as `pyJson` writes it (computed once per tool object). */
const recordTexts = new WeakMap<Tool, string>();

function toolRecordJson(t: Tool): string {
  let text = recordTexts.get(t);
  if (text === undefined) {
    text = pyJson(toolRecord(t));
    recordTexts.set(t, text);
  }
  return text;
}

/** A sources list's total and its `available_sources` text (undefined: none available), once per list (the profile's are cached per mask, never changed). */
const sourceTexts = new WeakMap<readonly SourceCount[], { total: number; available: string | undefined }>();

function sourcesJson(sources: readonly SourceCount[]): { total: number; available: string | undefined } {
  let entry = sourceTexts.get(sources);
  if (entry === undefined) {
    const available = sources.filter((s) => s.tool_count > 0);
    const sorted = [...available].sort((a, b) => compareCodePoints(a.name, b.name)).map(({ name, tool_count }) => ({ name, tool_count }));
    entry = { total: available.reduce((n, s) => n + s.tool_count, 0), available: available.length ? pyJson(sorted) : undefined };
    sourceTexts.set(sources, entry);
  }
  return entry;
}

/** {@link searchResultText} as one object through `pyJson` (the definition the piecewise text is checked against). */
export function searchResultObjectText(query: string, hits: readonly Tool[], sources: readonly SourceCount[]): string {
  const tools: Record<string, ReturnType<typeof toolRecord>> = {};
  for (const t of hits) if (!Object.prototype.hasOwnProperty.call(tools, t.id)) tools[t.id] = toolRecord(t);
  const group: Record<string, unknown> = { query, matches: hits.map((t) => t.id) };
  const available = sources.filter((s) => s.tool_count > 0);
  if (hits.length === 0 && available.length > 0) {
    group.available_sources = [...available].sort((a, b) => compareCodePoints(a.name, b.name)).map(({ name, tool_count }) => ({ name, tool_count }));
    group.hint = EMPTY_RESULT_HINT;
  }
  const total = available.reduce((n, s) => n + s.tool_count, 0);
  return pyJson({ queries: [query], total_available: total, results: [group], tools });
}
