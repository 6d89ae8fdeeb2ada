/**
 * `backpack eval`: evaluate retrievers and profiles on labelled cases into a results folder.
 */
import { helpList } from './help-text.ts';
import { retrieverCapabilities } from '../retrievers/registry.ts';
import { atLeastOne, atLeastZero, checked, displayPath, floorSyntax, parseKs, positiveNumber, type Io } from './options.ts';
import { formatRunSummary } from './summary.ts';
import { type Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { assertReplaceable } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { safeFolderName } from '../util/output-path.ts';
import { resolveDatasetPath } from '../catalog/resolve.ts';
import { readRoleMap } from '../catalog/roles.ts';
import { catalogFormatNames } from '../catalog/loaders/registry.ts';
import { augmentCatalog } from '../eval/examples.ts';
import { loadEvalInput, portableRef } from '../eval/input.ts';
import { isResultsDir, writeRunDir } from '../eval/files.ts';
import { sha256 } from '../util/hash.ts';
import { DEFAULT_CACHE_PRICES, type DatasetSource } from '../eval/results.ts';
import { parseShard } from '../eval/shard.ts';
import { loadTraces } from '../eval/traces.ts';
import { parseProfileList, profileEntries, profileNames, profileUsesModel } from '../profiles/registry.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { DEFAULT_CONTEXT_WINDOW, type QueryStyle } from '../profiles/types.ts';
import { QUERY_STYLES } from '../profiles/keyword-query.ts';
import { lockFolder } from '../util/file-lock.ts';
import { parseRetrieverList, retrieverEntries } from '../retrievers/registry.ts';
import { snapshotForEval } from '../snapshot/for-catalog.ts';
import { parseFloorOption } from './calibration.ts';
import { planCalibration, planEvaluation, runPlanned } from '../eval/pipeline.ts';
import { progressReporter } from './progress.ts';
import { pluginSettings, workerSetting } from './extensions.ts';
import { DEFAULT_ENDPOINT_SETTINGS, isEndpointRef, type EndpointSettings } from '../retrievers/embed/endpoint.ts';
import { embedAhead } from '../eval/embed-ahead.ts';
import { casesOfShard } from '../eval/shard.ts';

/** Add `eval` to the program. */
export function registerEvalCommand(program: Command, io: Io): void {
  program
    .command('eval')
    .description('Evaluate retrievers and profiles on labelled cases: metrics overall, per slice and per namespace, per-query details and TREC runs.')
    .option('--dataset <dir|name>', 'a dataset folder (generated or BEIR) or a name under datasets/ (e.g. metatool)')
    .option('--split <name>', "only the cases of this split (BEIR qrels/<split>.tsv, or the cases' split field)")
    .option('--catalog <path>', 'a catalog in any supported format (instead of --dataset)')
    .option('--cases <file>', 'with --catalog: labelled cases (CSV or JSONL)')
    .option('--skills <dir>', 'with --catalog: add the skills of a SKILL.md folder')
    .addOption(
      new Option('--server <name>', 'with --catalog CONFIG (an mcpServers configuration): snapshot only this server (repeat, or a comma-separated list)')
        .argParser((v: string, prev: string[] = []) => [
          ...prev,
          ...v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ])
        .default(undefined, 'every server'),
    )
    .option(
      '--partial',
      'with --catalog CONFIG: evaluate the servers that answered when some could not be snapshotted (named in the warnings, their tools missing from the catalog) instead of stopping with exit 1',
    )
    .option(
      '--renames <file>',
      "with --catalog and --cases: tools the registry change renamed, old id → new id (a JSON object, or a CSV with the header old,new): the cases' gold is mapped to the new ids, reported, and the run still pairs with runs over the old catalog",
    )
    .option(
      '--re-sign',
      'accept a dataset folder whose files differ from its manifest.json (changed on purpose): read it with every check, rewrite its manifest, and record what changed in results.json (dataset.reSigned, warnings)',
    )
    .addOption(new Option('--format <name>', 'with --catalog: its format (detected when omitted)').choices(catalogFormatNames()))
    .option('--retrievers <list>', 'comma-separated retriever names (default: bm25, unless --profiles is given)', checked(parseRetrieverList))
    .option(
      '--profiles <list>',
      'comma-separated profile names (strategies of real harnesses: static, codex, claude-code, hermes, …; see backpack list)',
      checked(parseProfileList),
    )
    .option(
      '--context-window <tokens>',
      'context window of the emulated model, for profile budgets (listings, thresholds)',
      atLeastOne('--context-window'),
      DEFAULT_CONTEXT_WINDOW,
    )
    .option(
      '--cache-write-ratio <x>',
      "profiles' session cost: price of a cache write, as a multiple of uncached input (Anthropic: 1.25)",
      positiveNumber('--cache-write-ratio'),
      DEFAULT_CACHE_PRICES.writeRatio,
    )
    .option(
      '--cache-read-ratio <x>',
      "profiles' session cost: price of a cache read, as a multiple of uncached input (Anthropic: 0.1)",
      positiveNumber('--cache-read-ratio'),
      DEFAULT_CACHE_PRICES.readRatio,
    )
    .option('--k <list>', 'cut-offs for recall@k and friends', checked(parseKs), '1,3,5,10')
    .option(
      '--floor <x|auto[:T]|name=x,…>',
      'floor score: hits below it are dropped. A score on the strategy\'s own scale, "none", or auto[:TARGET] = the lowest floor whose no-tool false-positive rate on the --calibrate-on cases is ≤ TARGET (default 0.1); one setting for all, or per retriever or profile',
      checked(floorSyntax),
    )
    .option(
      '--calibrate-on <split|file>',
      'calibration cases, never scored: a split of the evaluated cases (e.g. train) or a cases file (CSV or JSONL) over the same catalog; --floor auto picks floors on them and the hybrid fusions fit their score scale on them',
    )
    .option('--out <dir>', 'results folder (default: reports/<dataset>)')
    .option('--shard <i/n>', 'evaluate only the i-th of n deterministic parts (combine them with backpack merge)', checked(parseShard))
    .option('--traces <csv>', 'replay agent traces: CSV case_id,called_tool (empty = no call)')
    .addOption(
      new Option(
        '--query-style <style>',
        "what each search receives: raw (the request as it is) or keywords (the short keyword query a model writes into a search tool); default: each profile's own (keywords where the model writes the search query, raw where the harness searches with the request; raw for retrievers): see docs/profiles.md",
      ).choices([...QUERY_STYLES]),
    )
    .option(
      '--sticky',
      'sticky-per-task retrieval: a session keeps its tool set until a request matches none of it above the floor (give --floor for retrievers that score every tool, like embed)',
    )
    .option(
      '--roles <file>',
      "role / phase → namespaces and tool patterns, for role gating (the gate retriever, the role-gating and claude-code profiles) (default: the dataset's roles.json)",
    )
    .option(
      '--model <id|dir>',
      'embedding model for embed, the hybrids and the profiles that embed: a Hugging Face id (downloaded once, then cached), a local model folder, or an endpoint: openai:MODEL (OPENAI_BASE_URL, OPENAI_API_KEY; also Azure, vLLM, TEI, llama.cpp, LM Studio) or ollama:MODEL (OLLAMA_HOST) (default: the offline GloVe encoder)',
    )
    .option(
      '--max-embed-tokens <n>',
      'with an endpoint model: refuse a run that would send more tokens (o200k count) to it; what it will send is printed before the first request',
      atLeastOne('--max-embed-tokens'),
    )
    .option('--embed-batch <n>', 'with an endpoint model: texts per request', atLeastOne('--embed-batch'), DEFAULT_ENDPOINT_SETTINGS.batchSize)
    .option(
      '--embed-concurrency <n>',
      'with an endpoint model: requests in flight at once',
      atLeastOne('--embed-concurrency'),
      DEFAULT_ENDPOINT_SETTINGS.concurrency,
    )
    .option(
      '--embed-timeout <seconds>',
      'with an endpoint model: give up on one request after this long (it is retried)',
      positiveNumber('--embed-timeout'),
      DEFAULT_ENDPOINT_SETTINGS.timeoutMs / 1000,
    )
    .option(
      '--embed-retries <n>',
      'with an endpoint model: retries of a request that got 429, 5xx, a timeout or a closed connection (Retry-After is honoured)',
      atLeastZero('--embed-retries'),
      DEFAULT_ENDPOINT_SETTINGS.retries,
    )
    .option(
      '--examples-from <split>',
      "add the requests of this split (e.g. train) to their gold tools' examples before indexing; needs --split for the scored cases",
    )
    .option('--examples-per-tool <n>', 'with --examples-from: at most n examples per tool', atLeastOne('--examples-per-tool'), 5)
    .option(
      '--workers <n>',
      'threads to evaluate strategies on, each with its own copy of the catalog (results are the same with any number; not with --examples-from or --roles)',
      atLeastOne('--workers'),
      1,
    )
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      () =>
        helpList(
          'Retrievers',
          retrieverEntries().map(([n, f]) => [n, f.description] as const),
          18,
        ) +
        helpList(
          'Profiles',
          profileEntries().map(([n, f]) => [n, f.description] as const),
          18,
        ),
    )
    .action(async (opts: EvalOptions, cmd: Command) => {
      const source = evalSource(opts);
      const profiles = opts.profiles !== undefined ? parseProfileList(opts.profiles) : [];
      const retrievers = opts.retrievers !== undefined ? parseRetrieverList(opts.retrievers) : profiles.length ? [] : ['bm25'];
      // floors resolved once, here, for the whole run (eval/pipeline.ts)
      const plan = planEvaluation({
        retrievers,
        profiles,
        ks: parseKs(opts.k),
        floor: parseFloorOption(opts.floor, [...retrievers, ...profiles]),
        ...(opts.calibrateOn !== undefined ? { calibrateOn: opts.calibrateOn } : {}),
        ...(opts.model !== undefined ? { model: opts.model } : {}),
        sticky: opts.sticky === true,
        ...(opts.contextWindow !== DEFAULT_CONTEXT_WINDOW ? { contextWindow: opts.contextWindow } : {}),
        cache: { writeRatio: opts.cacheWriteRatio, readRatio: opts.cacheReadRatio },
        ...(opts.queryStyle ? { queryStyle: opts.queryStyle } : {}),
        ...pluginSettings(),
      });
      if (plan.unfloored.length)
        io.err(
          `warning: no default floor for ${plan.unfloored.join(', ')} with --model (the documented default is on the offline encoder's scale): give --floor NAME=X or --calibrate-on SPLIT\n`,
        );
      const shard = opts.shard !== undefined ? parseShard(opts.shard) : null;
      const endpoint = endpointSettings(opts, cmd);
      if (opts.model !== undefined && !retrievers.some((r) => retrieverCapabilities(r).usesModel) && !profiles.some(profileUsesModel)) {
        throw new InputError(
          `--model applies to the embed, hybrid and hybrid-rrf retrievers and the profiles that embed (${profileNames().filter(profileUsesModel).join(', ')}), and none is evaluated`,
        );
      }
      if (opts.out !== undefined) assertReplaceable(resolve(opts.out), 'results folder', isResultsDir, sourcePaths(source));
      // Load with the paths as typed (errors name them so); record them so another machine can find them.
      if (opts.examplesFrom !== undefined && (source.kind !== 'dataset' || source.split === null))
        throw new InputError('--examples-from needs --dataset … --split SPLIT (the cases to score)');
      // An mcpServers configuration: its servers are snapshotted now, and the bundle is kept with the results.
      const snap = await snapshotForEval(source, io.err, opts.quiet === true, {
        ...(opts.server?.length ? { servers: opts.server } : {}),
        ...(opts.partial ? { partial: true } : {}),
      });
      let input = {
        ...loadEvalInput(
          snap?.loadSource ?? (opts.examplesFrom !== undefined && source.kind === 'dataset' ? { ...source, split: null } : source),
          (w) => io.err(`warning: ${w}\n`),
          { ...(opts.reSign ? { reSign: true } : {}), ...(opts.renames !== undefined ? { renames: opts.renames } : {}) },
        ),
        source: portableSource(source),
      };
      if (snap?.missing.length) {
        const w = `--partial: ${snap.missing.length} server${snap.missing.length === 1 ? '' : 's'} of ${source.kind === 'files' ? source.catalog : 'the configuration'} could not be snapshotted and ${snap.missing.length === 1 ? 'is' : 'are'} not in the catalog: ${snap.missing.join(', ')}; cases expecting their tools are scored as misses`;
        io.err(`warning: ${w}\n`);
        input = { ...input, warnings: [w, ...(input.warnings ?? [])] };
      }
      if (opts.roles !== undefined) input = { ...input, roles: readRoleMap(opts.roles, input.catalog) };
      let examples: { from: string; perTool: number; added: number } | undefined;
      if (opts.examplesFrom !== undefined && source.kind === 'dataset') {
        const a = augmentCatalog(input.catalog, input.cases, { from: opts.examplesFrom, perTool: opts.examplesPerTool }, source.split!);
        if (a.added === 0) throw new InputError(`no single-tool case is in split "${opts.examplesFrom}": no example to add`);
        input = { ...input, catalog: a.catalog, cases: a.scored };
        examples = { from: opts.examplesFrom, perTool: opts.examplesPerTool, added: a.added };
      }
      assertEvaluable(input, source);
      const calibration = planCalibration(plan, {
        input: { ...input, source },
        scoredLabel: source.kind === 'dataset' && source.split !== null ? `--split ${source.split}` : 'all cases',
      });
      for (const w of calibration?.warnings ?? []) io.err(`${w}\n`);
      if (calibration && opts.examplesFrom !== undefined && opts.calibrateOn === opts.examplesFrom) {
        io.err(
          `warning: --calibrate-on ${opts.calibrateOn} is also --examples-from ${opts.examplesFrom}: its requests are in the index as examples, so fitted scores (hybrid) are over-confident there; calibrate on other cases for figures you ship\n`,
        );
      }
      const traces =
        opts.traces !== undefined ? { byCase: loadTraces(opts.traces, input.cases, input.catalog), sha256: sha256(readFileSync(opts.traces)) } : undefined;
      // a dataset's name is data: a plain folder name before it names the folder (`../../x` → `x`)
      const out = resolve(opts.out ?? join('reports', safeFolderName(input.name)));
      assertReplaceable(out, 'results folder', isResultsDir, sourcePaths(source));
      // one writer per results folder: a second eval into it stops here (exit 2)
      const release = lockFolder(out, io.err);
      try {
        if (snap) input = { ...input, source: snap.recordedSource(out) };
        const progress = progressReporter(process.stderr, opts.quiet === true);
        // Worker threads load the input themselves: only when it is exactly what the source gives.
        const reproducible = opts.examplesFrom === undefined && opts.roles === undefined;
        if (opts.workers > 1 && !reproducible)
          io.err('note: --workers is ignored with --examples-from or --roles (the threads could not load the same input)\n');
        // an endpoint model: what will be sent is printed (and held to --max-embed-tokens) before the first request, then embedded ahead
        if (endpoint !== undefined) {
          await embedAhead(
            {
              input,
              config: plan.config,
              cases: casesOfShard(input.cases, shard),
              ...(calibration ? { calibration: calibration.set } : {}),
              options: { model: opts.model!, endpoint },
              ...(opts.maxEmbedTokens !== undefined ? { maxTokens: opts.maxEmbedTokens } : {}),
            },
            (line) => io.err(`${line}\n`),
            (done, total) => progress.update('embed', done, total),
          );
        }
        const { run, warnings } = await runPlanned(
          input,
          plan,
          { ...(calibration ? { calibration: calibration.set } : {}), ...(traces ? { traces } : {}), ...(examples ? { examples } : {}) },
          {
            ...(endpoint !== undefined ? { retrieverOptions: { endpoint } } : {}),
            shard,
            workers: opts.workers,
            ...(reproducible ? { workerSource: snap?.loadSource ?? source, ...workerSetting() } : {}),
            progress: (name, done, total) => progress.update(name, done, total),
            indexProgress: (name, done, total) => progress.update(`${name} index`, done, total),
          },
        );
        progress.stop();
        for (const w of warnings) io.err(`warning: ${w}\n`);
        if (shard && run.results.dataset.cases === 0)
          io.err(
            `warning: shard ${shard.index}/${shard.count} holds none of the ${input.cases.length} cases: its figures are n/a; merge the shards for the run's figures\n`,
          );
        writeRunDir(out, run, input.cases, input.catalog, snap?.files);
        snap?.dispose();
        io.out(`${formatRunSummary(run.results)}\nresults: ${displayPath(join(out, 'results.json'))}\n`);
      } finally {
        release();
      }
    });
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

/**
 * How the endpoint model is called (`--embed-*`, `--max-embed-tokens`); undefined when the model is
 * not an endpoint, where those flags, given, are an error.
 */
function endpointSettings(opts: EvalOptions, cmd: Command): EndpointSettings | undefined {
  const given = ['maxEmbedTokens', 'embedBatch', 'embedConcurrency', 'embedTimeout', 'embedRetries'].filter((k) => {
    const source = cmd.getOptionValueSource(k);
    return source !== undefined && source !== 'default';
  });
  if (opts.model === undefined || !isEndpointRef(opts.model)) {
    if (given.length)
      throw new InputError(
        `${given.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} ${given.length === 1 ? 'applies' : 'apply'} to an endpoint model only (--model openai:MODEL or ollama:MODEL)`,
      );
    return undefined;
  }
  return {
    batchSize: opts.embedBatch,
    concurrency: opts.embedConcurrency,
    timeoutMs: Math.round(opts.embedTimeout * 1000),
    retries: opts.embedRetries,
    // every thread of the run counts against one budget
    ...(opts.maxEmbedTokens !== undefined ? { budget: { max: opts.maxEmbedTokens, sent: new SharedArrayBuffer(8) } } : {}),
  };
}

interface EvalOptions {
  maxEmbedTokens?: number;
  embedBatch: number;
  embedConcurrency: number;
  embedTimeout: number;
  embedRetries: number;
  workers: number;
  server?: string[];
  partial?: boolean;
  reSign?: boolean;
  renames?: string;
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
    if (opts.cases !== undefined || opts.format !== undefined || opts.skills !== undefined)
      throw new InputError('--cases, --skills and --format go with --catalog, not --dataset');
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

/** The files and folders an evaluation reads, which its results folder must neither be, be in, nor hold. */
function sourcePaths(source: DatasetSource): string[] {
  if (source.kind === 'files') return [source.catalog, source.cases, ...(source.skills ? [source.skills] : [])];
  try {
    return [resolveDatasetPath(source.ref)];
  } catch {
    return []; // not found: the load says so
  }
}
