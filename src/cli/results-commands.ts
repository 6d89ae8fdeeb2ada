/**
 * `backpack report` and `backpack merge`: commands that read results folders.
 */
import { type CaseRecords, CASES_FILE, TOOLS_FILE } from '../eval/case-records.ts';
import type { ComparedRun } from '../report/compare/model.ts';
import { COMPARISON_FORMATS, writeComparison } from '../report/compare/write.ts';
import type { ReportInput } from '../report/write.ts';
import { atLeastZero, checked, displayPath, type Io } from './options.ts';
import { formatRunSummary } from './summary.ts';
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { assertReplaceable } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { loadEvalInput, portableRef } from '../eval/input.ts';
import { isResultsDir, readRunFolder, runInputSource, writeRunRecords } from '../eval/files.ts';
import { sha256 } from '../util/hash.ts';
import { mergeRuns, readShardFolder, shardSnapshot } from '../eval/merge.ts';
import type { EvalRun } from '../eval/run.ts';
import { loadTraces } from '../eval/traces.ts';
import { DEFAULT_MIN_CASES, parseFormats, REPORT_FORMATS, writeReport } from '../report/write.ts';
import { assertReportFolder } from '../report/report-folder.ts';
import { type Check, checkOutcomes, thresholdChecks } from '../report/junit.ts';
import { headline } from '../report/view.ts';
import type { ChartSpec } from '../report/charts.ts';
import { reportColours } from '../report/colours.ts';
import { figureChart } from '../history/chart.ts';
import { readView } from '../history/query.ts';
import { openHistory } from '../history/store.ts';
import { GateFailed } from '../gate/gate.ts';

/** Add `report` and `merge` to the program. */
export function registerResultsCommands(program: Command, io: Io): void {
  program
    .command('report')
    .description(
      "Write what a person would rather look at than read, from a results folder: a self-contained HTML report, PNG charts, a Markdown summary and JUnit XML. Given several results folders over the same cases (base first), write one comparison instead: every figure's change with its paired 95% interval, and the cases that changed with both rankings (report.html, summary.md), and a pull-request comment of only what moved (comment.md).",
    )
    .argument('<results-dirs...>', 'a results folder (written by eval, merge or run); several: the base, then the runs to compare with it')
    .option(
      '--format <list>',
      `formats to write: ${REPORT_FORMATS.join(',')} (a comparison writes html and md; md: summary.md and comment.md)`,
      checked(parseFormats),
      REPORT_FORMATS.join(','),
    )
    .option('--out <dir>', 'folder to write into (default: RESULTS_DIR/report; a comparison: LAST_DIR/comparison)')
    .option('--title <text>', 'the report\'s title (default: "Backpack report — DATASET", a comparison: its folders)')
    .option('--report-url <url>', "where the HTML will be once uploaded (a CI artifact's URL): summary.md (and a comparison's comment.md) link to it")
    .option(
      '--fail-below <rules>',
      'JUnit test cases that fail when a figure is below a value: metric=value or strategy:metric=value, comma-separated (exit 100 when one fails)',
    )
    .option('--fail-above <rules>', 'the same for figures that must stay at or below a value (e.g. noToolFalsePositiveRate=0.3)')
    .option('--history <file>', 'a results history (backpack history add): the HTML draws the headline figure of each strategy over its recorded runs')
    .option(
      '--min-cases <n>',
      `slices and namespaces with fewer graded cases are greyed or left out of the worst lists (default: ${DEFAULT_MIN_CASES})`,
      atLeastZero('--min-cases'),
    )
    .action(
      async (
        dirs: string[],
        opts: { format: string; out?: string; title?: string; reportUrl?: string; minCases?: number; failBelow?: string; failAbove?: string; history?: string },
      ) => {
        const formats = parseFormats(opts.format);
        const checks = [...thresholdRules('--fail-below', opts.failBelow, 'min'), ...thresholdRules('--fail-above', opts.failAbove, 'max')];
        const options = {
          ...(opts.title !== undefined ? { title: opts.title } : {}),
          ...(opts.reportUrl !== undefined ? { reportUrl: checkUrl(opts.reportUrl) } : {}),
          ...(opts.minCases !== undefined ? { minCases: opts.minCases } : {}),
          ...(checks.length ? { checks } : {}),
        };
        if (dirs.length > 1) {
          const runs = dirs.map((dir) => comparedRun(dir, io));
          const skipped = formats.filter((f) => !(COMPARISON_FORMATS as readonly string[]).includes(f));
          if (skipped.length)
            io.err(
              `note: ${skipped.join(', ')} describe one run and are not written for a comparison (backpack report ${dirs[dirs.length - 1]} writes them)\n`,
            );
          const target = opts.out ?? join(dirs[dirs.length - 1]!, 'comparison');
          assertReportFolder(target, dirs);
          const written = writeComparison(runs, target, formats, options);
          io.out(`${written.files.map((f) => `wrote ${displayPath(join(written.dir, f))}`).join('\n')}\n`);
          return;
        }
        const dir = dirs[0]!;
        const target = opts.out ?? join(dir, 'report');
        assertReportFolder(target, [dir]);
        const { run, records } = readRunFolder(dir, io.err);
        const history = opts.history !== undefined ? await historyCharts(opts.history, run.results) : undefined;
        const report = writeReport(run, target, formats, reportInput(dir, run, records, io), { ...options, ...(history ? { history } : {}) });
        io.out(`${report.files.map((f) => `wrote ${displayPath(join(report.dir, f))}`).join('\n')}\n`);
        if (checks.length) {
          const missed = failedChecks(run.results, checks);
          if (missed.length) {
            io.err(`${missed.map((m) => `failed: ${m}`).join('\n')}\n`);
            throw new GateFailed(`${missed.length} threshold${missed.length === 1 ? '' : 's'} missed`);
          }
        }
      },
    );

  program
    .command('merge')
    .description(
      'Combine the results folders of a sharded evaluation (--shard i/n) into the results of one unsharded run. Reads only the shard folders, never the dataset.',
    )
    .argument('<dirs...>', 'the shard results folders')
    .requiredOption('--out <dir>', 'results folder to write')
    .option('--dataset <dir|name>', "where the dataset is on this machine, recorded as the merged run's source (default: where the shards recorded it)")
    .option('--traces <csv>', 'the agent-trace file the shards replayed (required if they did)')
    .action(async (dirs: string[], opts: { out: string; dataset?: string; traces?: string }) => {
      // never over one of its shards (or a folder holding them): they are what it reads
      assertReplaceable(resolve(opts.out), 'results folder', isResultsDir, dirs);
      const shards = dirs.map((dir) => readShardFolder(dir, io.err));
      // Shards of eval --catalog CONFIG: the snapshot they share goes into the merged folder.
      const snap = shardSnapshot(shards);
      const tracesSha = shards[0]!.run.results.config.traces;
      if (tracesSha !== null && opts.traces === undefined) throw new InputError('the shards replayed agent traces: give the same file with --traces');
      if (tracesSha !== null && sha256(readFileSync(opts.traces!)) !== tracesSha)
        throw new InputError('is not the trace file the shards replayed (sha256 differs)', { file: opts.traces! });
      const traces = opts.traces;
      const { run, records } = await mergeRuns(
        shards,
        tracesSha !== null && traces !== undefined ? (cases, tools) => loadTraces(traces, cases, { tools }) : undefined,
      );
      const recorded = snap ? snap.recordedSource(opts.out) : run.results.dataset.source;
      run.results.dataset.source = opts.dataset !== undefined && recorded.kind === 'dataset' ? { ...recorded, ref: portableRef(opts.dataset) } : recorded;
      writeRunRecords(opts.out, run, records, snap?.files);
      io.out(`${formatRunSummary(run.results)}\nresults: ${displayPath(join(resolve(opts.out), 'results.json'))}\n`);
    });
}

/** A results folder read for a comparison: its run and the case records it keeps (required: cases are compared one by one). */
function comparedRun(dir: string, io: Io): ComparedRun {
  const { run, records } = readRunFolder(dir, io.err);
  if (!records)
    throw new InputError(`keeps no ${CASES_FILE} and ${TOOLS_FILE} (written by an earlier Backpack): evaluate it again to compare it case by case`, {
      file: dir,
    });
  return { label: dir.replace(/[\\/]+$/, '') || dir, dir, run, cases: records.cases, tools: records.tools };
}

/** `--fail-below` / `--fail-above` rules as checks; a rule that does not parse is an InputError naming the flag. */
function thresholdRules(flag: string, rules: string | undefined, bound: 'min' | 'max'): Check[] {
  if (rules === undefined) return [];
  try {
    return thresholdChecks(rules, bound);
  } catch (err) {
    throw new InputError(`${flag}: ${(err as Error).message}`);
  }
}

/** The rule checks a run misses, as one line each ("bm25: recall@5 = 0.61, expected ≥ 0.7 (delta −0.09)"). */
function failedChecks(r: EvalRun['results'], checks: readonly Check[]): string[] {
  return checkOutcomes(r, checks)
    .filter(({ outcome: o }) => o.status === 'failure' || o.status === 'error')
    .map(({ outcome: o }) => (o.errorType === 'missing-strategy' ? o.message! : `${o.strategy}: ${o.message}`));
}

/** The History section's chart: the run's headline figure of every strategy over the history's runs. */
async function historyCharts(file: string, r: EvalRun['results']): Promise<ChartSpec[]> {
  const db = await openHistory(file);
  try {
    const view = readView(db, {}, file);
    const chart = figureChart(view, headline(r), reportColours(r), r.dataset.name);
    return chart ? [chart] : [];
  } finally {
    db.close();
  }
}

/** `--report-url`: an http(s) URL (summary.md links to it). */
function checkUrl(text: string): string {
  if (!/^https?:\/\/\S+$/i.test(text)) throw new InputError(`--report-url must be an http(s) URL (got ${JSON.stringify(text)})`);
  return text;
}

/**
 * What the report shows beyond the results: the request texts and gold tools of the worst misses.
 * The results folder keeps them (`cases.jsonl`, `tools.jsonl`); a folder written before it did falls
 * back to its dataset, and without that the worst misses show tool ids only.
 */
function reportInput(dir: string, run: EvalRun, saved: CaseRecords | undefined, io: Io): ReportInput {
  if (saved) return { cases: saved.cases, tools: saved.tools };
  try {
    const input = loadEvalInput(runInputSource(dir, run.results));
    if (input.catalogSha256 === run.results.dataset.catalogSha256) return { cases: input.cases, catalog: input.catalog };
    io.err(`note: the dataset at ${JSON.stringify(run.results.dataset.source)} has changed since the run; the worst misses show tool ids only\n`);
  } catch {
    io.err('note: the dataset of this run was not found; the worst misses show tool ids only\n');
  }
  return {};
}
