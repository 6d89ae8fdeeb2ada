import { pluginSettings, workerSetting } from './extensions.ts';
import { atLeastOne, checked, displayPath, floorSyntax, wholeNumber, type Io } from './options.ts';
import { formatRunSummary } from './summary.ts';
import { failpoint } from '../util/failpoint.ts';
import { availableParallelism } from 'node:os';
import { type Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { assertReplaceable, caseSplit, isBackpackManifest, readManifest, verifyFiles, writeDataset } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { DATASETS_DIR, loadDataset, resolveDatasetPath } from '../catalog/resolve.ts';
import { formatSummary, summarize } from '../catalog/summary.ts';
import type { GenerateParams } from '../generate/presets.ts';
import { PRESETS } from '../generate/presets.ts';
import { inputOfDataset } from '../eval/input.ts';
import { MAIN_JOB_PROFILES, MAIN_JOB_RETRIEVERS } from '../eval/main-job.ts';
import { isResultsDir, writeRunDir } from '../eval/files.ts';
import { peakRssMb, type EvalRun, type EvalTimings } from '../eval/run.ts';
import type { StrategyPhase } from '../eval/strategy.ts';
import { parseProfileList } from '../profiles/registry.ts';
import { parseFormats, REPORT_FORMATS, type ReportFormat, writeReport } from '../report/write.ts';
import type { QueryStyle } from '../profiles/types.ts';
import { QUERY_STYLES } from '../profiles/keyword-query.ts';
import { lockFolder } from '../util/file-lock.ts';
import { parseRetrieverList } from '../retrievers/registry.ts';
import { parseFloorOption } from './calibration.ts';
import { planCalibration, planEvaluation, runPlanned } from '../eval/pipeline.ts';
import { progressReporter } from './progress.ts';
import { writeFileNamed } from '../util/atomic-write.ts';

/** The main job's default thread count: both cores of a 2-core machine, at most 2 (each thread holds a copy of the catalog). */
export const DEFAULT_RUN_WORKERS = Math.min(2, availableParallelism());

/** Where the main job keeps the built-in default dataset. */
export const DEFAULT_SEED = 7;
export const DEFAULT_DATASET_DIR = join(DATASETS_DIR, `monster-${DEFAULT_SEED}`);
/** What the main job evaluates (`eval/main-job.ts`). */
export const DEFAULT_RETRIEVERS: readonly string[] = MAIN_JOB_RETRIEVERS;
/** The main job's profiles: the baseline, the four harnesses and the seed's strategies. */
export const DEFAULT_PROFILES: readonly string[] = MAIN_JOB_PROFILES;
/** The main job scores the test split and calibrates floors (and fusions) on the train split. */
export const DEFAULT_SCORED_SPLIT = 'test';
export const DEFAULT_CALIBRATION_SPLIT = 'train';
export const DEFAULT_RUN_FLOOR_TARGET = 0.1;

/** Add `run` to the program. */
export function registerRunCommand(program: Command, io: Io): void {
  program
    .command('run')
    .description(
      'The main job on the built-in default: generate the monster company (seed 7) unless it is already there, evaluate the default retrievers and profiles on its test split with floors calibrated on its train split (no-tool false-positive rate 0.1), write the report (HTML, PNG charts, Markdown, JUnit) and print a summary with the path of the HTML report.',
    )
    .option('--seed <n>', 'seed of the monster company', wholeNumber('--seed'), DEFAULT_SEED)
    .addOption(
      new Option('--preset <name>', 'size preset (the main job is the monster company; smaller presets for a quick look)')
        .choices(Object.keys(PRESETS))
        .default('monster'),
    )
    .option('--out <dir>', 'dataset folder (default: datasets/monster-<seed>)')
    .option(
      '--dataset <dir|name>',
      'run the job on this dataset instead of the monster company (a folder, e.g. one backpack import wrote, or a name under datasets/); nothing is generated',
    )
    .option('--results <dir>', 'results folder (default: reports/monster-<seed>, or reports/<dataset name> with --dataset)')
    .option('--retrievers <list>', 'comma-separated retriever names', checked(parseRetrieverList), DEFAULT_RETRIEVERS.join(','))
    .addOption(
      new Option('--profiles <list>', 'comma-separated profile names ("" for none)')
        .argParser(checked((v) => (v.trim() === '' ? [] : parseProfileList(v))))
        .default(DEFAULT_PROFILES.join(','), `the main job's ${DEFAULT_PROFILES.length}: ${DEFAULT_PROFILES.slice(0, 3).join(', ')}, … (backpack list)`),
    )
    .option('--workers <n>', 'threads to evaluate strategies on (results are the same with any number)', atLeastOne('--workers'), DEFAULT_RUN_WORKERS)
    .option(
      '--floor <x|auto[:T]|name=x,…>',
      'floors, as for eval: calibrated on the calibration split by default',
      checked(floorSyntax),
      `auto:${DEFAULT_RUN_FLOOR_TARGET}`,
    )
    .option('--calibrate-on <split>', 'the split floors and fusions are calibrated on; the other cases are scored', DEFAULT_CALIBRATION_SPLIT)
    .option('--split <name>', 'the split that is scored', DEFAULT_SCORED_SPLIT)
    .addOption(
      new Option(
        '--query-style <style>',
        "what each search receives: raw (the request as it is) or keywords (the short keyword query a model writes into a search tool); default: each profile's own (keywords where the model writes the search query, raw where the harness searches with the request; raw for retrievers): see docs/profiles.md",
      ).choices([...QUERY_STYLES]),
    )
    .option(
      '--format <list>',
      `report formats to write: ${REPORT_FORMATS.join(',')} (e.g. html,md to skip the PNG charts in CI)`,
      checked(parseFormats),
      REPORT_FORMATS.join(','),
    )
    .option('--quiet', 'no progress output')
    .action(
      async (
        opts: {
          seed: number;
          preset: string;
          out?: string;
          dataset?: string;
          results?: string;
          retrievers: string;
          profiles: string;
          workers: number;
          floor: string;
          calibrateOn: string;
          split: string;
          format: string | ReportFormat[];
          queryStyle?: QueryStyle;
          quiet?: boolean;
        },
        cmd: Command,
      ) => {
        const given = opts.dataset !== undefined ? resolveDatasetPath(opts.dataset) : undefined;
        if (given !== undefined) {
          const set = ['out', 'seed', 'preset'].filter((o) => cmd.getOptionValueSource(o) === 'cli');
          if (set.length)
            throw new InputError(
              `--dataset runs on a dataset that exists, so ${set.map((o) => `--${o}`).join(', ')} (which say what to generate) do not apply; name the results folder with --results`,
            );
        }
        const dir = given ?? resolve(opts.out ?? join(DATASETS_DIR, `${opts.preset}-${opts.seed}`));
        const out = resolve(opts.results ?? join('reports', given !== undefined ? basename(given) : `${opts.preset}-${opts.seed}`));
        const retrievers = parseRetrieverList(opts.retrievers);
        const profiles = opts.profiles.trim() === '' ? [] : parseProfileList(opts.profiles);
        if (opts.calibrateOn === opts.split)
          throw new InputError(
            `--calibrate-on ${opts.calibrateOn} and --split ${opts.split} name the same cases: calibration and scoring need different splits`,
          );
        // the generator and its vocabularies load here, not when the program starts (`--help` stays quick)
        const { GENERATOR, resolveParams } = await import('../generate/index.ts');
        const { generateMeasured } = await import('../eval/realism.ts');
        const params = resolveParams(opts.preset, opts.seed);
        const t0 = Date.now();
        const stages: Record<string, number | null> = { generateMs: null };
        const lap = (() => {
          let last = performance.now();
          return (stage: string) => {
            const now = performance.now();
            stages[stage] = Math.round(now - last);
            last = now;
          };
        })();
        const progress = progressReporter(process.stderr, opts.quiet === true);
        // the dataset (read, or written first) and the results are two folders, neither inside the other
        if (given === undefined) assertReplaceable(dir, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')), [out]);
        assertReplaceable(out, 'results folder', isResultsDir, [dir]);
        // one writer per results folder: a second run into it stops here (exit 2)
        const release = lockFolder(out, io.err);
        try {
          if (given !== undefined) {
            io.err(`running on ${displayPath(dir)}\n`);
          } else if (reusable(dir, params, GENERATOR.version)) {
            io.err(`reusing ${displayPath(dir)} (same generator ${GENERATOR.version}, seed and parameters; files verified)\n`);
          } else {
            io.err(`generating the ${opts.preset === 'monster' ? 'monster company' : `${opts.preset} preset`} (seed ${opts.seed}) into ${displayPath(dir)}\n`);
            const g = await generateMeasured(params, (stage, done, total) => progress.update(stage, done, total));
            writeDataset(dir, g.dataset, g.manifest, (done, total) => progress.update('writing', done, total), g.extraFiles);
            progress.stop();
            io.err(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
            lap('generateMs');
          }
          // Verified again (0.1 s): files that match the manifest load without re-checking every tool.
          const d = loadDataset(dir, { onWarning: (w) => io.err(`warning: ${w}\n`) });
          io.out(`${formatSummary(summarize(d.name, d.catalog, d.cases, d.manifest))}\n\n`);
          // Scored: the test split. Calibrated on: the train split (floors, fusions), never scored.
          const input = { ...inputOfDataset(d, { kind: 'dataset', ref: dir, split: opts.split }), cases: d.cases.filter((c) => caseSplit(c) === opts.split) };
          if (!input.cases.length) throw new InputError(`--split: no case is in split "${opts.split}"`, { file: dir });
          // a dataset of one's own may have no calibration split (one imported session): floors cannot be
          // calibrated then; with fixed floors the run goes on, the fusions on their default score scale
          const calibrates = given === undefined || d.cases.some((c) => caseSplit(c) === opts.calibrateOn);
          // floors resolved once, here, for the whole run (eval/pipeline.ts): calibrated on the calibration split when there is one
          const plan = planEvaluation({
            retrievers,
            profiles,
            floor: parseFloorOption(opts.floor, [...retrievers, ...profiles]),
            calibrateOn: opts.calibrateOn,
            ...(opts.queryStyle ? { queryStyle: opts.queryStyle } : {}),
            ...pluginSettings(),
          });
          if (!calibrates && plan.calibrates)
            throw new InputError(
              `no case is in split "${opts.calibrateOn}", which the floors are calibrated on (--floor auto): import more sessions (backpack import splits by session), or give --floor none`,
              { file: dir },
            );
          if (!calibrates)
            io.err(`note: no case is in split "${opts.calibrateOn}": nothing is calibrated (the hybrid fusions use their default score scale)\n`);
          const calibration = calibrates ? planCalibration(plan, { input, scoredLabel: `--split ${opts.split}`, loaded: d.cases }) : undefined;
          for (const w of calibration?.warnings ?? []) io.err(`${w}\n`);
          lap('loadMs');
          failpoint('load');
          const { run, warnings } = await runPlanned(input, plan, calibration ? { calibration: calibration.set } : {}, {
            workers: opts.workers,
            workerSource: input.source,
            ...workerSetting(),
            progress: (name, done, total) => progress.update(name, done, total),
            indexProgress: (name, done, total) => progress.update(`${name} index`, done, total),
          });
          progress.stop();
          for (const w of warnings) io.err(`warning: ${w}\n`);
          lap('evaluateMs');
          failpoint('evaluate');
          // Results, report and timings are written into one temporary folder, swapped in by one rename:
          // a kill at any stage leaves the previous complete run or the new complete one.
          let written: { pngs: number; files: string[]; timings: ReturnType<typeof runTimings> } | undefined;
          writeRunDir(out, run, input.cases, input.catalog, {}, (tmp) => {
            lap('writeResultsMs');
            failpoint('results');
            io.err('writing the report\n');
            const formats = typeof opts.format === 'string' ? parseFormats(opts.format) : opts.format;
            const report = writeReport(run, join(tmp, 'report'), formats, { cases: input.cases, catalog: input.catalog });
            lap('writeReportMs');
            const timings = runTimings(run, stages, Date.now() - t0, opts.workers);
            writeFileNamed(join(tmp, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
            failpoint('timings');
            written = { pngs: report.files.filter((f) => f.endsWith('.png') && !f.endsWith('@2x.png')).length, files: report.files, timings };
          });
          io.out(
            `${formatRunSummary(run.results)}\nresults: ${displayPath(join(out, 'results.json'))}\n` +
              `report:  ${displayPath(join(out, 'report', written!.files.includes('report.html') ? 'report.html' : ''))}  (${reportFilesText(written!.files, written!.pngs)})  ${((Date.now() - t0) / 1000).toFixed(1)} s in all\n` +
              `stages:  ${formatStages(written!.timings)}  (${displayPath(join(out, 'timings.json'))})\n` +
              (written!.timings.evaluate ? `${formatEvaluate(written!.timings.evaluate)}\n` : ''),
          );
        } finally {
          release();
        }
      },
    );
}

/** True if `dir` holds an intact dataset made by this generator version with these parameters. */
function reusable(dir: string, params: GenerateParams, generatorVersion: string): boolean {
  if (!existsSync(join(dir, 'manifest.json'))) return false;
  try {
    const m = readManifest(dir);
    // a folder changed by hand and re-signed is not the built-in default any more: generate it again
    if (m.reSigned) return false;
    if (m.generator?.version !== generatorVersion || JSON.stringify(m.params) !== JSON.stringify(params)) return false;
    verifyFiles(dir, m);
    return true;
  } catch {
    return false;
  }
}

/**
 * What `run` writes to `timings.json`: each stage's wall time, the process's peak memory, each
 * strategy's index and search time and (since issue 33) its thread and phases, and `evaluate`:
 * where the evaluate stage's wall time went.
 */
export interface RunTimings {
  totalMs: number;
  /** generateMs is null when the dataset was reused. */
  stages: Record<string, number | null>;
  peakRssMb: number;
  workers: number;
  strategies: Record<string, { indexMs: number; searchMs: number; thread?: number; phases?: Record<StrategyPhase, number> }>;
  evaluate?: EvaluateBreakdown;
}

/**
 * The evaluate stage (`runEval`'s wall time) taken apart: the strategies (on every thread: each
 * thread's busy time is its input load plus its strategies' phases, and the busiest thread is what
 * the wall waits for), the skill comparison, the token table and putting the results together.
 * `namedMs` is what those items explain of `evaluateMs` (the busiest thread counted, not the idle
 * time of the others); `largest` the ten largest items.
 */
export interface EvaluateBreakdown {
  evaluateMs: number;
  namedMs: number;
  namedShare: number;
  strategiesMs: number;
  skillsMs: number;
  tokenTableMs: number;
  assembleMs: number;
  workerLoadMs: number[];
  threads: Array<{ thread: number; busyMs: number; strategies: string[] }>;
  largest: Array<{ item: string; ms: number }>;
}

/** The evaluate stage's breakdown from the run's timings (undefined for a run without them). */
export function evaluateBreakdown(t: EvalTimings | undefined, evaluateMs: number): EvaluateBreakdown | undefined {
  if (!t) return undefined;
  const threads = new Map<number, { busyMs: number; strategies: string[] }>();
  const thread = (n: number) => threads.get(n) ?? threads.set(n, { busyMs: n === 0 ? 0 : (t.workerLoadMs[n - 1] ?? 0), strategies: [] }).get(n)!;
  const items: Array<{ item: string; ms: number }> = [];
  for (const [name, s] of Object.entries(t.strategies)) {
    const th = thread(s.thread);
    th.strategies.push(name);
    for (const [phase, ms] of Object.entries(s.phases)) {
      th.busyMs += ms;
      items.push({ item: `${name} ${phase}`, ms });
    }
  }
  t.workerLoadMs.forEach((ms, i) => items.push({ item: `thread ${i + 1}: input loaded`, ms }));
  items.push({ item: 'skill comparison', ms: t.skillsMs }, { item: 'token table', ms: t.tokenTableMs }, { item: 'results assembled', ms: t.assembleMs });
  const busiest = Math.max(0, ...[...threads.values()].map((x) => x.busyMs));
  const namedMs = Math.min(t.strategiesMs, busiest) + t.skillsMs + t.tokenTableMs + t.assembleMs;
  const r1 = (x: number) => Math.round(x * 10) / 10;
  return {
    evaluateMs,
    namedMs: r1(namedMs),
    namedShare: evaluateMs > 0 ? Math.round((namedMs / evaluateMs) * 1000) / 1000 : 1,
    strategiesMs: t.strategiesMs,
    skillsMs: t.skillsMs,
    tokenTableMs: t.tokenTableMs,
    assembleMs: t.assembleMs,
    workerLoadMs: t.workerLoadMs,
    threads: [...threads].sort(([a], [b]) => a - b).map(([n, x]) => ({ thread: n, busyMs: r1(x.busyMs), strategies: x.strategies })),
    largest: items
      .filter((x) => x.ms > 0)
      .sort((a, b) => b.ms - a.ms || (a.item < b.item ? -1 : 1))
      .slice(0, 10)
      .map((x) => ({ item: x.item, ms: r1(x.ms) })),
  };
}

function runTimings(run: EvalRun, stages: Record<string, number | null>, totalMs: number, workers: number): RunTimings {
  const all = { ...run.results.retrievers, ...run.results.profiles };
  const strategies = Object.fromEntries(
    Object.entries(all).map(([name, r]) => {
      const t = run.timings?.strategies[name];
      return [
        name,
        {
          indexMs: Math.round(r.latency.indexMs),
          searchMs: Math.round((run.details[name] ?? []).reduce((a, d) => a + d.ms, 0)),
          ...(t ? { thread: t.thread, phases: t.phases } : {}),
        },
      ];
    }),
  );
  const evaluate = evaluateBreakdown(run.timings, stages.evaluateMs ?? 0);
  return { totalMs, stages, peakRssMb: peakRssMb(), workers, strategies, ...(evaluate ? { evaluate } : {}) };
}

/** The line on where the evaluate stage went: its named share and the largest items. */
function formatEvaluate(e: EvaluateBreakdown): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `evaluate: ${Math.round(e.namedShare * 100)}% named; largest ${e.largest
    .slice(0, 5)
    .map((x) => `${x.item} ${s(x.ms)}`)
    .join(', ')}`;
}

/** What the report folder holds besides report.html: "+ 9 PNG charts at 1× and 2×, summary.md, junit.xml". */
function reportFilesText(files: readonly string[], pngs: number): string {
  const others = files.filter((f) => !f.endsWith('.png') && f !== 'report.html');
  const parts = [...(pngs ? [`${pngs} PNG charts at 1× and 2×`] : []), ...others];
  return parts.length ? `+ ${parts.join(', ')}` : 'no other file';
}

function formatStages(t: RunTimings): string {
  const s = (ms: number | null | undefined) => (ms === null || ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
  return `generate ${s(t.stages.generateMs)}, load ${s(t.stages.loadMs)}, evaluate ${s(t.stages.evaluateMs)} on ${t.workers} thread${t.workers > 1 ? 's' : ''}, results ${s(t.stages.writeResultsMs)}, report ${s(t.stages.writeReportMs)}; peak memory ${t.peakRssMb.toLocaleString('en-US')} MB`;
}
