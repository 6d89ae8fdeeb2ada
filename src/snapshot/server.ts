/**
 * Snapshotting one server: open a session, list its tools (and its prompts, resources and resource
 * templates where its capabilities offer them), close it. Everything runs under one deadline: past
 * it the pending request is abandoned and the session closed (the child process ended).
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSpec } from './config.ts';
import { openSession, type Session, type StderrTail, type TransportName } from './connect.ts';
import { listAll } from './list.ts';

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
    stage = 'tools/list';
    const tools = await listAll('tools/list', async (cursor) => {
      const r = await client.listTools(cursor !== undefined ? { cursor } : undefined, options);
      return { items: r.tools as Array<Record<string, unknown>>, nextCursor: r.nextCursor };
    });
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
    if (caps.prompts) {
      stage = 'prompts/list';
      const p = await optionalList(listAll('prompts/list', async (cursor) => {
        const r = await client.listPrompts(cursor !== undefined ? { cursor } : undefined, options);
        return { items: r.prompts as Array<Record<string, unknown>>, nextCursor: r.nextCursor };
      }));
      if (p) {
        out.prompts = p.items;
        pages.prompts = p.pages;
      }
    }
    if (caps.resources) {
      stage = 'resources/list';
      const r = await optionalList(listAll('resources/list', async (cursor) => {
        const x = await client.listResources(cursor !== undefined ? { cursor } : undefined, options);
        return { items: x.resources as Array<Record<string, unknown>>, nextCursor: x.nextCursor };
      }));
      if (r) {
        out.resources = r.items;
        pages.resources = r.pages;
      }
      stage = 'resources/templates/list';
      const t = await optionalList(listAll('resources/templates/list', async (cursor) => {
        const x = await client.listResourceTemplates(cursor !== undefined ? { cursor } : undefined, options);
        return { items: x.resourceTemplates as Array<Record<string, unknown>>, nextCursor: x.nextCursor };
      }));
      if (t) {
        out.resourceTemplates = t.items;
        pages.resourceTemplates = t.pages;
      }
    }
    return out;
  };
  try {
    const snapshot = await Promise.race([work(), deadline]);
    return { ok: true, snapshot };
  } catch (err) {
    const last = lastLine(stderr?.text() ?? '');
    const reason = err instanceof Timeout ? `no answer within ${formatSeconds(timeoutMs)} (while ${stage})` : describeFailure(err, spec, stage);
    return { ok: false, failure: { name: spec.name, spec, reason, ...(last ? { stderr: last } : {}) } };
  } finally {
    clearTimeout(timer);
    controller.abort();
    await (session as Session | undefined)?.close().catch(() => {});
  }
}

/**
 * A list the server's capabilities announce but that it does not implement (method not found):
 * left out of the bundle rather than failing the server, whose tools are what matters.
 */
async function optionalList<T>(listing: Promise<T>): Promise<T | undefined> {
  try {
    return await listing;
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.MethodNotFound) return undefined;
    throw err;
  }
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
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const line = lines[lines.length - 1] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** A failure as one line: what went wrong, at which stage. */
export function describeFailure(err: unknown, spec: ServerSpec, stage: string): string {
  const e = err as NodeJS.ErrnoException;
  if (spec.transport === 'stdio' && e?.code === 'ENOENT') return `cannot start: command not found: ${spec.command}`;
  if (spec.transport === 'stdio' && e?.code === 'EACCES') return `cannot start: permission denied: ${spec.command}`;
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
    return stage === 'starting the server' ? 'the server exited (or closed its output) before answering initialize' : `the server closed the connection during ${stage}`;
  }
  const message = (e?.message ?? String(err)).split('\n')[0]!;
  return `${stage}: ${message}`;
}
