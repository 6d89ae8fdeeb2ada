/**
 * `backpack gate` and `backpack bless`: the CI gate on committed expected figures (docs/gate.md).
 * Exit codes: 0 pass, 100 a gate failed (thrown as {@link GateFailed}), 1 Backpack failed, 2 bad
 * input or nothing could be evaluated (`InputError`).
 */
import type { Command } from 'commander';

import { InputError } from '../util/errors.ts';
import { bless } from '../gate/bless.ts';
import { GateFailed, runGate } from '../gate/gate.ts';
import { gateJson, gateJunit, gateLines, gateMarkdown } from '../gate/report.ts';
import { parseToleranceOverrides } from '../gate/tolerance.ts';

import { checked, type Io } from './options.ts';
import { writeFileNamed } from '../util/atomic-write.ts';

export { GateFailed } from '../gate/gate.ts';

/** A shell word, quoted when it needs to be. */
function sh(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `--reason`'s value: not empty, one line (bless checks again, and that a reason was given at all). */
function reasonText(value: string): void {
  if (value.trim() === '') throw new InputError('--reason is empty: say why the expected figures change (it goes into the log)');
  if (/[\r\n]/.test(value.trim())) throw new InputError('--reason must be one line (it becomes one line of the log)');
}

/** Add `gate` and `bless` to the program. */
export function registerGateCommands(program: Command, io: Io): void {
  program
    .command('gate')
    .description(
      'Check a results folder against committed expected figures: one line per figure (OK, OKISH, IMPROVED, FAIL) with expected, actual, delta and, against a baseline run, a paired p-value. Exit 0 pass, 100 a gate failed, 2 bad input.',
    )
    .requiredOption('--expect <file>', 'the regression file (YAML or JSON; see docs/gate.md)')
    .requiredOption('--results <dir>', 'the results folder to check (written by backpack eval)')
    .option('--baseline <dir>', "a baseline results folder for the paired significance test (default: the file's baseline)")
    .option('--strict', 'IMPROVED fails too, until the figures are blessed again')
    .option('--json', 'print the verdicts as JSON')
    .option('--junit <file>', 'also write the verdicts as JUnit XML')
    .option('--markdown <file>', 'also write the verdicts as a Markdown table (FAIL rows first), for a job summary or a pull request comment')
    .action((opts: { expect: string; results: string; baseline?: string; strict?: boolean; json?: boolean; junit?: string; markdown?: string }) => {
      const report = runGate({
        expect: opts.expect,
        results: opts.results,
        ...(opts.baseline !== undefined ? { baseline: opts.baseline } : {}),
        strict: opts.strict === true,
      });
      for (const w of report.warnings) io.err(`warning: ${w}\n`);
      const blessCommand = `backpack bless --results ${sh(opts.results)} --expect ${sh(opts.expect)} --reason "…"`;
      for (const [file, text] of [
        [opts.junit, () => gateJunit(report)],
        [opts.markdown, () => gateMarkdown(report, blessCommand)],
      ] as const) {
        if (file === undefined) continue;
        try {
          writeFileNamed(file, text());
        } catch (err) {
          throw new InputError(`cannot write: ${(err as Error).message}`, { file });
        }
      }
      io.out(opts.json ? gateJson(report) : `${gateLines(report, blessCommand).join('\n')}\n`);
      if (report.exitCode !== 0) {
        const c = report.counts;
        throw new GateFailed(`gate failed: ${c.FAIL} FAIL, ${c.MISSING} MISSING${report.strict ? `, ${c.IMPROVED} IMPROVED under --strict` : ''}`);
      }
    });

  program
    .command('bless')
    .description(
      'Write the figures of a results folder into the regression file, with a tolerance suited to each new figure (relative for token figures, from the number of cases for rates, exact for counts; tolerances already in the file and comments are kept), and append a dated line with the reason to <file>.log.md.',
    )
    .requiredOption('--results <dir>', 'the results folder whose figures become the expected ones')
    .requiredOption('--expect <file>', 'the regression file to write or update (.yaml, .yml or .json)')
    .option('--reason <text>', 'why the figures change (required; one line of the log)', checked(reasonText))
    .option('--strategies <list>', 'comma-separated strategies to bless (default: those already in the file, or all for a new file)')
    .option(
      '--tolerance <list>',
      "comma-separated figure=value tolerances to write, replacing the file's and the rule's: 0.01 or abs:0.01 (absolute), rel:0.02 or 2% (relative), auto (the rule's, recomputed); * in a figure matches anything (tokens.*=2%, *=auto). Default: new figures get the rule's (docs/gate.md), tolerances already in the file are kept",
      checked(parseToleranceOverrides),
    )
    .action((opts: { results: string; expect: string; reason?: string; strategies?: string; tolerance?: string }) => {
      const strategies = opts.strategies
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const tolerances = opts.tolerance !== undefined ? parseToleranceOverrides(opts.tolerance) : undefined;
      const r = bless({
        results: opts.results,
        expect: opts.expect,
        ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
        ...(strategies ? { strategies } : {}),
        ...(tolerances ? { tolerances } : {}),
      });
      for (const w of r.warnings) io.err(`warning: ${w}\n`);
      const lines = Object.entries(r.written).map(([name, keys]) => {
        const t = Object.keys(r.tolerances[name] ?? {}).length;
        return `  ${name}: ${keys.length} figure${keys.length === 1 ? '' : 's'} (${keys.join(', ')})${t ? `; ${t} tolerance${t === 1 ? '' : 's'} written` : ''}`;
      });
      io.out(`${r.created ? 'wrote' : 'updated'} ${r.file}\n${lines.join('\n')}\nlogged in ${r.logFile}: ${r.logLine}\n`);
    });
}
