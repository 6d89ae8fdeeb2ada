/**
 * What every transcript reader gives the import: sessions of typed requests, each with the tool
 * calls the agent made before the next one, the tool definitions a log advertised, and counts of
 * what was read and skipped. Text here is as read (not yet redacted): the import redacts it before
 * anything is written, and tool arguments and results never get this far.
 */
import type { JsonSchema, ToolSource } from '../catalog/types.ts';

/** A harness whose own core tools Backpack ships (`importers/core-tools.ts`). */
export type Harness = 'claude-code' | 'codex';

/** One tool call as a transcript records it: the tool's id, in Backpack's naming. */
export interface RecordedCall {
  id: string;
  /** Made by a subagent the request's turn started. */
  subagent?: true;
  /** The call's identity in its session (its call id, or its place in the conversation): a call seen twice, in two logged calls or two files, is counted once. */
  key?: string;
}

/** A request a person typed, and the calls the agent made before the next one. */
export interface TypedRequest {
  text: string;
  /** ISO 8601 time of the request, when the format records one. */
  at?: string;
  calls: RecordedCall[];
  /** Ids that link subagent transcripts to this turn (the agent ids, prompt ids or prompt hashes of the calls that started them). */
  links?: string[];
  /** Its place among the session's typed requests, when the format says (logs that resend the conversation); else its order. */
  turn?: number;
}

/** A session as one file (or one log) records it. */
export interface TranscriptSession {
  /** The session's id as the format gives it (a UUID), or one derived from the log. */
  id: string;
  /** The transcript format it was read from. */
  format: string;
  /** The harness whose core tools the session had, when the format says (claude-code, codex). */
  harness?: Harness;
  /** Where it was read: the file, relative to the source argument it came from (never written unredacted). */
  file: string;
  requests: TypedRequest[];
  /**
   * A subagent's transcript: the parent session, and the ids that link it to the parent's turn
   * that started it (the parent's tool-use id, or the agent id the parent's call result names).
   * Its requests are written by the parent agent, not a person: its calls go to that turn.
   */
  parent?: { sessionId: string; links: string[]; at?: string };
  /** Calls recorded before the session's first typed request (a subagent's, a resumed session's). */
  leading: RecordedCall[];
  /** A fork of this session, whose history it re-records first (Codex `forked_from_id`): the requests it shares with it are dropped. */
  forkedFrom?: string;
}

/** A tool definition a log advertised (the `tools` of a request body, an OTel span's tool definitions). */
export interface AdvertisedTool {
  id: string;
  name: string;
  source: ToolSource;
  server?: string;
  description: string;
  inputSchema: JsonSchema;
  /** ISO time of the record that advertised it (the latest definition of a tool wins). */
  at?: string;
}

/** Names a tally keeps apart at most; the rest are counted under `other`. */
const MAX_NAMES = 200;
/** Characters of a name kept here (a name can hold a record's own `type`: untrusted, of any length); the import redacts it, then cuts it to 64. */
const MAX_NAME = 4096;

/** Counts by name (record types, reasons for skipping), for the manifest and the summary. */
export class Tally {
  private readonly map = new Map<string, number>();

  add(name: string, n = 1): void {
    let key = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
    if (key.length > MAX_NAME) key = `${key.slice(0, MAX_NAME - 1)}…`;
    if (!this.map.has(key) && this.map.size >= MAX_NAMES) key = 'other';
    this.map.set(key, (this.map.get(key) ?? 0) + n);
  }

  get(name: string): number {
    return this.map.get(name) ?? 0;
  }

  /** Every count, by name in name order. */
  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  merge(other: Tally): void {
    for (const [k, v] of other.map) this.add(k, v);
  }
}

/** What reading one file gave. */
export interface FileRead {
  sessions: TranscriptSession[];
  tools: AdvertisedTool[];
  /** Records read (non-blank lines, or spans). */
  records: number;
  /** Records skipped, by reason (`tool-result`, `meta`, `command`, `compaction-summary`, `unknown-type:<type>`, `bad-json`, …). */
  skipped: Tally;
}

/** What a reader is given besides the file. */
export interface ReadContext {
  /** The file as the user named it (for messages). */
  file: string;
  /** The file relative to the source argument (for session records). */
  relative: string;
}

/** A transcript format: how it is recognised and read. */
export interface TranscriptFormat {
  /** One line for `--help` and the docs. */
  description: string;
  /** Whether this format's reader takes a file whose first records are `first` (parsed JSON lines, or the whole JSON value). Never throws. */
  detect(first: readonly unknown[]): boolean;
  /** Read a file of this format. */
  read(ctx: ReadContext): FileRead;
}
