/**
 * Opening an MCP client session on one configured server, with the official SDK: a child process
 * over stdio, or a remote server over Streamable HTTP (falling back to the older HTTP+SSE transport
 * when the configuration says `sse`, or gives no type and Streamable HTTP fails, as the SDK's
 * documentation recommends for backwards compatibility).
 *
 * `close()` ends the session; for stdio the SDK closes the child's stdin, then sends SIGTERM, then
 * SIGKILL, so no server outlives the snapshot. `killLiveServers()` ends every stdio server still
 * running at once, for a snapshot interrupted by a signal (snapshot.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../util/version.ts';
import type { RemoteSpec, ServerSpec, StdioSpec } from './config.ts';

/** The transport a session ended up on. */
export type TransportName = 'stdio' | 'streamable-http' | 'sse';

export interface Session {
  client: Client;
  transport: TransportName;
  /** The protocol version the server answered `initialize` with. */
  protocolVersion: string | null;
  close(): Promise<void>;
}

/** The last lines a stdio server wrote to stderr, for failure reasons. */
export interface StderrTail {
  text(): string;
}

/**
 * A transport that passes everything through and remembers the protocol version the client
 * negotiated (the SDK hands it to `setProtocolVersion` after `initialize`, whatever the transport).
 */
class RecordingTransport implements Transport {
  protocolVersion: string | null = null;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private handler?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (m, extra) => this.handler?.(m, extra);
  }

  set onmessage(h: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined) {
    this.handler = h;
  }

  get onmessage(): ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined {
    return this.handler;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }
}

function newClient(): Client {
  return new Client({ name: 'backpack-snapshot', version: VERSION }, { capabilities: {} });
}

async function open(transport: Transport, name: TransportName, options: { signal: AbortSignal; timeout: number }): Promise<Session> {
  const recording = new RecordingTransport(transport);
  const client = newClient();
  try {
    await client.connect(recording, options);
  } catch (err) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw err;
  }
  return { client, transport: name, protocolVersion: recording.protocolVersion, close: () => client.close() };
}

/** Keeps the last `max` characters of a stream. */
function tail(stream: { on(event: 'data', fn: (chunk: Buffer | string) => void): unknown } | null, max = 4000): StderrTail {
  let text = '';
  stream?.on('data', (chunk: Buffer | string) => {
    text = (text + chunk.toString()).slice(-max);
  });
  return { text: () => text };
}

/** The stdio transports whose server may still run: what `killLiveServers` ends on a signal. */
const live = new Map<StdioClientTransport, () => number | null>();

async function openStdio(spec: StdioSpec, options: { signal: AbortSignal; timeout: number }, onStderr: (t: StderrTail) => void): Promise<Session> {
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    stderr: 'pipe',
  });
  onStderr(tail(transport.stderr));
  // The child's pid, taken as it is spawned: the SDK forgets it as soon as close() begins, while the
  // child may still run for seconds (stdin closed, 2 s, SIGTERM, 2 s, SIGKILL).
  let pid: number | null = null;
  const start = transport.start.bind(transport);
  transport.start = () => {
    const started = start();
    pid = transport.pid;
    return started;
  };
  live.set(transport, () => pid);
  try {
    const session = await open(transport, 'stdio', options);
    return {
      ...session,
      close: async () => {
        try {
          await session.close();
        } finally {
          live.delete(transport);
        }
      },
    };
  } catch (err) {
    live.delete(transport);
    throw err;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * End every stdio server still running, at once: SIGTERM, then SIGKILL for those still there after
 * `graceMs`. For a snapshot interrupted by SIGINT or SIGTERM, which has no time for the SDK's
 * orderly close (stdin closed, 2 s, SIGTERM, 2 s, SIGKILL).
 */
export async function killLiveServers(graceMs = 1000): Promise<void> {
  const pids = [...live.values()].map((pid) => pid()).filter((p): p is number => typeof p === 'number');
  live.clear();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  for (let waited = 0; waited < graceMs && pids.some(alive); waited += 50) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  // Let Node reap them (else they linger as zombies where nothing adopts and reaps orphans).
  for (let waited = 0; waited < 1000 && pids.some(alive); waited += 20) await new Promise((r) => setTimeout(r, 20));
}

async function openRemote(spec: RemoteSpec, options: { signal: AbortSignal; timeout: number }): Promise<Session> {
  const url = new URL(spec.url);
  const requestInit: RequestInit = { headers: spec.headers };
  if (spec.transport === 'sse') return open(new SSEClientTransport(url, { requestInit }), 'sse', options);
  try {
    return await open(new StreamableHTTPClientTransport(url, { requestInit }), 'streamable-http', options);
  } catch (httpErr) {
    if (spec.transport !== 'auto' || options.signal.aborted) throw httpErr;
    try {
      return await open(new SSEClientTransport(url, { requestInit }), 'sse', options);
    } catch (sseErr) {
      throw new Error(`Streamable HTTP: ${(httpErr as Error).message}; SSE: ${(sseErr as Error).message}`, { cause: httpErr });
    }
  }
}

/** Start or connect to the server `spec` names and complete `initialize`. */
export function openSession(
  spec: ServerSpec,
  options: { signal: AbortSignal; timeout: number },
  onStderr: (t: StderrTail) => void = () => {},
): Promise<Session> {
  return spec.transport === 'stdio' ? openStdio(spec, options, onStderr) : openRemote(spec, options);
}
