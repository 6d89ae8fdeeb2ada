/**
 * `backpack snapshot`: start (or connect to) the servers of an `mcpServers` configuration, list
 * their tools, prompts and resources, and write one bundle that every catalog command reads
 * (docs/snapshot.md). Exit codes: 0 every server snapshotted, 3 some failed (the bundle of the
 * others is written), 1 all failed (nothing written), 2 bad input.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../util/errors.ts';
import { chooseServersFromFlags, noServerError, readMcpConfig } from '../snapshot/config.ts';
import { EXIT_SNAPSHOT_FAILED, EXIT_SNAPSHOT_INCOMPLETE, SnapshotIncomplete } from '../snapshot/errors.ts';
import { failureLine, outcomeLine, summaryLine, warningLines } from '../snapshot/report.ts';

export { SnapshotIncomplete } from '../snapshot/errors.ts';

export interface SnapshotIo {
  out(s: string): void;
  err(s: string): void;
}

interface SnapshotCliOptions {
  config: string;
  out: string;
  server: string[];
  timeout: number;
  quiet?: boolean;
}

function seconds(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x <= 0) throw new InvalidArgumentError('--timeout must be a number of seconds > 0');
  return x;
}

/** True if `a` and `b` name the same file (after following links, when they exist). */
function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return existsSync(a) && existsSync(b) && realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function collect(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

export function registerSnapshotCommand(program: Command, io: SnapshotIo): Command {
  return program
    .command('snapshot')
    .description(
      'Start (or connect to) the servers of an mcpServers configuration (Claude Desktop, Cursor, Claude Code, VS Code), list their tools (and prompts and resources), and write one MCP bundle with provenance that eval, diff and inspect read as a catalog. Secrets in env and headers are never written. Exit 0 complete, 3 some server failed (the others are written), 1 all failed, 2 bad input.',
    )
    .requiredOption('--config <file>', 'the configuration: {"mcpServers":{…}} or VS Code\'s {"servers":{…}}')
    .requiredOption('--out <file>', 'the bundle to write (atomically)')
    .addOption(new Option('--server <name>', 'only this server (repeat, or a comma-separated list)').argParser(collect).default([] as string[], 'every server'))
    .option('--timeout <seconds>', 'give up on a server after this long (start, initialize and every list)', seconds, 30)
    .option('--quiet', 'print only failures and the summary')
    .addHelpText('after', '\nSee docs/snapshot.md.\n')
    .action(async (opts: SnapshotCliOptions) => {
      const out = resolve(opts.out);
      if (samePath(out, resolve(opts.config)))
        throw new InputError('--out is the configuration file itself: name another file for the bundle', { file: opts.out });
      const config = readMcpConfig(opts.config);
      const specs = chooseServersFromFlags(config, opts.server);
      const dir = dirname(out);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError('the folder to write into does not exist', { file: opts.out });
      if (existsSync(out) && statSync(out).isDirectory()) throw new InputError('is a folder; --out names the bundle file to write', { file: opts.out });
      if (specs.length === 0) throw noServerError(config);
      // The MCP SDK is loaded only when a snapshot is taken.
      const { takeSnapshot, writeBundle } = await import('../snapshot/snapshot.ts');
      const r = await takeSnapshot(config, {
        timeoutMs: opts.timeout * 1000,
        only: specs.map((s) => s.key),
        onServer: (o) => {
          if (!o.ok) io.err(`${failureLine(o.failure)}\n`);
          else if (!opts.quiet) io.err(`${outcomeLine(o)}\n`);
          for (const w of warningLines(o)) io.err(`${w}\n`);
        },
      });
      const summary = summaryLine(r.bundle, r.failures, r.elapsedMs);
      if (r.bundle.servers.length === 0) {
        throw new SnapshotIncomplete(
          `snapshot failed: no server could be snapshotted (${r.failures.map((f) => f.name).join(', ')}); nothing written to ${opts.out}`,
          EXIT_SNAPSHOT_FAILED,
        );
      }
      writeBundle(out, r.bundle);
      io.out(`wrote ${opts.out}: ${summary}\n`);
      if (r.failures.length) {
        throw new SnapshotIncomplete(
          `snapshot incomplete: ${r.failures.length} of ${specs.length} servers failed (${r.failures.map((f) => f.name).join(', ')}); the bundle holds the others`,
          EXIT_SNAPSHOT_INCOMPLETE,
        );
      }
    });
}
