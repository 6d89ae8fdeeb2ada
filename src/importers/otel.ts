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
import { readTextFile, tooDeep } from '../util/bounded.ts';
import { arr, type Json, jsonRecords, obj, str } from './records.ts';
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

/** A model span's input and output messages, in whichever dialect it was written; undefined for other spans. */
function modelMessages(attrs: Map<string, unknown>): { input: Message[]; output: Message[] } | undefined {
  if (attrs.has('gen_ai.input.messages') || attrs.has('gen_ai.output.messages'))
    return { input: semconvMessages(attrs.get('gen_ai.input.messages')), output: semconvMessages(attrs.get('gen_ai.output.messages')) };
  const legacy = indexed(attrs, 'gen_ai.prompt');
  const legacyOut = indexed(attrs, 'gen_ai.completion');
  if (legacy.length || legacyOut.length) {
    const msg = (m: Map<string, unknown>): Message => ({
      role: str(m.get('role')) ?? '',
      texts: typeof m.get('content') === 'string' ? [m.get('content') as string] : [],
      calls: indexed(m, 'tool_calls').flatMap((c) => {
        const name = str(c.get('name'));
        const callId = str(c.get('id'));
        return name ? [{ name, ...(callId ? { callId } : {}) }] : [];
      }),
    });
    return { input: legacy.map(msg), output: legacyOut.map(msg) };
  }
  const oiIn = indexed(attrs, 'llm.input_messages');
  const oiOut = indexed(attrs, 'llm.output_messages');
  if (oiIn.length || oiOut.length) {
    const msg = (m: Map<string, unknown>): Message => ({
      role: str(m.get('message.role')) ?? '',
      texts: typeof m.get('message.content') === 'string' ? [m.get('message.content') as string] : [],
      calls: indexed(m, 'message.tool_calls').flatMap((c) => {
        const name = str(c.get('tool_call.function.name'));
        const callId = str(c.get('tool_call.id'));
        return name ? [{ name, ...(callId ? { callId } : {}) }] : [];
      }),
    });
    return { input: oiIn.map(msg), output: oiOut.map(msg) };
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

const isoOfNanos = (n: number): string | undefined => (n > 0 ? new Date(n / 1e6).toISOString() : undefined);

function readOtel(ctx: ReadContext): FileRead {
  const skipped = new Tally();
  let records = 0;
  const spans: Span[] = [];
  let whole: Json | undefined;
  if (/\.json$/i.test(ctx.file)) {
    try {
      whole = obj(JSON.parse(readTextFile(ctx.file)));
    } catch {
      whole = undefined; // JSON Lines under a .json name: read line by line below
    }
  }
  if (whole && tooDeep(whole) !== undefined) skipped.add('nested-too-deep');
  else if (whole) spansOf(whole, spans);
  else for (const { value } of jsonRecords(ctx.file, skipped)) spansOf(value, spans);
  records = spans.length;

  const tools: AdvertisedTool[] = [];
  const bySession = new Map<string, Span[]>();
  for (const s of spans) {
    const key = str(s.attrs.get('gen_ai.conversation.id')) ?? str(s.attrs.get('session.id')) ?? `trace-${s.traceId}`;
    let list = bySession.get(key);
    if (!list) bySession.set(key, (list = []));
    list.push(s);
  }
  // spans of one trace take the conversation id any of them carries
  const traceSession = new Map<string, string>();
  for (const [key, list] of bySession) if (!key.startsWith('trace-')) for (const s of list) traceSession.set(s.traceId, key);
  const grouped = new Map<string, Span[]>();
  for (const s of spans) {
    const key = traceSession.get(s.traceId) ?? `trace-${s.traceId}`;
    let list = grouped.get(key);
    if (!list) grouped.set(key, (list = []));
    list.push(s);
  }

  const sessions: TranscriptSession[] = [];
  for (const [key, list] of grouped) {
    list.sort((a, b) => a.start - b.start || a.order - b.order);
    const session: TranscriptSession = { id: key, format: 'otel', file: ctx.relative, requests: [], leading: [] };
    const seenCalls = new Set<string>();
    let current = -1;
    const call = (name: string, callId: string | undefined): void => {
      if (callId !== undefined) {
        if (seenCalls.has(callId)) return;
        seenCalls.add(callId);
      }
      if (current >= 0) session.requests[current]!.calls.push({ id: name });
      else session.leading.push({ id: name });
    };
    for (const s of list) {
      const at = isoOfNanos(s.start);
      tools.push(...toolDefinitions(s.attrs, at));
      const op = str(s.attrs.get('gen_ai.operation.name'));
      const model = modelMessages(s.attrs);
      if (model) {
        const typed = model.input.flatMap((m) => {
          if (m.role !== 'user') return [];
          const text = typedText(m.texts);
          const reason = text === '' ? 'empty' : injectedReason(text);
          if (reason) skipped.add(reason);
          return reason ? [] : [text];
        });
        // align with the turns already seen: the same texts in the same order, else new turns
        const known = session.requests.map((r) => r.text);
        const aligned = typed.every((t, i) => known[i] === undefined || known[i] === t);
        const base = aligned ? 0 : known.length;
        typed.forEach((text, i) => {
          if (session.requests[base + i] === undefined) session.requests.push({ text, ...(at ? { at } : {}), calls: [] });
        });
        if (typed.length) current = base + typed.length - 1;
        for (const m of model.input) if (m.role === 'assistant') for (const c of m.calls) call(c.name, c.callId);
        for (const m of model.output) for (const c of m.calls) call(c.name, c.callId);
        continue;
      }
      if (op === 'execute_tool' || s.attrs.get('mcp.method.name') === 'tools/call') {
        const name = str(s.attrs.get('gen_ai.tool.name'));
        if (!name) {
          skipped.add('tool-span-without-name');
          continue;
        }
        const description = str(s.attrs.get('gen_ai.tool.description'));
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
        call(name, str(s.attrs.get('gen_ai.tool.call.id'))?.trim());
        continue;
      }
      skipped.add(op ? `span:${op}` : 'span:other');
    }
    if (session.requests.length || session.leading.length) sessions.push(session);
    else skipped.add('trace-without-request');
  }
  return { sessions, tools, records, skipped };
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
