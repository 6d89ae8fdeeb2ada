/**
 * `backpack gate` and `backpack bless`: the CI gate on committed expected figures (docs/gate.md).
 * Exit codes: 0 pass, 100 a gate failed (thrown as {@link GateFailed}), 1 Backpack failed, 2 bad
 * input or nothing could be evaluated (`InputError`).
 */
import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { InputError } from '../catalog/errors.ts';
import { bless } from '../gate/bless.ts';
import { GateFailed, runGate } from '../gate/gate.ts';
import { gateJson, gateJunit, gateLines } from '../gate/report.ts';

export { GateFailed } from '../gate/gate.ts';

interface Io {
  out(s: string): void;
  err(s: string): void;
}

/** A shell word, quoted when it needs to be. */
function sh(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Add `gate` and `bless` to the program. */
export function registerGateCommands(program: Command, io: Io): void {
  program
    .command('gate')
    .description('Check a results folder against committed expected figures: one line per figure (OK, OKISH, IMPROVED, FAIL) with expected, actual, delta and, against a baseline run, a paired p-value. Exit 0 pass, 100 a gate failed, 2 bad input.')
    .requiredOption('--expect <file>', 'the regression file (YAML or JSON; see docs/gate.md)')
    .requiredOption('--results <dir>', 'the results folder to check (written by backpack eval)')
    .option('--baseline <dir>', 'a baseline results folder for the paired significance test (default: the file\'s baseline)')
    .option('--strict', 'IMPROVED fails too, until the figures are blessed again')
    .option('--json', 'print the verdicts as JSON')
    .option('--junit <file>', 'also write the verdicts as JUnit XML')
    .action((opts: { expect: string; results: string; baseline?: string; strict?: boolean; json?: boolean; junit?: string }) => {
      const report = runGate({ expect: opts.expect, results: opts.results, ...(opts.baseline !== undefined ? { baseline: opts.baseline } : {}), strict: opts.strict === true });
      for (const w of report.warnings) io.err(`warning: ${w}\n`);
      if (opts.junit !== undefined) {
        try {
          writeFileSync(opts.junit, gateJunit(report));
        } catch (err) {
          throw new InputError(`cannot write: ${(err as Error).message}`, { file: opts.junit });
        }
      }
      const blessCommand = `backpack bless --results ${sh(opts.results)} --expect ${sh(opts.expect)} --reason "…"`;
      io.out(opts.json ? gateJson(report) : `${gateLines(report, blessCommand).join('\n')}\n`);
      if (report.exitCode !== 0) {
        const c = report.counts;
        throw new GateFailed(`gate failed: ${c.FAIL} FAIL, ${c.MISSING} MISSING${report.strict ? `, ${c.IMPROVED} IMPROVED under --strict` : ''}`);
      }
    });

  program
    .command('bless')
    .description('Write the figures of a results folder into the regression file (keeping its tolerances and comments) and append a dated line with the reason to <file>.log.md.')
    .requiredOption('--results <dir>', 'the results folder whose figures become the expected ones')
    .requiredOption('--expect <file>', 'the regression file to write or update (.yaml, .yml or .json)')
    .option('--reason <text>', 'why the figures change (required; one line of the log)')
    .option('--strategies <list>', 'comma-separated strategies to bless (default: those already in the file, or all for a new file)')
    .action((opts: { results: string; expect: string; reason?: string; strategies?: string }) => {
      const strategies = opts.strategies?.split(',').map((s) => s.trim()).filter(Boolean);
      const r = bless({ results: opts.results, expect: opts.expect, ...(opts.reason !== undefined ? { reason: opts.reason } : {}), ...(strategies ? { strategies } : {}) });
      for (const w of r.warnings) io.err(`warning: ${w}\n`);
      const lines = Object.entries(r.written).map(([name, keys]) => `  ${name}: ${keys.length} figure${keys.length === 1 ? '' : 's'} (${keys.join(', ')})`);
      io.out(`${r.created ? 'wrote' : 'updated'} ${r.file}\n${lines.join('\n')}\nlogged in ${r.logFile}: ${r.logLine}\n`);
    });
}
