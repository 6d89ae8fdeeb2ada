/**
 * The `backpack` command. Thin: it parses arguments, calls the modules, prints, and maps errors to
 * exit codes (0 ok, 1 Backpack failed, 2 bad input).
 */
import { failpoint } from '../util/failpoint.ts';
import { availableParallelism } from 'node:os';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { assertReplaceable, caseSplit, isBackpackManifest, readManifest, readRealism, verifyFiles, writeDataset } from '../catalog/dataset-files.ts';
import { InputError, isInputError } from '../util/errors.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { readRoleMap } from '../catalog/roles.ts';
import { CATALOG_FORMATS, loadCatalog } from '../catalog/loaders/registry.ts';
import { DATASETS_DIR, loadDataset } from '../catalog/resolve.ts';
import { formatSummary, summarize } from '../catalog/summary.ts';
import { GenerateParamsError, GENERATOR, resolveParams } from '../generate/index.ts';
import { generateMeasured } from '../eval/realism.ts';
import { PRESETS } from '../generate/presets.ts';
import { augmentCatalog } from '../eval/examples.ts';
import { inputOfDataset, loadEvalInput, portableRef, withSkills } from '../eval/input.ts';
import { DEFAULT_TOKEN_CACHE_DIR, useTokenCountCache } from '../tokens/count.ts';
import { isResultsDir, readRunDir, runInputSource, writeRunDir } from '../eval/files.ts';
import { sha256 } from '../util/hash.ts';
import { mergeRuns, shardSnapshot } from '../eval/merge.ts';
import { DEFAULT_CACHE_PRICES, type DatasetSource, type FloorSetting, type Results } from '../eval/results.ts';
import { makeConfig, peakRssMb, runEval, type EvalRun } from '../eval/run.ts';
import { parseShard } from '../eval/shard.ts';
import { loadTraces } from '../eval/traces.ts';
import { parseProfileList, profileEntries, profileNames, profileUsesModel } from '../profiles/registry.ts';
import { fitMark, floorNumber } from '../report/view.ts';
import { parseFormats, REPORT_FORMATS, writeReport } from '../report/write.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { DEFAULT_CONTEXT_WINDOW, type QueryStyle } from '../profiles/types.ts';
import { QUERY_STYLES } from '../profiles/keyword-query.ts';
import { lockFolder } from '../util/file-lock.ts';
import { parseRetrieverList, retrieverEntries } from '../retrievers/registry.ts';
import { ReviewRequired } from '../diff/errors.ts';
import { registerDiffCommand } from './diff.ts';
import { GateFailed, registerGateCommands } from './gate.ts';
import { registerSnapshotCommand, SnapshotIncomplete } from './snapshot.ts';
import { snapshotForEval } from '../snapshot/for-catalog.ts';
import { parseFloors, profileDefaultFloors, resolveCalibration, wantsCalibration } from './calibration.ts';
import { progressReporter } from './progress.ts';
import { useConfigFile } from './config-file.ts';
import { VERSION } from '../util/version.ts';

export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

function wholeNumber(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };
}

/**
 * A commander parser that only checks a value (the action parses it again): a bad value fails as it
 * is read, so one that comes from the config file is reported with the file and its JSON path.
 */
function checked(check: (value: string) => unknown): (value: string) => string {
  return (value) => {
    check(value);
    return value;
  };
}

/** Refuse a run that could only print n/a: nothing to search (no tool, no skill) or no labelled case to score. */
function assertEvaluable(input: { catalog: Catalog; cases: readonly Case[] }, source: DatasetSource): void {
  const where = source.kind === 'dataset' ? source.ref : source.catalog;
  const skillsOnly = input.catalog.skills.length > 0 && input.cases.some((c) => c.expectedSkill !== undefined);
  if (!input.catalog.tools.length && !skillsOnly) throw new InputError('the catalog has no tools: nothing to evaluate', { file: where });
  if (!input.cases.some((c) => c.expectedTools !== undefined) && !skillsOnly) {
    const what = source.kind === 'dataset' && source.split !== null ? `in split "${source.split}"` : 'in the cases';
    throw new InputError(`no case labelled for tools ${what}: nothing to evaluate`, { file: source.kind === 'dataset' ? source.ref : source.cases });
  }
}

/** Whether `--floor` sets a strategy's floor (by name, or one setting for every strategy). */
function floorNamed(text: string | undefined, name: string): boolean {
  if (text === undefined) return false;
  if (!text.includes('=')) return true;
  return text.split(',').some((part) => part.slice(0, part.indexOf('=')).trim() === name);
}

/**
 * `--floor`'s syntax, for `checked`: one value (a score, `none`, `auto[:TARGET]`) or
 * `name=value,…`. Whether each name is a strategy being evaluated is checked by the action, which
 * knows the list.
 */
function floorSyntax(text: string): void {
  const names: string[] = [];
  if (text.includes('=')) {
    for (const part of text.split(',')) {
      const eq = part.indexOf('=');
      const name = eq < 0 ? '' : part.slice(0, eq).trim();
      if (name === '') throw new InputError(`--floor: "${part}" must be name=value (e.g. bm25=0.3), as every entry is when one is`);
      names.push(name);
    }
  }
  parseFloors(text, names);
}

/** A commander parser for a count that must be ≥ 1: threads, a context window, examples per tool. */
function atLeastOne(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
    return Number(value);
  };
}

/** The main job's default thread count: both cores of a 2-core machine, at most 2 (each thread holds a copy of the catalog). */
export const DEFAULT_RUN_WORKERS = Math.min(2, availableParallelism());

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** Where the main job keeps the built-in default dataset. */
export const DEFAULT_SEED = 7;
export const DEFAULT_DATASET_DIR = join(DATASETS_DIR, `monster-${DEFAULT_SEED}`);
/** What the main job evaluates. */
export const DEFAULT_RETRIEVERS = ['bm25', 'bm25-plain', 'hybrid', 'namespace'];
/** The main job's profiles: the baseline, the four harnesses and the seed's deferred schemas. */
export const DEFAULT_PROFILES = ['static', 'codex', 'claude-code', 'hermes', 'hermes-raw', 'deepseek-code', 'deferred', 'semantic-retrieval', 'namespace-routing', 'gated-sticky-deferred', 'routed-deferred'];
/** The main job scores the test split and calibrates floors (and fusions) on the train split. */
export const DEFAULT_SCORED_SPLIT = 'test';
export const DEFAULT_CALIBRATION_SPLIT = 'train';
export const DEFAULT_RUN_FLOOR_TARGET = 0.1;

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

  program
    .command('run')
    .description('The main job on the built-in default: generate the monster company (seed 7) unless it is already there, evaluate the default retrievers and profiles on its test split with floors calibrated on its train split (no-tool false-positive rate 0.1), write the report (HTML, PNG charts, Markdown, JUnit) and print a summary with the path of the HTML report.')
    .option('--seed <n>', 'seed of the monster company', wholeNumber('--seed'), DEFAULT_SEED)
    .addOption(new Option('--preset <name>', 'size preset (the main job is the monster company; smaller presets for a quick look)').choices(Object.keys(PRESETS)).default('monster'))
    .option('--out <dir>', 'dataset folder (default: datasets/monster-<seed>)')
    .option('--results <dir>', 'results folder (default: reports/monster-<seed>)')
    .option('--retrievers <list>', 'comma-separated retriever names', checked(parseRetrieverList), DEFAULT_RETRIEVERS.join(','))
    .option('--profiles <list>', 'comma-separated profile names ("" for none)', checked((v) => (v.trim() === '' ? [] : parseProfileList(v))), DEFAULT_PROFILES.join(','))
    .option('--workers <n>', 'threads to evaluate strategies on (results are the same with any number)', atLeastOne('--workers'), DEFAULT_RUN_WORKERS)
    .option('--floor <x|auto[:T]|name=x,…>', 'floors, as for eval: calibrated on the calibration split by default', checked(floorSyntax), `auto:${DEFAULT_RUN_FLOOR_TARGET}`)
    .option('--calibrate-on <split>', 'the split floors and fusions are calibrated on; the other cases are scored', DEFAULT_CALIBRATION_SPLIT)
    .option('--split <name>', 'the split that is scored', DEFAULT_SCORED_SPLIT)
    .addOption(new Option('--query-style <style>', 'what each search receives: raw (the request as it is) or keywords (the short keyword query a model writes into a search tool); default: each profile\'s own (keywords where the model writes the search query, raw where the harness searches with the request; raw for retrievers): see docs/profiles.md').choices([...QUERY_STYLES]))
    .option('--quiet', 'no progress output')
    .action(async (opts: { seed: number; preset: string; out?: string; results?: string; retrievers: string; profiles: string; workers: number; floor: string; calibrateOn: string; split: string; queryStyle?: QueryStyle; quiet?: boolean }) => {
      const dir = resolve(opts.out ?? join(DATASETS_DIR, `${opts.preset}-${opts.seed}`));
      const out = resolve(opts.results ?? join('reports', `${opts.preset}-${opts.seed}`));
      const retrievers = parseRetrieverList(opts.retrievers);
      const profiles = opts.profiles.trim() === '' ? [] : parseProfileList(opts.profiles);
      const floors = parseFloors(opts.floor, [...retrievers, ...profiles], profileDefaultFloors(profiles, true));
      if (opts.calibrateOn === opts.split) throw new InputError(`--calibrate-on ${opts.calibrateOn} and --split ${opts.split} name the same cases: calibration and scoring need different splits`);
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
      assertReplaceable(dir, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')));
      assertReplaceable(out, 'results folder', isResultsDir);
      // one writer per results folder: a second run into it stops here (exit 2)
      const release = lockFolder(out, io.err);
      try {
        if (reusable(dir, params)) {
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
        const d = loadDataset(dir);
        io.out(`${formatSummary(summarize(d.name, d.catalog, d.cases, d.manifest))}\n\n`);
        // Scored: the test split. Calibrated on: the train split (floors, fusions), never scored.
        const input = { ...inputOfDataset(d, { kind: 'dataset', ref: dir, split: opts.split }), cases: d.cases.filter((c) => caseSplit(c) === opts.split) };
        if (!input.cases.length) throw new InputError(`--split: no case is in split "${opts.split}"`, { file: dir });
        const calibration = resolveCalibration(opts.calibrateOn, input.source, d.catalog, input.cases, `--split ${opts.split}`, wantsCalibration(floors), d.cases);
        for (const w of calibration.warnings) io.err(`${w}\n`);
        lap('loadMs');
        failpoint('load');
        const run = await runEval(input, { ...makeConfig(retrievers, [1, 3, 5, 10], floors, null, false, profiles), ...(opts.queryStyle ? { queryStyle: opts.queryStyle } : {}) }, {
          workers: opts.workers,
          workerSource: input.source,
          calibration: calibration.set,
          progress: (name, done, total) => progress.update(name, done, total),
          indexProgress: (name, done, total) => progress.update(`${name} index`, done, total),
        });
        progress.stop();
        lap('evaluateMs');
        failpoint('evaluate');
        // Results, report and timings are written into one temporary folder, swapped in by one rename:
        // a kill at any stage leaves the previous complete run or the new complete one.
        let written: { pngs: number; timings: ReturnType<typeof runTimings> } | undefined;
        writeRunDir(out, run, input.cases, input.catalog, {}, (tmp) => {
          lap('writeResultsMs');
          failpoint('results');
          io.err('writing the report\n');
          const report = writeReport(run, join(tmp, 'report'), REPORT_FORMATS, { cases: input.cases, catalog: input.catalog });
          lap('writeReportMs');
          const timings = runTimings(run, stages, Date.now() - t0, opts.workers);
          writeFileSync(join(tmp, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
          failpoint('timings');
          written = { pngs: report.files.filter((f) => f.endsWith('.png')).length, timings };
        });
        io.out(
          `${formatRunSummary(run.results)}\nresults: ${displayPath(join(out, 'results.json'))}\n` +
            `report:  ${displayPath(join(out, 'report', 'report.html'))}  (+ ${written!.pngs} PNG charts, summary.md, junit.xml)  ${((Date.now() - t0) / 1000).toFixed(1)} s in all\n` +
            `stages:  ${formatStages(written!.timings)}  (${displayPath(join(out, 'timings.json'))})\n`,
        );
      } finally {
        release();
      }
    });

  program
    .command('generate')
    .description('Write a seeded synthetic dataset (the "monster company": tools, skills, labelled cases) to a folder.')
    .addOption(new Option('--preset <name>', 'size preset').choices(Object.keys(PRESETS)).default('monster'))
    .option('--seed <n>', 'random seed (same seed and version give byte-identical files)', wholeNumber('--seed'), DEFAULT_SEED)
    .requiredOption('--out <dir>', 'dataset folder to write (replaced atomically if it holds a dataset)')
    .option('--tools <n>', 'total tools (core + plugin + MCP), overriding the preset', wholeNumber('--tools'))
    .option('--skills <n>', 'number of skills, overriding the preset', wholeNumber('--skills'))
    .option('--cases <n>', 'number of labelled cases, overriding the preset', wholeNumber('--cases'))
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      `\nPresets:\n${Object.entries(PRESETS)
        .map(([k, p]) => `  ${k.padEnd(8)} ${p.mcpTools.toLocaleString('en-US')} MCP tools on ${p.servers} servers, ${p.plugins} plugins, ${p.coreTools} core tools, ${p.skills.toLocaleString('en-US')} skills, ${p.cases.toLocaleString('en-US')} cases`)
        .join('\n')}\n`,
    )
    .action(async (opts: { preset: string; seed: number; out: string; tools?: number; skills?: number; cases?: number; quiet?: boolean }) => {
      const dir = resolve(opts.out);
      assertReplaceable(dir, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')));
      const params = resolveParams(opts.preset, opts.seed, {
        ...(opts.tools !== undefined ? { tools: opts.tools } : {}),
        ...(opts.skills !== undefined ? { skills: opts.skills } : {}),
        ...(opts.cases !== undefined ? { cases: opts.cases } : {}),
      });
      const t0 = Date.now();
      const progress = progressReporter(process.stderr, opts.quiet === true);
      const g = await generateMeasured(params, (stage, done, total) => progress.update(stage, done, total));
      const manifest = writeDataset(dir, g.dataset, g.manifest, (done, total) => progress.update('writing', done, total), g.extraFiles);
      progress.stop();
      const c = manifest.counts;
      io.out(
        `wrote ${opts.out}: ${c.tools.toLocaleString('en-US')} tools, ${c.skills.toLocaleString('en-US')} skills, ${c.cases.toLocaleString('en-US')} cases ` +
          `(${Object.keys(manifest.slices).length} slices) in ${((Date.now() - t0) / 1000).toFixed(1)} s\ncatalog sha256 ${manifest.catalogSha256}\n`,
      );
    });

  program
    .command('inspect')
    .description('Summarise a dataset (folder or name) or any supported catalog: counts, largest namespaces, slices, schema token sizes.')
    .argument('[dataset]', 'dataset folder, or a name under datasets/ (e.g. metatool)')
    .option('--catalog <path>', 'inspect a catalog file or folder instead of a dataset')
    .option('--cases <file>', 'with --catalog: labelled cases to check against it (CSV or JSONL)')
    .option('--skills <dir>', 'with --catalog: add the skills of a SKILL.md folder')
    .addOption(new Option('--format <name>', 'catalog format (detected when omitted)').choices(Object.keys(CATALOG_FORMATS)))
    .option('--server <name>', 'server name for a single MCP tools/list file (default: from the file name)')
    .option('--json', 'print JSON instead of text')
    .addHelpText('after', `\nCatalog formats:\n${Object.entries(CATALOG_FORMATS).map(([k, f]) => `  ${k.padEnd(16)} ${f.description}`).join('\n')}\n`)
    .action((dataset: string | undefined, opts: { catalog?: string; cases?: string; skills?: string; format?: string; server?: string; json?: boolean }) => {
      if ((dataset === undefined) === (opts.catalog === undefined)) throw new InputError('give either a dataset (folder or name) or --catalog PATH');
      if ((opts.cases !== undefined || opts.skills !== undefined) && opts.catalog === undefined) throw new InputError('--cases and --skills go with --catalog');
      let summary;
      if (opts.catalog !== undefined) {
        const catalog = withSkills(loadCatalog(opts.catalog, { ...(opts.format ? { format: opts.format } : {}), ...(opts.server ? { server: opts.server } : {}), onWarning: (w) => io.err(`warning: ${w}\n`) }), opts.skills ?? null);
        const cases = opts.cases !== undefined ? loadCases(opts.cases, catalog) : [];
        summary = summarize(opts.catalog, catalog, cases);
      } else {
        const d = loadDataset(dataset!, { onWarning: (w) => io.err(`warning: ${w}\n`) });
        summary = summarize(d.name, d.catalog, d.cases, d.manifest, readRealism(d.dir));
      }
      io.out(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : `${formatSummary(summary)}\n`);
    });

  program
    .command('eval')
    .description('Evaluate retrievers and profiles on labelled cases: metrics overall, per slice and per namespace, per-query details and TREC runs.')
    .option('--dataset <dir|name>', 'a dataset folder (generated or BEIR) or a name under datasets/ (e.g. metatool)')
    .option('--split <name>', 'only the cases of this split (BEIR qrels/<split>.tsv, or the cases\' split field)')
    .option('--catalog <path>', 'a catalog in any supported format (instead of --dataset)')
    .option('--cases <file>', 'with --catalog: labelled cases (CSV or JSONL)')
    .option('--skills <dir>', 'with --catalog: add the skills of a SKILL.md folder')
    .option('--re-sign', 'accept a dataset folder whose files differ from its manifest.json (changed on purpose): read it with every check, rewrite its manifest, and record what changed in results.json (dataset.reSigned, warnings)')
    .addOption(new Option('--format <name>', 'with --catalog: its format (detected when omitted)').choices(Object.keys(CATALOG_FORMATS)))
    .option('--retrievers <list>', 'comma-separated retriever names (default: bm25, unless --profiles is given)', checked(parseRetrieverList))
    .option('--profiles <list>', 'comma-separated profile names (strategies of real harnesses: static, codex, claude-code, hermes, …; see backpack list)', checked(parseProfileList))
    .option('--context-window <tokens>', 'context window of the emulated model, for profile budgets (listings, thresholds)', atLeastOne('--context-window'), DEFAULT_CONTEXT_WINDOW)
    .option('--cache-write-ratio <x>', 'profiles\' session cost: price of a cache write, as a multiple of uncached input (Anthropic: 1.25)', positiveNumber('--cache-write-ratio'), DEFAULT_CACHE_PRICES.writeRatio)
    .option('--cache-read-ratio <x>', 'profiles\' session cost: price of a cache read, as a multiple of uncached input (Anthropic: 0.1)', positiveNumber('--cache-read-ratio'), DEFAULT_CACHE_PRICES.readRatio)
    .option('--k <list>', 'cut-offs for recall@k and friends', checked(parseKs), '1,3,5,10')
    .option('--floor <x|auto[:T]|name=x,…>', 'floor score: hits below it are dropped. A score on the strategy\'s own scale, "none", or auto[:TARGET] = the lowest floor whose no-tool false-positive rate on the --calibrate-on cases is ≤ TARGET (default 0.1); one setting for all, or per retriever or profile', checked(floorSyntax))
    .option('--calibrate-on <split|file>', 'calibration cases, never scored: a split of the evaluated cases (e.g. train) or a cases file (CSV or JSONL) over the same catalog; --floor auto picks floors on them and the hybrid fusions fit their score scale on them')
    .option('--out <dir>', 'results folder (default: reports/<dataset>)')
    .option('--shard <i/n>', 'evaluate only the i-th of n deterministic parts (combine them with backpack merge)', checked(parseShard))
    .option('--traces <csv>', 'replay agent traces: CSV case_id,called_tool (empty = no call)')
    .addOption(new Option('--query-style <style>', 'what each search receives: raw (the request as it is) or keywords (the short keyword query a model writes into a search tool); default: each profile\'s own (keywords where the model writes the search query, raw where the harness searches with the request; raw for retrievers): see docs/profiles.md').choices([...QUERY_STYLES]))
    .option('--sticky', 'sticky-per-task retrieval: a session keeps its tool set until a request matches none of it above the floor (give --floor for retrievers that score every tool, like embed)')
    .option('--roles <file>', 'role / phase → namespaces and tool patterns, for role gating (the gate retriever, the role-gating and claude-code profiles) (default: the dataset\'s roles.json)')
    .option('--model <id|dir>', 'embedding model for embed and hybrid: a Hugging Face id (downloaded once, then cached) or a local model folder (default: the offline GloVe encoder)')
    .option('--examples-from <split>', 'add the requests of this split (e.g. train) to their gold tools\' examples before indexing; needs --split for the scored cases')
    .option('--examples-per-tool <n>', 'with --examples-from: at most n examples per tool', atLeastOne('--examples-per-tool'), 5)
    .option('--workers <n>', 'threads to evaluate strategies on, each with its own copy of the catalog (results are the same with any number; not with --examples-from or --roles)', atLeastOne('--workers'), 1)
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      () =>
        `\nRetrievers:\n${retrieverEntries().map(([n, f]) => `  ${n.padEnd(18)} ${f.description}`).join('\n')}\n` +
        `\nProfiles:\n${profileEntries().map(([n, f]) => `  ${n.padEnd(18)} ${f.description}`).join('\n')}\n`,
    )
    .action(async (opts: EvalOptions) => {
      const source = evalSource(opts);
      const profiles = opts.profiles !== undefined ? parseProfileList(opts.profiles) : [];
      const retrievers = opts.retrievers !== undefined ? parseRetrieverList(opts.retrievers) : profiles.length ? [] : ['bm25'];
      const ks = parseKs(opts.k);
      const floors = parseFloors(opts.floor, [...retrievers, ...profiles], profileDefaultFloors(profiles, opts.calibrateOn !== undefined, opts.model !== undefined ? { model: opts.model } : {}));
      if (opts.model !== undefined && opts.calibrateOn === undefined) {
        const bare = profiles.filter((p) => profileUsesModel(p) && floors[p] === null && !floorNamed(opts.floor, p));
        if (bare.length) io.err(`warning: no default floor for ${bare.join(', ')} with --model (the documented default is on the offline encoder's scale): give --floor NAME=X or --calibrate-on SPLIT\n`);
      }
      if (wantsCalibration(floors) && opts.calibrateOn === undefined) throw new InputError('--floor auto needs --calibrate-on SPLIT|FILE: the calibration cases the floors are chosen on (never the scored ones), e.g. --split test --calibrate-on train');
      const shard = opts.shard !== undefined ? parseShard(opts.shard) : null;
      if (opts.model !== undefined && !retrievers.some((r) => retrieverEntries().some(([n, f]) => n === r && f.usesModel === true)) && !profiles.some(profileUsesModel)) {
        throw new InputError(`--model applies to the embed, hybrid and hybrid-rrf retrievers and the profiles that embed (${profileNames().filter(profileUsesModel).join(', ')}), and none is evaluated`);
      }
      if (opts.out !== undefined) assertReplaceable(resolve(opts.out), 'results folder', isResultsDir);
      // Load with the paths as typed (errors name them so); record them so another machine can find them.
      if (opts.examplesFrom !== undefined && (source.kind !== 'dataset' || source.split === null)) throw new InputError('--examples-from needs --dataset … --split SPLIT (the cases to score)');
      // An mcpServers configuration: its servers are snapshotted now, and the bundle is kept with the results.
      const snap = await snapshotForEval(source, io.err, opts.quiet === true);
      let input = { ...loadEvalInput(snap?.loadSource ?? (opts.examplesFrom !== undefined && source.kind === 'dataset' ? { ...source, split: null } : source), (w) => io.err(`warning: ${w}\n`), opts.reSign ? { reSign: true } : {}), source: portableSource(source) };
      if (opts.roles !== undefined) input = { ...input, roles: readRoleMap(opts.roles, input.catalog) };
      let examples: { from: string; perTool: number; added: number } | undefined;
      if (opts.examplesFrom !== undefined && source.kind === 'dataset') {
        const a = augmentCatalog(input.catalog, input.cases, { from: opts.examplesFrom, perTool: opts.examplesPerTool }, source.split!);
        if (a.added === 0) throw new InputError(`no single-tool case is in split "${opts.examplesFrom}": no example to add`);
        input = { ...input, catalog: a.catalog, cases: a.scored };
        examples = { from: opts.examplesFrom, perTool: opts.examplesPerTool, added: a.added };
      }
      assertEvaluable(input, source);
      const calibration = opts.calibrateOn !== undefined ? resolveCalibration(opts.calibrateOn, source, input.catalog, input.cases, source.kind === 'dataset' && source.split !== null ? `--split ${source.split}` : 'all cases', wantsCalibration(floors)) : undefined;
      for (const w of calibration?.warnings ?? []) io.err(`${w}\n`);
      if (calibration && opts.examplesFrom !== undefined && opts.calibrateOn === opts.examplesFrom) {
        io.err(`warning: --calibrate-on ${opts.calibrateOn} is also --examples-from ${opts.examplesFrom}: its requests are in the index as examples, so fitted scores (hybrid) are over-confident there; calibrate on other cases for figures you ship\n`);
      }
      const traces = opts.traces !== undefined ? loadTraces(opts.traces, input.cases, input.catalog) : undefined;
      const base = makeConfig(retrievers, ks, floors, opts.traces !== undefined ? sha256(readFileSync(opts.traces)) : null, opts.sticky === true, profiles);
      const config = {
        ...base,
        ...(base.cache ? { cache: { writeRatio: opts.cacheWriteRatio, readRatio: opts.cacheReadRatio } } : {}),
        ...(opts.contextWindow !== DEFAULT_CONTEXT_WINDOW ? { contextWindow: opts.contextWindow } : {}),
        ...(examples ? { examples } : {}),
        ...(opts.queryStyle ? { queryStyle: opts.queryStyle } : {}),
      };
      const out = resolve(opts.out ?? join('reports', input.name));
      assertReplaceable(out, 'results folder', isResultsDir);
      // one writer per results folder: a second eval into it stops here (exit 2)
      const release = lockFolder(out, io.err);
      try {
        if (snap) input = { ...input, source: snap.recordedSource(out) };
        const progress = progressReporter(process.stderr, opts.quiet === true);
        // Worker threads load the input themselves: only when it is exactly what the source gives.
        const reproducible = opts.examplesFrom === undefined && opts.roles === undefined;
        if (opts.workers > 1 && !reproducible) io.err('note: --workers is ignored with --examples-from or --roles (the threads could not load the same input)\n');
        const run = await runEval(input, config, {
          shard,
          workers: opts.workers,
          ...(reproducible ? { workerSource: snap?.loadSource ?? source } : {}),
          ...(traces ? { traces } : {}),
          ...(calibration ? { calibration: calibration.set } : {}),
          ...(opts.model !== undefined ? { retrieverOptions: { model: opts.model } } : {}),
          progress: (name, done, total) => progress.update(name, done, total),
          indexProgress: (name, done, total) => progress.update(`${name} index`, done, total),
        });
        progress.stop();
        if (shard && run.results.dataset.cases === 0) io.err(`warning: shard ${shard.index}/${shard.count} holds none of the ${input.cases.length} cases: its figures are n/a; merge the shards for the run's figures\n`);
        writeRunDir(out, run, input.cases, input.catalog, snap?.files);
        snap?.dispose();
        io.out(`${formatRunSummary(run.results)}\nresults: ${displayPath(join(out, 'results.json'))}\n`);
      } finally {
        release();
      }
    });

  program
    .command('report')
    .description('Write what a person would rather look at than read, from a results folder: a self-contained HTML report, PNG charts, a Markdown summary and JUnit XML.')
    .argument('<results-dir>', 'a results folder (written by eval, merge or run)')
    .option('--format <list>', `formats to write: ${REPORT_FORMATS.join(',')}`, checked(parseFormats), REPORT_FORMATS.join(','))
    .option('--out <dir>', 'folder to write into (default: RESULTS_DIR/report)')
    .action((dir: string, opts: { format: string; out?: string }) => {
      const formats = parseFormats(opts.format);
      const run = readRunDir(dir, io.err);
      // The dataset only adds request texts and gold tools to the worst misses: report without it if it cannot be found.
      let data: { cases?: Case[]; catalog?: Catalog } = {};
      try {
        const input = loadEvalInput(runInputSource(dir, run.results));
        if (input.catalogSha256 === run.results.dataset.catalogSha256) data = { cases: input.cases, catalog: input.catalog };
        else io.err(`note: the dataset at ${JSON.stringify(run.results.dataset.source)} has changed since the run; the worst misses show tool ids only\n`);
      } catch {
        io.err('note: the dataset of this run was not found; the worst misses show tool ids only\n');
      }
      const report = writeReport(run, opts.out ?? join(dir, 'report'), formats, data);
      io.out(`${report.files.map((f) => `wrote ${displayPath(join(report.dir, f))}`).join('\n')}\n`);
    });

  registerGateCommands(program, io);
  registerDiffCommand(program, io);
  registerSnapshotCommand(program, io);

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

  program
    .command('merge')
    .description('Combine the results folders of a sharded evaluation (--shard i/n) into the results of one unsharded run.')
    .argument('<dirs...>', 'the shard results folders')
    .requiredOption('--out <dir>', 'results folder to write')
    .option('--dataset <dir|name>', 'where the dataset is on this machine (default: where the shards recorded it)')
    .option('--traces <csv>', 'the agent-trace file the shards replayed (required if they did)')
    .action(async (dirs: string[], opts: { out: string; dataset?: string; traces?: string }) => {
      assertReplaceable(resolve(opts.out), 'results folder', isResultsDir);
      const runs = dirs.map((dir) => ({ dir, run: readRunDir(dir, io.err) }));
      // Shards of eval --catalog CONFIG: the snapshot they share goes into the merged folder.
      const snap = shardSnapshot(runs);
      const recorded = snap?.loadSource ?? runs[0]!.run.results.dataset.source;
      const source: DatasetSource = opts.dataset !== undefined && recorded.kind === 'dataset' ? { ...recorded, ref: portableRef(opts.dataset) } : recorded;
      const input = loadEvalInput(source);
      const tracesSha = runs[0]!.run.results.config.traces;
      if (tracesSha !== null && opts.traces === undefined) throw new InputError('the shards replayed agent traces: give the same file with --traces');
      if (tracesSha !== null && sha256(readFileSync(opts.traces!)) !== tracesSha) throw new InputError('is not the trace file the shards replayed (sha256 differs)', { file: opts.traces! });
      const traces = tracesSha !== null ? loadTraces(opts.traces!, input.cases, input.catalog) : undefined;
      const merged = await mergeRuns(runs, input, traces);
      if (snap) merged.results.dataset.source = snap.recordedSource(opts.out);
      writeRunDir(opts.out, merged, input.cases, input.catalog, snap?.files);
      io.out(`${formatRunSummary(merged.results)}\nresults: ${displayPath(join(resolve(opts.out), 'results.json'))}\n`);
    });

  return program;
}

/** A path as the user would type it: relative when inside the working folder, absolute otherwise. */
function displayPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}

interface EvalOptions {
  workers: number;
  reSign?: boolean;
  queryStyle?: QueryStyle;
  roles?: string;
  model?: string;
  examplesFrom?: string;
  examplesPerTool: number;
  sticky?: boolean;
  skills?: string;
  dataset?: string;
  split?: string;
  catalog?: string;
  cases?: string;
  format?: string;
  retrievers?: string;
  profiles?: string;
  contextWindow: number;
  cacheWriteRatio: number;
  cacheReadRatio: number;
  k: string;
  floor?: string;
  calibrateOn?: string;
  out?: string;
  shard?: string;
  traces?: string;
  quiet?: boolean;
}

function evalSource(opts: EvalOptions): DatasetSource {
  if ((opts.dataset === undefined) === (opts.catalog === undefined)) throw new InputError('give either --dataset DIR|NAME or --catalog PATH --cases FILE');
  if (opts.dataset !== undefined) {
    if (opts.cases !== undefined || opts.format !== undefined || opts.skills !== undefined) throw new InputError('--cases, --skills and --format go with --catalog, not --dataset');
    return { kind: 'dataset', ref: opts.dataset, split: opts.split ?? null };
  }
  if (opts.cases === undefined) throw new InputError('--catalog needs --cases FILE (labelled cases, CSV or JSONL)');
  if (opts.split !== undefined) throw new InputError('--split goes with --dataset');
  return { kind: 'files', catalog: opts.catalog!, cases: opts.cases, format: opts.format ?? null, skills: opts.skills ?? null };
}

/** A dataset source as results record it: a name under datasets/ stays a name, paths become absolute. */
function portableSource(source: DatasetSource): DatasetSource {
  if (source.kind === 'dataset') return { ...source, ref: portableRef(source.ref) };
  return { ...source, catalog: resolve(source.catalog), cases: resolve(source.cases), skills: source.skills ? resolve(source.skills) : null };
}

function parseKs(text: string): number[] {
  const ks = text.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  if (!ks.length || ks.some((k) => !Number.isInteger(k) || k < 1 || k > 1000)) throw new InputError(`--k must be a comma-separated list of whole numbers from 1 to 1000 (got "${text}")`);
  return ks;
}

/** A compact table of the headline figures of each retriever. */
export function formatRunSummary(r: Results): string {
  const ks = r.config.ks;
  const profiles = Object.entries(r.profiles ?? {});
  const cols = ['top1', ...ks.map((k) => `recall@${k}`), 'mrr@10', ...(profiles.length ? ['visible'] : []), 'noToolFalsePositiveRate', 'scopeLeakCount'];
  const head = ['strategy', ...cols.map((c) => (c === 'noToolFalsePositiveRate' ? 'noToolFP' : c === 'scopeLeakCount' ? 'leaks' : c)), 'floor', 'p50 ms'];
  const rows = [...Object.entries(r.retrievers), ...profiles].map(([name, x]) => [
    name,
    ...cols.map((c) => {
      const v = x.metrics.overall[c];
      return v === undefined ? 'n/a' : c === 'scopeLeakCount' ? String(v) : v.toFixed(3);
    }),
    floorLabel(r.config.floors[name]),
    x.latency.p50Ms.toFixed(3),
  ]);
  const shard = r.shard ? ` (shard ${r.shard.index}/${r.shard.count})` : '';
  const out = [`${r.dataset.name}${shard}: ${r.dataset.cases.toLocaleString('en-US')} cases, ${r.dataset.tools.toLocaleString('en-US')} tools`, ...alignRows(head, rows)];
  if (profiles.length) {
    const int = (x: number) => Math.round(x).toLocaleString('en-US');
    const tokenHead = ['profile tokens (o200k)', 'before search', 'per search', 'per case', 'visible/1k tok', '12 turns', '12 turns cached', 'context fit'];
    const tokenRows = profiles.map(([name, p]) => [name, int(p.tokens.beforeSearch), int(p.tokens.perSearch), int(p.tokens.perCase), p.tokens.visiblePer1kTokens.toFixed(4), int(p.tokens.session12Uncached), int(p.tokens.session12Cached), fitMark({ share: p.tokens.fitsContext ?? 1, window: p.tokens.contextWindow ?? DEFAULT_CONTEXT_WINDOW }) ?? 'fits']);
    out.push('', ...alignRows(tokenHead, tokenRows));
    if (profiles.some(([, p]) => (p.tokens.fitsContext ?? 1) < 1)) out.push(`(a case whose prompt does not fit the ${int(profiles[0]![1].tokens.contextWindow ?? DEFAULT_CONTEXT_WINDOW)}-token context window counts as not visible; noToolFP counts any non-pinned tool in front of the model)`);
  }
  return out.join('\n');
}

/** A floor as the summary table shows it: `-` (none), a score, or `auto score` (`auto: n/a` where floors do not apply). */
function floorLabel(f: FloorSetting | undefined): string {
  if (f === null || f === undefined) return '-';
  if (typeof f === 'number') return floorNumber(f);
  return f.value === null ? 'auto: n/a' : `auto ${floorNumber(f.value)}`;
}

/** True if `dir` holds an intact dataset made by this generator version with these parameters. */
function reusable(dir: string, params: ReturnType<typeof resolveParams>): boolean {
  if (!existsSync(join(dir, 'manifest.json'))) return false;
  try {
    const m = readManifest(dir);
    // a folder changed by hand and re-signed is not the built-in default any more: generate it again
    if (m.reSigned) return false;
    if (m.generator?.version !== GENERATOR.version || JSON.stringify(m.params) !== JSON.stringify(params)) return false;
    verifyFiles(dir, m);
    return true;
  } catch {
    return false;
  }
}

/** What `run` writes to `timings.json`: each stage's wall time, the process's peak memory, and each strategy's index and search time. */
export interface RunTimings {
  totalMs: number;
  /** generateMs is null when the dataset was reused. */
  stages: Record<string, number | null>;
  peakRssMb: number;
  workers: number;
  strategies: Record<string, { indexMs: number; searchMs: number }>;
}

function runTimings(run: EvalRun, stages: Record<string, number | null>, totalMs: number, workers: number): RunTimings {
  const all = { ...run.results.retrievers, ...run.results.profiles };
  const strategies = Object.fromEntries(
    Object.entries(all).map(([name, r]) => [name, { indexMs: Math.round(r.latency.indexMs), searchMs: Math.round((run.details[name] ?? []).reduce((a, d) => a + d.ms, 0)) }]),
  );
  return { totalMs, stages, peakRssMb: peakRssMb(), workers, strategies };
}

function formatStages(t: RunTimings): string {
  const s = (ms: number | null | undefined) => (ms === null || ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
  return `generate ${s(t.stages.generateMs)}, load ${s(t.stages.loadMs)}, evaluate ${s(t.stages.evaluateMs)} on ${t.workers} thread${t.workers > 1 ? 's' : ''}, results ${s(t.stages.writeResultsMs)}, report ${s(t.stages.writeReportMs)}; peak memory ${t.peakRssMb.toLocaleString('en-US')} MB`;
}

/** Run the command line; returns the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const program = buildProgram(io);
  const tokenCounts = useTokenCountCache(DEFAULT_TOKEN_CACHE_DIR);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.badInput;
    }
    if (isInputError(err)) {
      io.err(`error: ${err.describe()}\n`);
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
    io.err(`backpack failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.failed;
  } finally {
    tokenCounts.flush();
  }
}

/** Rows of cells as aligned lines: the first column left-aligned, the others right-aligned. */
function alignRows(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)];
}

/** A commander parser for a finite number > 0. */
function positiveNumber(flag: string): (v: string) => number {
  return (v) => {
    const x = Number(v);
    if (v.trim() === '' || !Number.isFinite(x) || x <= 0) throw new InvalidArgumentError(`${flag} must be a number > 0 (got "${v}")`);
    return x;
  };
}
