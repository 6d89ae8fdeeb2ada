/**
 * `backpack history add` and `backpack history show`: the figures of each run, recorded in a
 * SQLite file and drawn over registry versions (docs/history.md).
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import { addRun } from '../history/add.ts';
import { writeHistoryCharts } from '../history/chart.ts';
import { readView } from '../history/query.ts';
import { historyJson, historyText, plain } from '../history/show.ts';
import { DEFAULT_HISTORY_DB, openHistory } from '../history/store.ts';
import { displayPath, type Io } from './options.ts';

/** Add `history` (with its subcommands `add` and `show`) to the program. */
export function registerHistoryCommands(program: Command, io: Io): void {
  const history = program
    .command('history')
    .description('A history of runs in a SQLite file: record the figures of each run (add), and see them over registry versions (show). See docs/history.md.');

  history
    .command('add')
    .description(
      'Record the figures of a results folder into the history database (created when missing): every overall figure of every strategy, or with --expect exactly the figures the regression file pins, and whether its bless log blessed the run’s catalog.',
    )
    .argument('<results-dir>', 'a results folder (written by eval, merge or run)')
    .requiredOption('--label <text>', 'the name of the run in the history (a registry version, a commit): unique in the database')
    .option('--db <file>', 'the history database, a SQLite file', DEFAULT_HISTORY_DB)
    .option(
      '--expect <file>',
      'a regression file (as for backpack gate): record exactly the figures it pins, and mark the run blessed when its log blessed this catalog',
    )
    .option('--replace', 'replace the run already recorded under this label (default: refuse it)')
    .action(async (dir: string, opts: { label: string; db: string; expect?: string; replace?: boolean }) => {
      const r = await addRun(
        { results: dir, db: opts.db, label: opts.label, replace: opts.replace === true, ...(opts.expect !== undefined ? { expect: opts.expect } : {}) },
        io.err,
      );
      const strategies = new Set(r.record.figures.map((f) => f.strategy)).size;
      io.out(
        `${r.replaced ? 'replaced' : 'recorded'} run ${plain(JSON.stringify(r.record.label))} in ${displayPath(opts.db)}: ${r.record.figures.length} figures of ${strategies} strateg${strategies === 1 ? 'y' : 'ies'}` +
          `${r.record.blessed ? ` (blessed: ${plain(r.record.blessReason ?? '')})` : ''}; ${r.runs} run${r.runs === 1 ? '' : 's'} recorded\n`,
      );
    });

  history
    .command('show')
    .description(
      'Print the recorded runs per strategy and figure: values, 95% intervals, change from the previous run and a sparkline, blessed runs marked with * and their reasons. --out also draws one PNG chart per figure.',
    )
    .option('--db <file>', 'the history database, a SQLite file', DEFAULT_HISTORY_DB)
    .option('--strategy <name>', 'only this strategy (a retriever or profile name)')
    .option('--figure <id>', 'only this figure (a metric id such as recall@5, or tokens.perCase)')
    .option(
      '--out <dir>',
      'also write one PNG line chart per figure (every strategy in its report colour), and an index.md listing the series, into this folder',
    )
    .option('--json', 'print the runs and series as JSON (the same bytes for the same database)')
    .action(async (opts: { db: string; strategy?: string; figure?: string; out?: string; json?: boolean }) => {
      const db = await openHistory(opts.db);
      let view: ReturnType<typeof readView>;
      try {
        view = readView(
          db,
          { ...(opts.strategy !== undefined ? { strategy: opts.strategy } : {}), ...(opts.figure !== undefined ? { figure: opts.figure } : {}) },
          opts.db,
        );
      } finally {
        db.close();
      }
      io.out(opts.json ? historyJson(view) : historyText(view));
      if (opts.out !== undefined) {
        const files = writeHistoryCharts(view, opts.out);
        io.err(`wrote ${files.length - 1} chart${files.length === 2 ? '' : 's'} and ${displayPath(join(opts.out, 'index.md'))}\n`);
      }
    });
}
