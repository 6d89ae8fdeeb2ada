/**
 * Snapshotting one server: open a session, list its tools (and its prompts, resources and resource
 * templates where its capabilities offer them), close it. Everything runs under one deadline: past
 * it the pending request is abandoned and the session closed (the child process ended).
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { looksSecret, maskCredentials } from '../util/redact.ts';
import type { ServerSpec } from './config.ts';
import { openSession, type Session, type StderrTail, type TransportName } from './connect.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { listAll, type Page } from './list.ts';

export interface ServerSnapshot {
  name: string;
  spec: ServerSpec;
  transport: TransportName;
  serverInfo: { name: string; version: string; title?: string; description?: string };
  protocolVersion: string | null;
  instructions: string;
  /** The tools as the server listed them, in its order. */
  tools: Array<Record<string, unknown>>;
  /** Present when the server offers the capability. */
  prompts?: Array<Record<string, unknown>>;
  resources?: Array<Record<string, unknown>>;
  resourceTemplates?: Array<Record<string, unknown>>;
  /** Pages each list took. */
  pages: Record<string, number>;
  /** Optional lists (prompts, resources, resourceTemplates) the server failed to give, with why; its tools are kept. */
  listErrors?: Record<string, string>;
  takenAt: string;
}

export interface ServerFailure {
  name: string;
  spec: ServerSpec;
  /** One line, without the server's own output. */
  reason: string;
  /** The last line the server wrote to stderr, when it is a stdio server that wrote one. */
  stderr?: string;
}

export type ServerOutcome = { ok: true; snapshot: ServerSnapshot } | { ok: false; failure: ServerFailure };

class Timeout extends Error {}

/** Snapshot `spec`, giving up after `timeoutMs`. Never throws: a failure is an outcome. */
export async function snapshotServer(spec: ServerSpec, timeoutMs: number, now: () => Date = () => new Date()): Promise<ServerOutcome> {
  const controller = new AbortController();
  let stage = spec.transport === 'stdio' ? 'starting the server' : 'connecting';
  let stderr: StderrTail | undefined;
  let session: Session | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Timeout());
    }, timeoutMs);
  });
  const options = { signal: controller.signal, timeout: timeoutMs };
  const work = async (): Promise<ServerSnapshot> => {
    session = await openSession(spec, options, (t) => (stderr = t));
    const takenAt = now().toISOString();
    const { client } = session;
    const caps = client.getServerCapabilities() ?? {};
    const pages: Record<string, number> = {};
    const listErrors: Record<string, string> = {};
    stage = 'tools/list';
    const tools = await listAll('tools/list', (cursor) => listPage(client, 'tools/list', 'tools', cursor, options));
    pages.tools = tools.pages;
    const out: ServerSnapshot = {
      name: spec.name,
      spec,
      transport: session.transport,
      serverInfo: serverInfo(client.getServerVersion()),
      protocolVersion: session.protocolVersion,
      instructions: client.getInstructions() ?? '',
      tools: tools.items,
      pages,
      takenAt,
    };
    /** An optional list (see `optionalList`), kept under `key` with the pages it took. */
    const addOptionalList = async (method: string, key: 'prompts' | 'resources' | 'resourceTemplates'): Promise<void> => {
      stage = method;
      const list = await optionalList(
        key,
        listErrors,
        listAll(method, (cursor) => listPage(client, method, key, cursor, options)),
      );
      if (list) {
        out[key] = list.items;
        pages[key] = list.pages;
      }
    };
    if (caps.prompts) await addOptionalList('prompts/list', 'prompts');
    if (caps.resources) {
      await addOptionalList('resources/list', 'resources');
      await addOptionalList('resources/templates/list', 'resourceTemplates');
    }
    if (Object.keys(listErrors).length) {
      const secrets = specSecrets(spec);
      out.listErrors = Object.fromEntries(Object.entries(listErrors).map(([kind, why]) => [kind, maskCredentials(why, secrets)]));
    }
    return out;
  };
  try {
    const snapshot = await Promise.race([work(), deadline]);
    return { ok: true, snapshot };
  } catch (err) {
    // what a failure says can quote the server's URL or a header (the SDK's errors do): masked
    const secrets = specSecrets(spec);
    const last = maskCredentials(lastLine(stderr?.text() ?? ''), secrets);
    const reason = maskCredentials(
      err instanceof Timeout ? `no answer within ${formatSeconds(timeoutMs)} (while ${stage})` : describeFailure(err, spec, stage),
      secrets,
    );
    return { ok: false, failure: { name: spec.name, spec, reason, ...(last ? { stderr: last } : {}) } };
  } finally {
    clearTimeout(timer);
    controller.abort();
    await (session as Session | undefined)?.close().catch(() => {});
  }
}

/**
 * A list the server's capabilities announce but that it does not implement (method not found):
 * left out of the bundle rather than failing the server, whose tools are what matters. Any other
 * error of an optional list is recorded in `errors[kind]` (the bundle's provenance, and a warning
 * line) and the list is left out: the tools are kept.
 */
async function optionalList<T>(kind: string, errors: Record<string, string>, listing: Promise<T>): Promise<T | undefined> {
  try {
    return await listing;
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return undefined;
    if (err instanceof Timeout) throw err;
    errors[kind] = errorMessage(err);
    return undefined;
  }
}

/**
 * One page of a list method, read leniently: the SDK's own `listTools()` checks the result against
 * its strict schema (a `null` description or `nextCursor` fails the whole server) and compiles every
 * tool's `outputSchema` with its own Ajv (a draft-04 one fails it too), though Backpack never uses
 * output schemas. Here the result must only be an object whose `key` is an array of objects, and
 * `nextCursor` a string, null or absent; every item is kept as the server sent it (the catalog loader
 * reads nulls as absent).
 */
async function listPage(
  client: Client,
  method: string,
  key: string,
  cursor: string | undefined,
  options: RequestOptions,
): Promise<Page<Record<string, unknown>>> {
  const r = (await client.request({ method, params: cursor !== undefined ? { cursor } : {} } as never, lenientList(key) as never, options)) as unknown as {
    items: Array<Record<string, unknown>>;
    nextCursor?: string;
  };
  return r;
}

/** A validation issue in what a server answered: `path` (JSON path in the result) and a message. */
export class ResultShapeError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ResultShapeError';
  }
}

/** A schema the SDK's `request()` accepts (it calls `safeParse`, as on a zod 3 schema). */
function lenientList(key: string) {
  return {
    safeParse(data: unknown): { success: true; data: Page<Record<string, unknown>> } | { success: false; error: Error } {
      const fail = (path: string, message: string) => ({ success: false as const, error: new ResultShapeError(path, message) });
      if (data === null || typeof data !== 'object' || Array.isArray(data)) return fail('$', `the result must be an object (got ${kindOf(data)})`);
      const r = data as Record<string, unknown>;
      const items = r[key];
      if (!Array.isArray(items)) return fail(`$.${key}`, `must be an array (got ${kindOf(items)})`);
      for (let i = 0; i < items.length; i++) {
        const x = items[i] as unknown;
        if (x === null || typeof x !== 'object' || Array.isArray(x)) return fail(`$.${key}[${i}]`, `must be an object (got ${kindOf(x)})`);
      }
      const next = r.nextCursor;
      if (next !== undefined && next !== null && typeof next !== 'string') return fail('$.nextCursor', `must be a string (got ${kindOf(next)})`);
      return { success: true, data: { items: items as Array<Record<string, unknown>>, ...(typeof next === 'string' ? { nextCursor: next } : {}) } };
    },
  };
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `a ${typeof v}`;
}

/**
 * An error's message on one line. A schema validation error of the SDK (zod: its message is a JSON
 * dump of the issues, whose first line is just `[`) becomes `path: message` of its first issue.
 */
export function errorMessage(err: unknown): string {
  const issues = (err as { issues?: unknown })?.issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const first = issues[0] as { path?: unknown[]; message?: string };
    const path = '$' + (first.path ?? []).map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('');
    return `invalid result: ${path}: ${first.message ?? 'invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : ''}`;
  }
  if (err instanceof ResultShapeError) return `invalid result: ${err.message}`;
  const message = (err as Error)?.message ?? String(err);
  const line =
    message
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line;
}

function serverInfo(v: { name?: unknown; version?: unknown; title?: unknown; description?: unknown } | undefined): ServerSnapshot['serverInfo'] {
  return {
    name: typeof v?.name === 'string' ? v.name : '',
    version: typeof v?.version === 'string' ? v.version : '',
    ...(typeof v?.title === 'string' ? { title: v.title } : {}),
    ...(typeof v?.description === 'string' ? { description: v.description } : {}),
  };
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines[lines.length - 1] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** A failure as one line: what went wrong, at which stage. */
export function describeFailure(err: unknown, spec: ServerSpec, stage: string): string {
  const e = err as NodeJS.ErrnoException;
  if (spec.transport === 'stdio' && e?.code === 'ENOENT') return `cannot start: command not found: ${spec.command}`;
  if (spec.transport === 'stdio' && e?.code === 'EACCES') return `cannot start: permission denied: ${spec.command}`;
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
    return stage === 'starting the server'
      ? 'the server exited (or closed its output) before answering initialize'
      : `the server closed the connection during ${stage}`;
  }
  const message = errorMessage(err);
  return message.startsWith(`${stage}:`) ? message : `${stage}: ${message}`;
}

/**
 * The values a server's configuration gives that are to be masked in what is said of it: every
 * header's, and the environment's whose name sounds secret or whose value looks it (`LOG_LEVEL=info` is left).
 */
function specSecrets(spec: ServerSpec): string[] {
  if (spec.transport !== 'stdio') return Object.values(spec.headers);
  return Object.entries(spec.env)
    .filter(([name, value]) => /key|secret|token|pass|auth|cred|session|cookie/i.test(name) || looksSecret(value))
    .map(([, value]) => value);
}
