/** The lines a snapshot prints: one per server as it finishes, and a summary. */
import type { ServerOutcome, ServerFailure } from './server.ts';
import type { SnapshotBundle } from './bundle.ts';

/** Untrusted text (server names from the config, server-reported names, stderr) on one safe line. */
export function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** `failed  github: cannot start: command not found: gh-mcp (stderr: …)` */
export function failureLine(f: ServerFailure): string {
  return oneLine(`failed  ${f.name}: ${f.reason}${f.stderr ? ` (stderr: ${f.stderr})` : ''}`);
}

/** One line per finished server: `ok      memory: 9 tools (stdio, memory-server 0.6.3, protocol 2025-06-18)`. */
export function outcomeLine(o: ServerOutcome): string {
  if (!o.ok) return failureLine(o.failure);
  const s = o.snapshot;
  const extra = [s.prompts ? count(s.prompts.length, 'prompt') : '', s.resources ? count(s.resources.length, 'resource') : ''].filter(Boolean).join(', ');
  const info = [s.serverInfo.name, s.serverInfo.version].filter(Boolean).join(' ');
  return oneLine(
    `ok      ${s.name}: ${count(s.tools.length, 'tool')}${extra ? `, ${extra}` : ''} (${s.transport}${info ? `, ${info}` : ''}${s.protocolVersion ? `, protocol ${s.protocolVersion}` : ''})`,
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

const LIST_METHODS: Record<string, string> = { prompts: 'prompts/list', resources: 'resources/list', resourceTemplates: 'resources/templates/list' };

/** `warning memory: prompts/list failed (MCP error -32603: boom); its tools are kept`, one per failed optional list. */
export function warningLines(o: ServerOutcome): string[] {
  if (!o.ok || !o.snapshot.listErrors) return [];
  return Object.entries(o.snapshot.listErrors).map(([kind, why]) =>
    oneLine(`warning ${o.snapshot.name}: ${LIST_METHODS[kind] ?? kind} failed (${why}); left out, its tools are kept`),
  );
}

export function summaryLine(bundle: SnapshotBundle, failures: readonly ServerFailure[], elapsedMs: number): string {
  const tools = bundle.servers.reduce((a, s) => a + s.tools.length, 0);
  const n = bundle.servers.length;
  const failed = failures.length ? `; ${failures.length} failed (${failures.map((f) => f.name).join(', ')})` : '';
  return `${count(n, 'server')}, ${count(tools, 'tool')} in ${(elapsedMs / 1000).toFixed(1)} s${failed}`;
}
