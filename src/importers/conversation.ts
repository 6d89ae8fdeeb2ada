/**
 * A logged model call resends the conversation so far: which typed message each tool call answers,
 * and a key per call that is the same however many times the conversation is resent, so that a
 * call is counted once (API logs, OpenTelemetry spans).
 *
 * A call answers the typed user message before it in the conversation. Its key is its own call id
 * when it has one; else its place: the typed message's index among the typed messages, the
 * assistant message's index among those after that typed message, and the call's index in it. The
 * response's calls are the next assistant message, so they get the key they will have once the
 * next call resends them.
 */
import { sha256 } from '../util/hash.ts';
import type { TypedRequest } from './types.ts';

/** A message of a logged conversation, as the readers give it. */
export interface LoggedMessage {
  role: 'user' | 'assistant' | 'other';
  /** A user message's typed text ('' when it holds none: a tool result, or only injected context). */
  typed: string;
  /** An assistant message's tool calls (a Task or Agent call's prompt hashed in `spawns`). */
  calls: LoggedCall[];
}

export interface LoggedCall {
  name: string;
  callId?: string;
  /** The hash of the prompt a subagent call (Task, Agent) gave its subagent: links that subagent's conversation to this turn. */
  spawns?: string;
}

/** The calls a typed message of the conversation got: its index among the typed messages, its text, its calls with their keys. */
export interface AnsweredTurn {
  typedIndex: number;
  text: string;
  calls: Array<{ name: string; key: string; spawns?: string }>;
}

/** Each typed message of `messages` with the calls the history shows after it, the last one also with `response`'s. */
export function answeredTurns(messages: readonly LoggedMessage[], response: readonly LoggedCall[]): AnsweredTurn[] {
  const out: AnsweredTurn[] = [];
  let current: AnsweredTurn | undefined;
  let assistantIndex = 0;
  const keyed = (c: LoggedCall, place: number, j: number) => ({
    name: c.name,
    key: c.callId !== undefined ? `id:${c.callId}` : `at:${current!.typedIndex}:${place}:${j}`,
    ...(c.spawns ? { spawns: c.spawns } : {}),
  });
  for (const m of messages) {
    if (m.role === 'user' && m.typed !== '') {
      current = { typedIndex: out.length, text: m.typed, calls: [] };
      out.push(current);
      assistantIndex = 0;
    } else if (m.role === 'assistant' && current) {
      m.calls.forEach((c, j) => current!.calls.push(keyed(c, assistantIndex, j)));
      assistantIndex++;
    }
  }
  if (current) response.forEach((c, j) => current!.calls.push(keyed(c, assistantIndex, j)));
  return out;
}

/** The link key of a subagent's prompt (the typed text a Task or Agent call gave it). */
export function promptLink(prompt: string): string {
  return `prompt:${sha256(prompt.trim()).slice(0, 32)}`;
}

/**
 * Add keyed calls to a request, each key once (`seen`: the keys the request already has); a call
 * that started a subagent links the request to it, even when its call was counted before.
 */
export function addKeyedCalls(req: TypedRequest, seen: Set<string>, calls: ReadonlyArray<{ name: string; key: string; spawns?: string }>): void {
  for (const c of calls) {
    if (c.spawns) {
      req.links ??= [];
      if (!req.links.includes(c.spawns)) req.links.push(c.spawns);
    }
    if (seen.has(c.key)) continue;
    seen.add(c.key);
    req.calls.push({ id: c.name, key: c.key });
  }
}
