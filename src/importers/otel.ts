/**
 * OpenTelemetry GenAI traces as OTLP JSON: one `{"resourceSpans":[…]}` document, or JSON Lines of
 * them (the OpenTelemetry file exporter). Read from the GenAI semantic conventions
 * (open-telemetry/semantic-conventions, docs/gen-ai at commit 953276ff, the last before they moved
 * to semantic-conventions-genai) and real exports (fixtures/transcripts/otel, SOURCES.md).
 *
 * Spans are grouped into sessions by `gen_ai.conversation.id` (or `session.id`), else by trace,
 * and read in start-time order:
 *   - a model span carries the conversation: `gen_ai.input.messages` (JSON; parts of type `text`
 *     with `content`), or OpenLLMetry's older indexed `gen_ai.prompt.<i>.role|content`, or
 *     OpenInference's `llm.input_messages.<i>.message.role|content`. Its typed user messages are
 *     the session's turns, matched to those already seen by their text; its output's tool calls
 *     (`tool_call` parts of `gen_ai.output.messages`, `gen_ai.completion.<i>.tool_calls.<j>.name`,
 *     `llm.output_messages.<i>.message.tool_calls.<j>.tool_call.function.name`) go to its newest
 *     typed turn;
 *   - a tool span (`gen_ai.operation.name` `execute_tool`, or an MCP `tools/call` span) is a call
 *     of `gen_ai.tool.name`, made for the session's newest turn at its start; a call the model
 *     span already showed (same `gen_ai.tool.call.id`) is counted once.
 * Tool definitions: `gen_ai.tool.definitions` (often names only: the conventions make the rest
 * opt-in), a tool span's `gen_ai.tool.description`, OpenLLMetry's `llm.request.functions.<i>.*`,
 * OpenInference's `llm.tools.<i>.tool.json_schema`. Enum values may be names or numbers; 64-bit
 * integers strings or numbers (both occur in real exports).
 */
import { tooDeep } from '../util/bounded.ts';
import { arr, type Json, jsonRecords, obj, str, wholeJson } from './records.ts';
import { sha256 } from '../util/hash.ts';
import { addKeyedCalls, answeredTurns, type LoggedMessage } from './conversation.ts';
import { injectedReason, typedText } from './text.ts';
import { type AdvertisedTool, type FileRead, type ReadContext, Tally, type TranscriptFormat, type TranscriptSession } from './types.ts';

interface Span {
  traceId: string;
  spanId: string;
  start: number;
  attrs: Map<string, unknown>;
  order: number;
}

/** An OTLP AnyValue as a plain value. */
function anyValue(v: unknown): unknown {
  const x = obj(v);
  if (!x) return undefined;
  if ('stringValue' in x) return x.stringValue;
  if ('boolValue' in x) return x.boolValue;
  if ('intValue' in x) return Number(x.intValue);
  if ('doubleValue' in x) return x.doubleValue;
  if ('arrayValue' in x) return arr(obj(x.arrayValue)?.values).map(anyValue);
  if ('kvlistValue' in x) return Object.fromEntries(arr(obj(x.kvlistValue)?.values).map((kv) => [str(obj(kv)?.key) ?? '', anyValue(obj(kv)?.value)]));
  return undefined;
}

/** A JSON attribute: a string holding JSON, or the structured value itself. */
function jsonAttr(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    const parsed: unknown = JSON.parse(v);
    // an attribute holding JSON text is parsed here, past the record's own nesting check
    return tooDeep(parsed) === undefined ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function spansOf(doc: Json, out: Span[]): void {
  for (const rs of arr(doc.resourceSpans))
    for (const ss of arr(obj(rs)?.scopeSpans ?? obj(rs)?.instrumentationLibrarySpans))
      for (const sp of arr(obj(ss)?.spans)) {
        const s = obj(sp);
        if (!s) continue;
        const attrs = new Map<string, unknown>();
        for (const a of arr(s.attributes)) {
          const key = str(obj(a)?.key);
          if (key !== undefined) attrs.set(key, anyValue(obj(a)?.value));
        }
        const start = Number(s.startTimeUnixNano ?? 0);
        out.push({ traceId: str(s.traceId) ?? '', spanId: str(s.spanId) ?? '', start: Number.isFinite(start) ? start : 0, attrs, order: out.length });
      }
}

/** Indexed attributes `<prefix>.<i>.<rest>` as a list of objects keyed by `<rest>`. */
function indexed(attrs: Map<string, unknown>, prefix: string): Array<Map<string, unknown>> {
  const out: Array<Map<string, unknown>> = [];
  for (const [k, v] of attrs) {
    if (!k.startsWith(`${prefix}.`)) continue;
    const m = /^(\d+)\.(.+)$/.exec(k.slice(prefix.length + 1));
    if (!m) continue;
    const i = Number(m[1]);
    if (i > 10_000) continue;
    while (out.length <= i) out.push(new Map());
    out[i]!.set(m[2]!, v);
  }
  return out;
}

interface Message {
  role: string;
  texts: string[];
  calls: Array<{ name: string; callId?: string }>;
}

/** The messages of a `gen_ai.*.messages` value (conventions' parts, or OpenAI-style `content`). */
function semconvMessages(v: unknown): Message[] {
  return arr(jsonAttr(v)).flatMap((m) => {
    const x = obj(m);
    if (!x) return [];
    const parts = arr(x.parts);
    const texts = parts.length
      ? parts.flatMap((p) => (obj(p)?.type === 'text' && typeof obj(p)!.content === 'string' ? [obj(p)!.content as string] : []))
      : typeof x.content === 'string'
        ? [x.content]
        : [];
    const calls = parts.flatMap((p) => {
      const q = obj(p);
      const name = q?.type === 'tool_call' ? str(q.name) : undefined;
      const callId = str(q?.id)?.trim();
      return name ? [{ name, ...(callId ? { callId } : {}) }] : [];
    });
    const toolResult = parts.some((p) => obj(p)?.type === 'tool_call_response');
    return [{ role: toolResult ? 'tool' : (str(x.role) ?? ''), texts, calls }];
  });
}

/** Where an indexed dialect keeps a message's parts (each under `<prefix>.<i>.`). */
interface IndexedDialect {
  input: string;
  output: string;
  role: string;
  content: string;
  calls: string;
  callName: string;
  callId: string;
}

const INDEXED_DIALECTS: readonly IndexedDialect[] = [
  { input: 'gen_ai.prompt', output: 'gen_ai.completion', role: 'role', content: 'content', calls: 'tool_calls', callName: 'name', callId: 'id' },
  {
    input: 'llm.input_messages',
    output: 'llm.output_messages',
    role: 'message.role',
    content: 'message.content',
    calls: 'message.tool_calls',
    callName: 'tool_call.function.name',
    callId: 'tool_call.id',
  },
];

/** One message of an indexed dialect. */
function indexedMessage(m: Map<string, unknown>, d: IndexedDialect): Message {
  const content = m.get(d.content);
  return {
    role: str(m.get(d.role)) ?? '',
    texts: typeof content === 'string' ? [content] : [],
    calls: indexed(m, d.calls).flatMap((c) => {
      const name = str(c.get(d.callName));
      const callId = str(c.get(d.callId));
      return name ? [{ name, ...(callId ? { callId } : {}) }] : [];
    }),
  };
}

/** A model span's input and output messages, in whichever dialect it was written; undefined for other spans. */
function modelMessages(attrs: Map<string, unknown>): { input: Message[]; output: Message[] } | undefined {
  if (attrs.has('gen_ai.input.messages') || attrs.has('gen_ai.output.messages'))
    return { input: semconvMessages(attrs.get('gen_ai.input.messages')), output: semconvMessages(attrs.get('gen_ai.output.messages')) };
  // the indexed dialects: OpenLLMetry's older `gen_ai.prompt.<i>.*`, OpenInference's `llm.input_messages.<i>.message.*`
  for (const d of INDEXED_DIALECTS) {
    const input = indexed(attrs, d.input);
    const output = indexed(attrs, d.output);
    if (input.length || output.length) return { input: input.map((m) => indexedMessage(m, d)), output: output.map((m) => indexedMessage(m, d)) };
  }
  return undefined;
}

function toolDefinitions(attrs: Map<string, unknown>, at: string | undefined): AdvertisedTool[] {
  const out: AdvertisedTool[] = [];
  const add = (name: unknown, description: unknown, schema: unknown): void => {
    if (typeof name !== 'string' || name.trim() === '') return;
    const m = /^mcp__(.+?)__(.+)$/.exec(name);
    out.push({
      id: name,
      name: m ? m[2]! : name,
      source: m ? 'mcp' : 'core',
      ...(m ? { server: m[1]! } : {}),
      description: typeof description === 'string' ? description : '',
      inputSchema: obj(jsonAttr(schema)) ?? { type: 'object', properties: {} },
      ...(at ? { at } : {}),
    });
  };
  for (const d of arr(jsonAttr(attrs.get('gen_ai.tool.definitions')))) {
    const x = obj(d);
    const f = obj(x?.function) ?? x;
    if (f) add(f.name, f.description, f.parameters ?? f.input_schema);
  }
  for (const f of indexed(attrs, 'llm.request.functions')) add(f.get('name'), f.get('description'), f.get('parameters') ?? f.get('input_schema'));
  for (const t of indexed(attrs, 'llm.tools')) {
    const x = obj(jsonAttr(t.get('tool.json_schema')));
    const f = obj(x?.function) ?? x;
    if (f) add(f.name, f.description, f.parameters ?? f.input_schema);
  }
  return out;
}

/** A span's start as ISO time; undefined when absent or out of the range a date can hold. */
const isoOfNanos = (n: number): string | undefined => {
  const ms = n / 1e6;
  return Number.isFinite(ms) && ms > 0 && ms < 8.64e15 ? new Date(ms).toISOString() : undefined;
};

/** The conversation a span says it is part of. */
const conversationOf = (s: Span): string | undefined => str(s.attrs.get('gen_ai.conversation.id')) ?? str(s.attrs.get('session.id'));

function readOtel(ctx: ReadContext): FileRead {
  const skipped = new Tally();
  const spans: Span[] = [];
  // one document (.json), else JSON Lines of them (also JSON Lines under a .json name)
  const whole = /\.json$/i.test(ctx.file) ? wholeJson(ctx.file) : undefined;
  if (whole && 'value' in whole) spansOf(whole.value, spans);
  else if (whole?.problem === 'nested-too-deep') skipped.add('nested-too-deep');
  else for (const { value } of jsonRecords(ctx.file, skipped)) spansOf(value, spans);

  const tools: AdvertisedTool[] = [];
  const sessions = new Map<string, { session: TranscriptSession; seen: Map<number, Set<string>> }>();
  const sessionOf = (key: string) => {
    let s = sessions.get(key);
    if (!s) sessions.set(key, (s = { session: { id: key, format: 'otel', file: ctx.relative, requests: [], leading: [] }, seen: new Map() }));
    return s;
  };
  const addCalls = (s: { session: TranscriptSession; seen: Map<number, Set<string>> }, turn: number, calls: ReadonlyArray<{ name: string; key: string }>) => {
    let keys = s.seen.get(turn);
    if (!keys) s.seen.set(turn, (keys = new Set()));
    addKeyedCalls(s.session.requests.find((r) => r.turn === turn)!, keys, calls);
  };
  // a trace takes the conversation any of its spans names (a span's own id first)
  const traceConversation = new Map<string, string>();
  for (const sp of spans) {
    const c = conversationOf(sp);
    if (c !== undefined && !traceConversation.has(sp.traceId)) traceConversation.set(sp.traceId, c);
  }
  const byTrace = new Map<string, Span[]>();
  for (const sp of spans) {
    let list = byTrace.get(sp.traceId);
    if (!list) byTrace.set(sp.traceId, (list = []));
    list.push(sp);
  }
  for (const list of byTrace.values()) {
    list.sort((a, b) => a.start - b.start || a.order - b.order);
    /** The session and turn the trace's latest model span answered: where its tool spans' calls go. */
    let current: { key: string; turn: number } | undefined;
    for (const sp of list) {
      const at = isoOfNanos(sp.start);
      tools.push(...toolDefinitions(sp.attrs, at));
      const op = str(sp.attrs.get('gen_ai.operation.name'));
      const model = modelMessages(sp.attrs);
      if (model) {
        const messages: LoggedMessage[] = model.input.map((m) => {
          if (m.role !== 'user') return { role: m.role === 'assistant' ? 'assistant' : 'other', typed: '', calls: m.calls };
          const text = typedText(m.texts);
          const reason = text === '' ? 'empty' : injectedReason(text);
          if (reason) skipped.add(reason);
          return { role: 'user', typed: reason ? '' : text, calls: [] };
        });
        const turns = answeredTurns(
          messages,
          model.output.flatMap((m) => m.calls),
        );
        if (!turns.length) {
          skipped.add('model-span-without-request');
          continue;
        }
        const key =
          conversationOf(sp) ??
          traceConversation.get(sp.traceId) ??
          `otel-${sha256(`${str(sp.attrs.get('gen_ai.system_instructions')) ?? ''}\u0000${turns[0]!.text}`).slice(0, 16)}`;
        const s = sessionOf(key);
        // the same texts at the same turns (the history resent), else new turns after the known ones
        const known = new Map(s.session.requests.map((r) => [r.turn!, r.text]));
        const aligned = turns.every((t, n) => !known.has(n) || known.get(n) === t.text);
        const base = aligned ? 0 : Math.max(-1, ...known.keys()) + 1;
        turns.forEach((t, n) => {
          const turn = base + n;
          if (!known.has(turn)) s.session.requests.push({ text: t.text, turn, ...(at ? { at } : {}), calls: [] });
          addCalls(s, turn, t.calls);
        });
        current = { key, turn: base + turns.length - 1 };
        continue;
      }
      if (op === 'execute_tool' || sp.attrs.get('mcp.method.name') === 'tools/call') {
        const name = str(sp.attrs.get('gen_ai.tool.name'));
        if (!name) {
          skipped.add('tool-span-without-name');
          continue;
        }
        const description = str(sp.attrs.get('gen_ai.tool.description'));
        if (description !== undefined)
          tools.push({
            id: name,
            name,
            source: name.startsWith('mcp__') ? 'mcp' : 'core',
            description,
            inputSchema: { type: 'object', properties: {} },
            ...(at ? { at } : {}),
            ...(name.startsWith('mcp__') ? { server: name.split('__')[1]! } : {}),
          });
        const callId = str(sp.attrs.get('gen_ai.tool.call.id'))?.trim();
        const call = { name, key: callId ? `id:${callId}` : `span:${sp.spanId}` };
        if (current) addCalls(sessionOf(current.key), current.turn, [call]);
        else skipped.add('tool-span-before-any-request');
        continue;
      }
      skipped.add(op ? `span:${op}` : 'span:other');
    }
  }
  const out: TranscriptSession[] = [];
  for (const { session } of sessions.values()) {
    session.requests.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
    out.push(session);
  }
  return { sessions: out, tools, records: spans.length, skipped };
}

/** Whether parsed records look like OTLP JSON traces. */
function detect(first: readonly unknown[]): boolean {
  return first.some((v) => Array.isArray(obj(v)?.resourceSpans));
}

export const OTEL_FORMAT: TranscriptFormat = {
  description: 'OpenTelemetry GenAI spans as OTLP JSON ({"resourceSpans":[…]}, one document or one a line): gen_ai.* model and execute_tool spans',
  detect,
  read: readOtel,
};
