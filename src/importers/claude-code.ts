/**
 * Claude Code session transcripts: `~/.claude/projects/<encoded cwd>/<session>.jsonl`, one JSON
 * record a line, with subagents in `<session>/subagents/agent-<id>.jsonl` (2.1), flat
 * `agent-<id>.jsonl` files (2.0) or inline `isSidechain` records (1.0). Read from real transcripts
 * of Claude Code 1.0.108, 2.0.55, 2.1.38, 2.1.39 and 2.1.114 (fixtures/transcripts/claude-code,
 * SOURCES.md); Anthropic does not document the format.
 *
 * A typed request is a `user` record of the main thread that is not a tool result, not `isMeta`,
 * not a compaction summary (`isCompactSummary`), and whose text (a string, or its `text` blocks,
 * with injected `<system-reminder>` and IDE context blocks removed) is not a slash command or its
 * output (`<command-name>`, `<local-command-stdout>`, the local-command caveat…), bash mode
 * (`<bash-input>`…), a background-task notification or an interrupt marker. A tool call is a
 * `tool_use` block of an `assistant` record (each block once, by its id). `progress` records
 * (which copy a subagent's calls) and the other bookkeeping types are counted and skipped.
 *
 * Subagents: their first prompt is written by the parent agent, so they have no typed request;
 * their calls go to the parent's turn that started them, linked by the agent id the parent's tool
 * result names (`toolUseResult.agentId`, or a `progress` record's `data.agentId`) or by the turn's
 * `promptId`; inline sidechain records go to the turn they appear in. Calls made after a slash
 * command (`/review-pr 123` and its expansion) answer no typed request: counted, not kept. Compaction runs
 * (`agent-acompact-*`) and 2.0's "Warmup" subagents are not the agent's work and are skipped.
 */
import { arr, anyTime, type Json, jsonRecords, obj, str } from './records.ts';
import { injectedReason, textBlocks, typedText } from './text.ts';
import { type FileRead, type ReadContext, type RecordedCall, Tally, type TranscriptFormat, type TranscriptSession, type TypedRequest } from './types.ts';

/** Record types that are bookkeeping, not conversation: counted and skipped. */
const BOOKKEEPING = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'permission-mode',
  'last-prompt',
  'custom-title',
  'agent-name',
  'system',
]);

/** Why a main-thread `user` record (of typed text `text`) is not a typed request, or undefined when it is one. */
export function notTypedReason(r: Json, text: string): string | undefined {
  const content = obj(r.message)?.content;
  if (arr(content).some((b) => obj(b)?.type === 'tool_result')) return 'tool-result';
  if (r.isMeta === true) return 'meta';
  if (r.isCompactSummary === true) return 'compaction-summary';
  const injected = injectedReason(text);
  if (injected) return injected;
  if (text === '') return arr(content).some((b) => obj(b)?.type === 'image') ? 'image-only' : 'empty';
  return undefined;
}

/** The typed text of a `user` record (injected context removed). */
function typedOf(r: Json): string {
  return typedText(textBlocks(obj(r.message)?.content));
}

interface SessionState {
  session: TranscriptSession;
  seenCalls: Set<string>;
  /** A slash command was run since the last typed request: the calls it leads to answer no typed request. */
  afterCommand: boolean;
}

function readClaudeCode(ctx: ReadContext): FileRead {
  const skipped = new Tally();
  let records = 0;
  const sessions = new Map<string, SessionState>();
  const dropped = new Set<string>();
  const stem = ctx.file.replace(/^.*[\\/]/, '').replace(/\.jsonl?$/i, '');

  const stateOf = (r: Json): SessionState | undefined => {
    const sessionId = str(r.sessionId) ?? stem;
    const agentId = r.isSidechain === true ? str(r.agentId) : undefined;
    const key = agentId !== undefined ? `${sessionId}/agent-${agentId}` : sessionId;
    if (dropped.has(key)) return undefined;
    let s = sessions.get(key);
    if (!s) {
      const session: TranscriptSession = { id: key, format: 'claude-code', harness: 'claude-code', file: ctx.relative, requests: [], leading: [] };
      if (agentId !== undefined) {
        if (agentId.startsWith('acompact')) {
          dropped.add(key);
          skipped.add('compaction-agent');
          return undefined;
        }
        const promptId = str(r.promptId);
        session.parent = { sessionId, links: [agentId, ...(promptId ? [promptId] : [])], ...(anyTime(r.timestamp) ? { at: anyTime(r.timestamp)! } : {}) };
      }
      s = { session, seenCalls: new Set(), afterCommand: false };
      sessions.set(key, s);
    }
    return s;
  };
  const lastRequest = (s: SessionState): TypedRequest | undefined => s.session.requests[s.session.requests.length - 1];
  const link = (s: SessionState | undefined, id: string | undefined): void => {
    const req = s ? lastRequest(s) : undefined;
    if (!req || !id) return;
    req.links ??= [];
    if (!req.links.includes(id)) req.links.push(id);
  };

  for (const { value: r } of jsonRecords(ctx.file, skipped)) {
    records++;
    const type = str(r.type);
    if (type === 'user' || type === 'assistant') {
      const s = stateOf(r);
      if (!s) continue;
      const inSubagent = s.session.parent !== undefined;
      const inlineSidechain = !inSubagent && r.isSidechain === true;
      if (type === 'user') {
        if (inSubagent || inlineSidechain) {
          if (inSubagent && s.session.requests.length === 0 && s.seenCalls.size === 0 && typedOf(r) === 'Warmup') {
            dropped.add(s.session.id);
            sessions.delete(s.session.id);
            skipped.add('warmup-agent');
          } else skipped.add('subagent-message');
          continue;
        }
        const text = typedOf(r);
        const reason = notTypedReason(r, text);
        if (reason === 'tool-result') {
          const result = obj(r.toolUseResult);
          link(s, str(result?.agentId));
        }
        if (reason !== undefined) {
          skipped.add(reason);
          // a slash command (its expansion follows as isMeta) is work no typed request asked for
          if (reason === 'slash-command' && /^<command-(?:name|message)>/.test(text)) s.afterCommand = true;
          continue;
        }
        s.afterCommand = false;
        const at = anyTime(r.timestamp);
        const promptId = str(r.promptId);
        s.session.requests.push({ text, ...(at ? { at } : {}), calls: [], ...(promptId ? { links: [promptId] } : {}) });
        continue;
      }
      for (const block of arr(obj(r.message)?.content)) {
        const b = obj(block);
        if (b?.type !== 'tool_use') continue;
        const name = str(b.name);
        if (!name || name.trim() === '') {
          skipped.add('tool-use-without-name');
          continue;
        }
        const id = str(b.id) ?? `${records}:${name}`;
        if (s.seenCalls.has(id)) continue;
        s.seenCalls.add(id);
        const call: RecordedCall = { id: name, ...(inlineSidechain ? { subagent: true as const } : {}) };
        const req = lastRequest(s);
        if (s.afterCommand && !inSubagent) skipped.add('call-after-slash-command');
        else if (req && !inSubagent) req.calls.push(call);
        else s.session.leading.push(call);
      }
      continue;
    }
    if (type === 'progress') {
      // the parent's record of a running subagent: links the agent to the turn, its calls are copies
      const s = stateOf(r);
      link(s, str(obj(r.data)?.agentId));
      skipped.add('progress');
      continue;
    }
    if (type === 'system' && r.subtype === 'compact_boundary') {
      skipped.add('compaction');
      continue;
    }
    skipped.add(type !== undefined && BOOKKEEPING.has(type) ? type : `unknown-type:${type ?? '(none)'}`);
  }
  return { sessions: [...sessions.values()].map((s) => s.session), tools: [], records, skipped };
}

/**
 * Whether parsed records look like a Claude Code transcript: a conversation record with a session id
 * or uuid, or one of the bookkeeping records a session starts with (a real one opens with a file
 * snapshot and a handful of hook `progress` records before its first prompt).
 */
function detect(first: readonly unknown[]): boolean {
  return first.some((v) => {
    const r = obj(v);
    if (!r) return false;
    const type = str(r.type);
    if (type === 'user' || type === 'assistant') return obj(r.message) !== undefined && (typeof r.sessionId === 'string' || typeof r.uuid === 'string');
    if (type === 'summary') return typeof r.leafUuid === 'string';
    if (type === 'file-history-snapshot') return typeof r.messageId === 'string' && obj(r.snapshot) !== undefined;
    if (type === 'progress' || type === 'system' || type === 'attachment') return typeof r.sessionId === 'string' && typeof r.uuid === 'string';
    if (type === 'queue-operation' || type === 'permission-mode') return typeof r.sessionId === 'string' && r.payload === undefined;
    return false;
  });
}

export const CLAUDE_CODE_FORMAT: TranscriptFormat = {
  description: 'Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl, subagents under <session>/subagents/)',
  detect,
  read: readClaudeCode,
};
