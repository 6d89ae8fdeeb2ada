/**
 * Logs of LLM API traffic, one JSON object a line holding a call's request body and its response:
 * OpenAI Chat Completions, OpenAI Responses and Anthropic Messages, in the envelopes real loggers
 * write (fixtures/transcripts/api-logs, SOURCES.md):
 *   - `{"request": {…, "body"}, "response": {…, "body" | "body_raw"}}`: claude-trace, HTTP proxies,
 *     mitmproxy captures (a body may be an object or JSON text; a streamed response is its SSE text);
 *   - `{"request_body", "response_body"}`: Helicone's export;
 *   - LiteLLM's StandardLoggingPayload `{"messages", "response", "model_parameters": {"tools"}}`;
 *   - `{"input": {request}, "output": {response}}`: OpenPipe's export.
 * The API is told by the bodies (Responses: `input`/`output`; Chat: `choices`, `role:"tool"`,
 * `{"type":"function","function":{…}}` tools; else Messages).
 *
 * Every call resends the conversation, so the newest typed user message decides which request a
 * call serves: a user message with text that is not a harness injection (tool results, Claude
 * Code's `<system-reminder>` blocks and IDE notes, slash-command output are not typed). A
 * conversation is keyed by its system prompt and its first typed message, or chained by the
 * Responses API's `previous_response_id`; the n-th typed message is its turn n. The calls of a
 * request are the tool calls of the responses that answered it and of the assistant messages the
 * history shows after it (the same call, by id, counted once): function calls, Anthropic
 * `tool_use` blocks, Responses `mcp_call` items (`mcp__<server_label>__<name>`) and built-in tool
 * calls (`web_search_call` → `web_search`…). A call whose request advertises no tool and whose
 * response calls none is a side call of the harness (Claude Code's quota probe and title
 * generator) and is skipped. The catalog is the request's function tools (`tools`, or LiteLLM's
 * `model_parameters.tools`) and the tools a Responses `mcp_list_tools` item lists.
 */
import { tooDeep } from '../util/bounded.ts';
import { sha256 } from '../util/hash.ts';
import { anyTime, arr, type Json, jsonRecords, obj, str } from './records.ts';
import { addKeyedCalls, answeredTurns, type LoggedCall, type LoggedMessage, promptLink } from './conversation.ts';
import { injectedReason, textBlocks, typedText } from './text.ts';
import type { AdvertisedTool, FileRead, ReadContext, TranscriptFormat, TranscriptSession, TypedRequest } from './types.ts';
import { Tally } from './types.ts';

type Api = 'chat' | 'responses' | 'messages';

interface Exchange {
  request: Json;
  response?: Json;
  /** A streamed response's SSE text. */
  sse?: string;
  at?: string;
}

/** A body given as an object or as JSON text. */
function body(v: unknown): Json | undefined {
  if (typeof v === 'string') {
    const t = v.trim();
    if (!t.startsWith('{')) return undefined;
    try {
      const v = JSON.parse(t);
      // a body given as text is parsed here, past the record's own nesting check
      return tooDeep(v) === undefined ? obj(v) : undefined;
    } catch {
      return undefined;
    }
  }
  return obj(v);
}

/** SSE text, when `v` is one. */
function sseText(v: unknown): string | undefined {
  return typeof v === 'string' && /^(?:event|data):/m.test(v) ? v : undefined;
}

/** The request and response of one log line, in any of the envelopes of the module comment. */
function exchangeOf(r: Json): Exchange | undefined {
  const at = anyTime(r.logged_at) ?? anyTime(r.timestamp) ?? anyTime(obj(r.request)?.timestamp) ?? anyTime(r.startTime) ?? anyTime(r.request_created_at);
  const withAt = (e: Exchange): Exchange => (at ? { ...e, at } : e);
  const req = obj(r.request);
  if (req && 'response' in r) {
    const request = body(req.body) ?? obj(req.parsed_body) ?? (req.messages || req.input ? req : undefined);
    if (!request) return undefined;
    const res = obj(r.response);
    const response = res ? (body(res.body) ?? obj(res.parsed_body)) : undefined;
    const sse = res ? (sseText(res.body_raw) ?? sseText(res.body)) : undefined;
    return withAt({ request, ...(response ? { response } : {}), ...(sse ? { sse } : {}) });
  }
  if (r.request_body !== undefined) {
    const request = body(r.request_body);
    if (!request) return undefined;
    const response = body(r.response_body);
    const sse = sseText(r.response_body);
    return withAt({ request, ...(response ? { response } : {}), ...(sse ? { sse } : {}) });
  }
  if (Array.isArray(r.messages) && (obj(r.model_parameters) || typeof r.call_type === 'string')) {
    const params = obj(r.model_parameters) ?? {};
    const response = obj(r.response);
    return withAt({ request: { ...params, messages: r.messages }, ...(response ? { response } : {}) });
  }
  const input = obj(r.input);
  if (input && (Array.isArray(input.messages) || input.input !== undefined) && obj(r.output)) return withAt({ request: input, response: obj(r.output)! });
  return undefined;
}

/** The SSE events' data objects. */
function sseEvents(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    try {
      const v = obj(JSON.parse(data));
      if (v) out.push(v);
    } catch {
      // a cut stream: the events before it still count
    }
  }
  return out;
}

function apiOf(e: Exchange): Api {
  const q = e.request;
  if (q.input !== undefined || Array.isArray(e.response?.output) || e.sse?.includes('response.')) return 'responses';
  const isChat =
    Array.isArray(e.response?.choices) ||
    e.sse?.includes('chat.completion.chunk') === true ||
    arr(q.tools).some((t) => obj(t)?.type === 'function' && obj(obj(t)!.function) !== undefined) ||
    arr(q.messages).some((m) => obj(m)?.role === 'tool' || Array.isArray(obj(m)?.tool_calls));
  return isChat ? 'chat' : 'messages';
}

/** A logged message, with why a user message is not typed when it is not. */
type Message = LoggedMessage & { reason?: string };

function userTurn(content: unknown, toolResult: boolean): Message {
  if (toolResult) return { role: 'user', typed: '', reason: 'tool-result', calls: [] };
  const typed = typedText(textBlocks(content));
  const reason = typed === '' ? 'empty' : injectedReason(typed);
  return reason ? { role: 'user', typed: '', reason, calls: [] } : { role: 'user', typed, calls: [] };
}

/** Subagent calls (Claude Code's Task and Agent) name the prompt they give their subagent: its hash links the subagent's own conversation to the turn. */
const SPAWNS = new Set(['Task', 'Agent']);

/** A tool call, with the link to the subagent it started when it is a subagent call (`args`: its arguments, an object or JSON text). */
function loggedCall(name: string, callId: string | undefined, args: unknown): LoggedCall {
  let spawns: string | undefined;
  if (SPAWNS.has(name)) {
    let input = obj(args);
    if (!input && typeof args === 'string')
      try {
        const v = JSON.parse(args);
        input = tooDeep(v) === undefined ? obj(v) : undefined;
      } catch {
        input = undefined;
      }
    const prompt = str(input?.prompt);
    if (prompt) spawns = promptLink(typedText([prompt]));
  }
  return { name, ...(callId ? { callId } : {}), ...(spawns ? { spawns } : {}) };
}

/** A Responses API item as a tool call (function, MCP or built-in), or undefined. */
function responsesCall(x: Json): LoggedCall | undefined {
  const callId = str(x.call_id) ?? str(x.id);
  const withId = (name: string) => loggedCall(name, callId, x.arguments);
  const type = str(x.type) ?? '';
  if (type === 'function_call' || type === 'custom_tool_call') {
    const name = str(x.name);
    return name ? withId(`${str(x.namespace) ?? ''}${name}`) : undefined;
  }
  if (type === 'mcp_call') {
    const name = str(x.name);
    const label = str(x.server_label);
    return name ? withId(label ? `mcp__${label}__${name}` : name) : undefined;
  }
  if (type.endsWith('_call') && type !== 'mcp_approval_request') return withId(type.slice(0, -'_call'.length));
  return undefined;
}

/** The conversation a request carries, oldest first. */
function turnsOf(api: Api, q: Json): Message[] {
  const out: Message[] = [];
  if (api === 'responses') {
    if (typeof q.input === 'string') return [userTurn(q.input, false)];
    for (const it of arr(q.input)) {
      const x = obj(it);
      if (!x) continue;
      if (x.role === 'user' && (x.type === undefined || x.type === 'message')) out.push(userTurn(x.content, false));
      else if (x.type === 'function_call_output' || x.type === 'custom_tool_call_output' || x.type === 'mcp_approval_response')
        out.push({ role: 'user', typed: '', reason: 'tool-result', calls: [] });
      else {
        const call = responsesCall(x);
        if (call) out.push({ role: 'assistant', typed: '', calls: [call] });
      }
    }
    return out;
  }
  for (const m of arr(q.messages)) {
    const x = obj(m);
    if (!x) continue;
    if (x.role === 'user')
      out.push(
        userTurn(
          x.content,
          arr(x.content).some((b) => obj(b)?.type === 'tool_result'),
        ),
      );
    else if (x.role === 'tool' || x.role === 'function') out.push({ role: 'user', typed: '', reason: 'tool-result', calls: [] });
    else if (x.role === 'assistant') {
      const calls =
        api === 'chat'
          ? arr(x.tool_calls).flatMap((c) => {
              const f = obj(obj(c)?.function);
              const name = str(f?.name);
              return name ? [loggedCall(name, str(obj(c)?.id), f?.arguments)] : [];
            })
          : arr(x.content).flatMap((b) => {
              const blk = obj(b);
              const name = blk?.type === 'tool_use' ? str(blk.name) : undefined;
              return name ? [loggedCall(name, str(blk?.id), blk?.input)] : [];
            });
      out.push({ role: 'assistant', typed: '', calls });
    } else out.push({ role: 'other', typed: '', calls: [] });
  }
  return out;
}

/** The tool calls of a response (a body or an SSE stream). */
function responseCalls(api: Api, e: Exchange): LoggedCall[] {
  const out: LoggedCall[] = [];
  const r = e.response;
  if (api === 'chat') {
    if (r)
      for (const choice of arr(r.choices))
        for (const c of arr(obj(obj(choice)?.message)?.tool_calls)) {
          const f = obj(obj(c)?.function);
          const name = str(f?.name);
          if (name) out.push(loggedCall(name, str(obj(c)?.id), f?.arguments));
        }
    if (e.sse) {
      // deltas: name and id arrive once per (choice, index); arguments in fragments
      const seen = new Set<string>();
      for (const ev of sseEvents(e.sse))
        for (const choice of arr(ev.choices))
          for (const c of arr(obj(obj(choice)?.delta)?.tool_calls)) {
            const name = str(obj(obj(c)?.function)?.name);
            const key = `${obj(choice)?.index ?? 0}:${obj(c)?.index ?? 0}`;
            if (!name || seen.has(key)) continue;
            seen.add(key);
            out.push(loggedCall(name, str(obj(c)?.id), undefined));
          }
    }
    return out;
  }
  if (api === 'messages') {
    const blocks = r ? arr(r.content) : [];
    if (e.sse) for (const ev of sseEvents(e.sse)) if (ev.type === 'content_block_start') blocks.push(ev.content_block);
    for (const b of blocks) {
      const blk = obj(b);
      const name = blk && (blk.type === 'tool_use' || blk.type === 'server_tool_use' || blk.type === 'mcp_tool_use') ? str(blk.name) : undefined;
      if (!name) continue;
      const server = blk!.type === 'mcp_tool_use' ? str(blk!.server_name) : undefined;
      out.push(loggedCall(server ? `mcp__${server}__${name}` : name, str(blk!.id), blk!.input));
    }
    return out;
  }
  for (const it of responsesOutput(e)) {
    const call = responsesCall(it);
    if (call) out.push(call);
  }
  return out;
}

/** A Responses API response's output items (from the body, or the stream's `response.completed`, else its finished items). */
function responsesOutput(e: Exchange): Json[] {
  if (e.response && Array.isArray(e.response.output)) return arr(e.response.output).flatMap((x) => (obj(x) ? [obj(x)!] : []));
  if (!e.sse) return [];
  const events = sseEvents(e.sse);
  const done = events.find((ev) => ev.type === 'response.completed');
  const items = done ? arr(obj(done.response)?.output) : events.filter((ev) => ev.type === 'response.output_item.done').map((ev) => ev.item);
  return items.flatMap((x) => (obj(x) ? [obj(x)!] : []));
}

/** The function tools a request advertises (and a Responses `mcp_list_tools` lists), as found. */
function advertised(api: Api, e: Exchange, at: string | undefined, skipped: Tally): AdvertisedTool[] {
  const out: AdvertisedTool[] = [];
  const add = (name: unknown, description: unknown, schema: unknown, server?: string): void => {
    if (typeof name !== 'string' || name.trim() === '') return;
    const m = server === undefined ? /^mcp__(.+?)__(.+)$/.exec(name) : null;
    const srv = server ?? m?.[1];
    out.push({
      id: srv !== undefined ? `mcp__${srv}__${m ? m[2] : name}` : name,
      name: m ? m[2]! : name,
      source: srv !== undefined ? 'mcp' : 'core',
      ...(srv !== undefined ? { server: srv } : {}),
      description: typeof description === 'string' ? description : '',
      inputSchema: obj(schema) ?? { type: 'object', properties: {} },
      ...(at ? { at } : {}),
    });
  };
  for (const t of arr(e.request.tools)) {
    const x = obj(t);
    if (!x) continue;
    if (api === 'chat' && x.type === 'function' && obj(x.function)) add(obj(x.function)!.name, obj(x.function)!.description, obj(x.function)!.parameters);
    else if (api === 'responses' && x.type === 'function') add(x.name, x.description, x.parameters);
    else if (api === 'messages' && (x.type === undefined || x.type === 'custom') && x.input_schema !== undefined) add(x.name, x.description, x.input_schema);
    else skipped.add('built-in-tool-definition');
  }
  if (api === 'responses')
    for (const it of responsesOutput(e))
      if (it.type === 'mcp_list_tools')
        for (const t of arr(it.tools)) add(obj(t)?.name, obj(t)?.description, obj(t)?.input_schema, str(it.server_label) ?? 'mcp');
  return out;
}

/** The system prompt's text (what keys a conversation, with its first typed message). */
function systemText(api: Api, q: Json): string {
  if (api === 'messages') return typeof q.system === 'string' ? q.system : textBlocks(q.system).join('\n');
  if (api === 'responses') return str(q.instructions) ?? '';
  const sys = arr(q.messages).find((m) => obj(m)?.role === 'system' || obj(m)?.role === 'developer');
  return sys ? textBlocks(obj(sys)!.content).join('\n') : '';
}

function readApiLog(ctx: ReadContext): FileRead {
  const skipped = new Tally();
  let records = 0;
  const sessions = new Map<string, TranscriptSession>();
  /** Per session and turn, the keys of the calls already counted. */
  const seen = new Map<string, Set<string>>();
  /** Responses API response id → the conversation and the typed turn it answered. */
  const answered = new Map<string, { session: string; turn: number }>();
  const tools: AdvertisedTool[] = [];

  const requestAt = (session: TranscriptSession, turn: number, text: string, at: string | undefined): TypedRequest => {
    let req = session.requests.find((r) => r.turn === turn);
    if (!req) {
      req = { text, turn, ...(at ? { at } : {}), calls: [] };
      session.requests.push(req);
    }
    return req;
  };
  const addCalls = (sessionId: string, req: TypedRequest, calls: ReadonlyArray<{ name: string; key: string; spawns?: string }>) => {
    const k = `${sessionId}\u0000${req.turn}`;
    let keys = seen.get(k);
    if (!keys) seen.set(k, (keys = new Set()));
    addKeyedCalls(req, keys, calls);
  };

  for (const { value } of jsonRecords(ctx.file, skipped)) {
    records++;
    const e = exchangeOf(value);
    if (!e) {
      skipped.add('not-an-api-call');
      continue;
    }
    const api = apiOf(e);
    const offered = advertised(api, e, e.at, skipped);
    const answer = responseCalls(api, e);
    if (offered.length === 0 && answer.length === 0 && arr(e.request.tools).length === 0) {
      skipped.add('side-call-without-tools');
      continue;
    }
    tools.push(...offered);
    const messages = turnsOf(api, e.request);
    for (const m of messages) if (m.role === 'user' && m.reason !== undefined) skipped.add(m.reason);
    const turns = answeredTurns(messages, answer);
    const previous = api === 'responses' ? answered.get(str(e.request.previous_response_id) ?? '') : undefined;
    if (!turns.length && !previous) {
      skipped.add('no-typed-request');
      continue;
    }
    // a conversation is its system prompt and first typed message, or the response it continues
    const sessionId = previous?.session ?? `api-${sha256(`${systemText(api, e.request)}\u0000${turns[0]!.text}`).slice(0, 16)}`;
    const base = previous ? previous.turn + 1 : 0;
    let session = sessions.get(sessionId);
    if (!session) {
      session = { id: sessionId, format: 'api-log', file: ctx.relative, requests: [], leading: [] };
      sessions.set(sessionId, session);
    }
    let current = previous?.turn ?? -1;
    turns.forEach((t, n) => {
      const turn = base + n;
      addCalls(sessionId, requestAt(session, turn, t.text, n === turns.length - 1 ? e.at : undefined), t.calls);
      current = turn;
    });
    if (!turns.length && previous) {
      // only the items after a response: its calls continue the turn it answered (keys: their call ids)
      const req = session.requests.find((r) => r.turn === previous.turn)!;
      addCalls(
        sessionId,
        req,
        answer.map((c, j) => ({
          name: c.name,
          key: c.callId !== undefined ? `id:${c.callId}` : `resp:${records}:${j}`,
          ...(c.spawns ? { spawns: c.spawns } : {}),
        })),
      );
    }
    const responseId = str(e.response?.id);
    if (api === 'responses' && responseId) answered.set(responseId, { session: sessionId, turn: current });
  }
  for (const s of sessions.values()) s.requests.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
  return { sessions: [...sessions.values()], tools, records, skipped };
}

/** Whether parsed records look like an API log (one of the envelopes of the module comment, with an API body). */
function detect(first: readonly unknown[]): boolean {
  return first.some((v) => {
    const r = obj(v);
    if (!r) return false;
    const e = exchangeOf(r);
    return e !== undefined && (Array.isArray(e.request.messages) || e.request.input !== undefined);
  });
}

export const API_LOG_FORMAT: TranscriptFormat = {
  description:
    'request/response logs of OpenAI Chat Completions, OpenAI Responses and Anthropic Messages, one call a line ({"request","response"}, claude-trace, Helicone, LiteLLM, OpenPipe envelopes); the catalog comes from their tools',
  detect,
  read: readApiLog,
};
