/**
 * The `backpack` command. Thin: it parses arguments, calls the modules, prints, and maps errors to
 * exit codes (0 ok, 1 Backpack failed, 2 bad input).
 */
import { Command, CommanderError } from 'commander';
import { isInputError } from '../util/errors.ts';
import { maskCredentials } from '../util/redact.ts';
import { environmentFailure, environmentMessage } from './environment-errors.ts';
import { GenerateParamsError } from '../generate/errors.ts';
import { DEFAULT_TOKEN_CACHE_DIR, useTokenCountCache } from '../tokens/count.ts';
import { profileEntries } from '../profiles/registry.ts';
import { retrieverEntries } from '../retrievers/registry.ts';
import { ReviewRequired } from '../diff/errors.ts';
import { registerDiffCommand } from './diff.ts';
import { GateFailed, registerGateCommands } from './gate.ts';
import { registerSnapshotCommand, SnapshotIncomplete } from './snapshot.ts';
import { useConfigFile } from './config-file.ts';
import { VERSION } from '../util/version.ts';
import { activateFromArgs } from './extensions.ts';

import { registerRunCommand } from './run-command.ts';
import { registerDatasetCommands } from './dataset-commands.ts';
import { registerEvalCommand } from './eval-command.ts';
import { registerResultsCommands } from './results-commands.ts';
import { registerHistoryCommands } from './history-command.ts';
import { registerImportCommands } from './import-command.ts';
import type { Io } from './options.ts';

export {
  DEFAULT_CALIBRATION_SPLIT,
  DEFAULT_DATASET_DIR,
  DEFAULT_PROFILES,
  DEFAULT_RETRIEVERS,
  DEFAULT_RUN_FLOOR_TARGET,
  DEFAULT_RUN_WORKERS,
  DEFAULT_SCORED_SPLIT,
  DEFAULT_SEED,
  type RunTimings,
} from './run-command.ts';
export { formatRunSummary } from './summary.ts';

export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

export function buildProgram(io: Io): Command {
  const program = new Command();
  program
    .name('backpack')
    .description('Offline evaluation and benchmarking of tool and skill retrieval for AI agent harnesses.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();
  useConfigFile(program, io);
  // read before the commands are built (extensions.ts): declared here for --help and so that commander accepts them anywhere
  const collect = (v: string, prev: string[] = []) => [...prev, v];
  program.option(
    '--plugin <file|package>',
    'load a plugin: an ES module (or an installed package) that registers retrievers, profiles, catalog or report formats (repeatable; see docs/own-strategy.md)',
    collect,
  );
  program.option(
    '--http-retriever <name=url>',
    'a retrieval service as the retriever NAME: each request POSTed to URL (repeatable; protocol in docs/own-strategy.md)',
    collect,
  );
  registerRunCommand(program, io);
  registerDatasetCommands(program, io);
  registerImportCommands(program, io);
  registerEvalCommand(program, io);
  registerResultsCommands(program, io);

  registerGateCommands(program, io);
  registerDiffCommand(program, io);
  registerSnapshotCommand(program, io);
  registerHistoryCommands(program, io);

  program
    .command('list')
    .description('Every registered retriever and profile, with a one-line description.')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const retrievers = retrieverEntries().map(([name, f]) => ({ name, kind: 'retriever', description: f.description }));
      const profiles = profileEntries().map(([name, f]) => ({ name, kind: 'profile', description: f.description }));
      if (opts.json) io.out(`${JSON.stringify({ retrievers, profiles }, null, 2)}\n`);
      else {
        const rows = (list: typeof retrievers) => list.map((r) => `  ${r.name.padEnd(18)} ${r.description}`).join('\n');
        io.out(`retrievers\n${rows(retrievers)}\n\nprofiles\n${rows(profiles)}\n`);
      }
    });

  return program;
}

/** Run the command line; returns the exit code. */
export async function main(argv: string[], given: Io = defaultIo): Promise<number> {
  // every message: a URL's credentials or a bearer token quoted by an error is masked (a backstop;
  // the snapshot masks the values its configuration declares secret where it words a failure)
  const io: Io = { out: given.out, err: (s) => given.err(maskCredentials(s)) };
  const tokenCounts = useTokenCountCache(DEFAULT_TOKEN_CACHE_DIR);
  let switchOff: (() => void) | undefined;
  try {
    // plugins and retrieval services first: the commands are built with the names they register
    switchOff = await activateFromArgs(argv);
    const program = buildProgram(io);
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    if (isInputError(err)) {
      io.err(`error: ${err.describe('cli')}\n`);
      return EXIT.badInput;
    }
    if (err instanceof GateFailed) return err.exitCode;
    if (err instanceof SnapshotIncomplete) {
      io.err(`${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ReviewRequired) {
      io.err(`${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof GenerateParamsError) {
      io.err(`error: ${err.message}\n`);
      return EXIT.badInput;
    }
    const environment = environmentFailure(err);
    if (environment !== undefined) {
      io.err(`${environmentMessage(environment)}\n`);
      if (process.env.BACKPACK_DEBUG === '1') io.err(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      return EXIT.failed;
    }
    io.err(`backpack failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.failed;
  } finally {
    tokenCounts.flush();
    switchOff?.();
  }
}
