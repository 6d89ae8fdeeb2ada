/**
 * Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`. Read from the
 * Codex source (openai/codex codex-rs, commit 4e7399c6: `protocol/src/protocol.rs` RolloutLine and
 * RolloutItem, `protocol/src/models.rs` ResponseItem, `rollout/src/policy.rs`,
 * `core/src/context/*` for the context fragments, `codex-mcp/src/mcp/mod.rs` for MCP names) and from
 * real rollouts (fixtures/transcripts/codex, SOURCES.md).
 *
 * Three layouts: the envelope `{"timestamp","type","payload"}` (September 2025 on: `session_meta`,
 * `turn_context`, `response_item`, `event_msg`, `compacted`, and newer types, which are counted and
 * skipped); before it, JSONL whose first line is the bare session meta `{"id","timestamp",
 * "instructions"}` and whose other lines are bare response items; and the TypeScript CLI's one JSON
 * file `{"session":{…},"items":[…]}`.
 *
 * A typed request is an `event_msg` `user_message` (the file has any), else a `response_item`
 * message with role `user`; either way not a context fragment Codex injects (AGENTS.md
 * instructions, `<environment_context>`, `<user_instructions>`, `<skill>`, `<user_shell_command>`,
 * `<turn_aborted>`, `<subagent_notification>`, `<hook_prompt>`) nor a compaction summary; the IDE's
 * "## My request for Codex:" prefix is removed. Calls: `function_call` (MCP tools by their
 * qualified name `mcp__<server>__<tool>`, or `namespace` + `name` since April 2026, or
 * `<server>__<tool>` before October 2025; the raw names of an `mcp_tool_call_end` with the same
 * call id when the rollout kept one), `custom_tool_call`, `local_shell_call` (`local_shell`),
 * `web_search_call` (`web_search`), `tool_search_call` (`tool_search`), `image_generation_call`
 * (`image_generation`). A forked session re-records its parent's history: the requests it shares
 * with the parent are dropped by the import. Subagent threads (`source.subagent.thread_spawn`) go to
 * their parent's turn; other auxiliary threads (review, compact) are skipped.
 */
import { anyTime, arr, type Json, jsonRecords, obj, str, wholeJson } from './records.ts';
import { textBlocks } from './text.ts';
import { type FileRead, type ReadContext, type RecordedCall, Tally, type TranscriptFormat, type TranscriptSession } from './types.ts';

/** Context fragments Codex injects as user messages: `[start, end]`, matched on the trimmed text, case-insensitively. */
const FRAGMENTS: ReadonlyArray<[string, string]> = [
  ['# AGENTS.md instructions for ', '</INSTRUCTIONS>'],
  ['<user_instructions>', '</user_instructions>'],
  ['<environment_context>', '</environment_context>'],
  ['<skill>', '</skill>'],
  ['<user_shell_command>', '</user_shell_command>'],
  ['<turn_aborted>', '</turn_aborted>'],
  ['<subagent_notification>', '</subagent_notification>'],
  ['<hook_prompt', '</hook_prompt>'],
];

/** The start of a compaction summary (`core/templates/compact/summary_prefix.md`). */
const SUMMARY_PREFIX = 'Another language model started to solve this problem';
/** The IDE's marker before the request itself (`protocol/src/protocol.rs` USER_MESSAGE_BEGIN). */
const REQUEST_BEGIN = '## My request for Codex:';

/** Why a user-role text is not a typed request, or undefined. */
export function codexNotTyped(text: string): string | undefined {
  const t = text.trim().toLowerCase();
  for (const [start, end] of FRAGMENTS) if (t.startsWith(start.toLowerCase()) && (t.endsWith(end.toLowerCase()) || start.startsWith('#'))) return 'context';
  if (t.startsWith(SUMMARY_PREFIX.toLowerCase())) return 'compaction-summary';
  return undefined;
}

/** The request text of a typed message: what follows the IDE's request marker, trimmed. */
function requestText(text: string): string {
  const i = text.indexOf(REQUEST_BEGIN);
  return (i >= 0 ? text.slice(i + REQUEST_BEGIN.length) : text).trim();
}

/** A tool id from a `function_call`'s name and namespace (see the module comment). */
export function codexToolId(name: string, namespace?: string): string {
  const q = `${namespace ?? ''}${name}`;
  if (q.startsWith('mcp__')) {
    const parts = q.slice(5).split('__');
    const server = parts[0] ?? '';
    const tool = parts.slice(1).join('__');
    return server && tool ? `mcp__${server}__${tool}` : q;
  }
  if (namespace) return `${namespace.replace(/_+$/, '')}__${name}`;
  // before October 2025: `<server>__<tool>`; built-in names never hold "__"
  const i = name.indexOf('__');
  return i > 0 && i < name.length - 2 ? `mcp__${name.slice(0, i)}__${name.slice(i + 2)}` : name;
}

/** The tool id of a call item, or undefined when the item is not a call. */
function callOf(item: Json): { id: string; callId?: string } | undefined {
  const callId = str(item.call_id);
  const withId = (id: string) => ({ id, ...(callId ? { callId } : {}) });
  switch (item.type) {
    case 'function_call': {
      const name = str(item.name);
      return name ? withId(codexToolId(name, str(item.namespace))) : undefined;
    }
    case 'custom_tool_call': {
      const name = str(item.name);
      return name ? withId(name) : undefined;
    }
    case 'local_shell_call':
      return withId('local_shell');
    case 'web_search_call':
      return withId('web_search');
    case 'tool_search_call':
      return withId('tool_search');
    case 'image_generation_call':
      return withId('image_generation');
    default:
      return undefined;
  }
}

interface Step {
  kind: 'event-request' | 'item-request' | 'call' | 'mcp-end';
  text?: string;
  at?: string;
  call?: { id: string; callId?: string };
  raw?: { server: string; tool: string; callId: string };
}

function readCodex(ctx: ReadContext): FileRead {
  const skipped = new Tally();
  let records = 0;
  const steps: Step[] = [];
  let meta: Json | undefined;
  let metaAt: string | undefined;
  let hasEvents = false;

  const item = (payload: Json, at: string | undefined): void => {
    if (payload.type === 'message') {
      if (payload.role === 'user') steps.push({ kind: 'item-request', text: textBlocks(payload.content).join('\n'), ...(at ? { at } : {}) });
      else skipped.add(`message:${str(payload.role) ?? '(no role)'}`);
      return;
    }
    const call = callOf(payload);
    if (call) steps.push({ kind: 'call', call });
    else skipped.add(`item:${str(payload.type) ?? '(none)'}`);
  };

  const handle = (r: Json, first: boolean): void => {
    records++;
    const at = anyTime(r.timestamp);
    const payload = obj(r.payload);
    if (typeof r.type === 'string' && payload) {
      switch (r.type) {
        case 'session_meta':
          meta ??= payload;
          metaAt ??= anyTime(payload.timestamp) ?? at;
          return;
        case 'response_item':
          item(payload, at);
          return;
        case 'event_msg': {
          if (payload.type === 'user_message') {
            hasEvents = true;
            const kind = str(payload.kind);
            if (kind !== undefined && kind !== 'plain') {
              skipped.add('context');
              return;
            }
            steps.push({ kind: 'event-request', text: str(payload.message) ?? '', ...(at ? { at } : {}) });
            return;
          }
          if (payload.type === 'mcp_tool_call_end' || payload.type === 'mcp_tool_call_begin') {
            const inv = obj(payload.invocation);
            const server = str(inv?.server);
            const tool = str(inv?.tool);
            const callId = str(payload.call_id);
            if (server && tool && callId) steps.push({ kind: 'mcp-end', raw: { server, tool, callId } });
          }
          skipped.add(`event:${str(payload.type) ?? '(none)'}`);
          return;
        }
        case 'turn_context':
        case 'compacted':
          skipped.add(r.type);
          return;
        default:
          skipped.add(`unknown-type:${r.type}`);
          return;
      }
    }
    // the layout before the envelope: a bare session meta first, then bare response items
    if (first && typeof r.id === 'string' && r.type === undefined) {
      meta = r;
      metaAt = anyTime(r.timestamp);
      return;
    }
    if (r.record_type === 'state') {
      skipped.add('state');
      return;
    }
    if (typeof r.type === 'string') item(r, undefined);
    else skipped.add(`unknown-type:${str(r.type) ?? '(none)'}`);
  };

  if (/\.json$/i.test(ctx.file)) {
    // the TypeScript CLI's rollout: one JSON object {"session":{…},"items":[…]}
    const whole = wholeJson(ctx.file);
    if ('problem' in whole) skipped.add(whole.problem);
    else {
      meta = obj(whole.value.session);
      metaAt = anyTime(meta?.timestamp);
      for (const it of arr(whole.value.items)) {
        records++;
        if (obj(it)) item(obj(it)!, undefined);
      }
    }
  } else {
    let first = true;
    for (const { value } of jsonRecords(ctx.file, skipped)) {
      handle(value, first);
      first = false;
    }
  }

  const id = str(meta?.id) ?? ctx.file.replace(/^.*[\\/]/, '').replace(/\.jsonl?$/i, '');
  const session: TranscriptSession = { id, format: 'codex', harness: 'codex', file: ctx.relative, requests: [], leading: [] };
  const source = meta?.source;
  const subagent = obj(obj(source)?.subagent) ?? (typeof obj(source)?.subagent === 'string' ? {} : undefined);
  if (subagent !== undefined) {
    const parent = str(obj(subagent.thread_spawn)?.parent_thread_id);
    if (!parent) {
      skipped.add('auxiliary-thread');
      return { sessions: [], tools: [], records, skipped };
    }
    session.parent = { sessionId: parent, links: [], ...(metaAt ? { at: metaAt } : {}) };
  }
  const forkedFrom = str(meta?.forked_from_id);
  if (forkedFrom) session.forkedFrom = forkedFrom;

  const requestKind = hasEvents ? 'event-request' : 'item-request';
  const byCallId = new Map<string, RecordedCall>();
  for (const step of steps) {
    if (step.kind === 'call') {
      const call: RecordedCall = { id: step.call!.id };
      if (step.call!.callId) byCallId.set(step.call!.callId, call);
      const last = session.requests[session.requests.length - 1];
      if (last && !session.parent) last.calls.push(call);
      else session.leading.push(call);
    } else if (step.kind === 'mcp-end') {
      const call = byCallId.get(step.raw!.callId);
      if (call) call.id = `mcp__${step.raw!.server}__${step.raw!.tool}`;
    } else if (step.kind === requestKind) {
      const reason = codexNotTyped(step.text ?? '');
      const text = requestText(step.text ?? '');
      if (reason) skipped.add(reason);
      else if (text === '') skipped.add('empty');
      else if (session.parent) skipped.add('subagent-message');
      else session.requests.push({ text, ...(step.at ? { at: step.at } : {}), calls: [] });
    } else skipped.add('user-message-item');
  }
  return { sessions: [session], tools: [], records, skipped };
}

/** Whether parsed records look like a Codex rollout (any of its three layouts). */
function detect(first: readonly unknown[]): boolean {
  const r = obj(first[0]);
  if (!r) return false;
  if (r.type === 'session_meta' && obj(r.payload)) return true;
  if (typeof r.timestamp === 'string' && ['response_item', 'event_msg', 'turn_context'].includes(str(r.type) ?? '') && obj(r.payload)) return true;
  if (obj(r.session) && Array.isArray(r.items)) return true;
  // the layout before the envelope: a bare session meta, then response items
  const second = obj(first[1]);
  return (
    typeof r.id === 'string' &&
    typeof r.timestamp === 'string' &&
    r.type === undefined &&
    (second === undefined || typeof second.type === 'string' || second.record_type === 'state')
  );
}

export const CODEX_FORMAT: TranscriptFormat = {
  description: 'Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl; also the older bare-item JSONL and the TypeScript CLI JSON)',
  detect,
  read: readCodex,
};
