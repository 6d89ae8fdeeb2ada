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
  const extra = [s.prompts ? `${s.prompts.length} prompts` : '', s.resources ? `${s.resources.length} resources` : ''].filter(Boolean).join(', ');
  const info = [s.serverInfo.name, s.serverInfo.version].filter(Boolean).join(' ');
  return oneLine(`ok      ${s.name}: ${s.tools.length} tools${extra ? `, ${extra}` : ''} (${s.transport}${info ? `, ${info}` : ''}${s.protocolVersion ? `, protocol ${s.protocolVersion}` : ''})`);
}

export function summaryLine(bundle: SnapshotBundle, failures: readonly ServerFailure[], elapsedMs: number): string {
  const tools = bundle.servers.reduce((a, s) => a + s.tools.length, 0);
  const n = bundle.servers.length;
  const failed = failures.length ? `; ${failures.length} failed (${failures.map((f) => f.name).join(', ')})` : '';
  return `${n} server${n === 1 ? '' : 's'}, ${tools} tools in ${(elapsedMs / 1000).toFixed(1)} s${failed}`;
}
