/**
 * Backpack's programmatic API (`import { evaluate } from 'backpack-eval'`): the same steps as the
 * command line, without it. Load a catalog and its cases (or a dataset), evaluate retrievers and
 * profiles on them, write or read a results folder, write a report.
 *
 * ```ts
 * import { evaluate, writeRunDir, writeReport } from 'backpack-eval';
 * const { run, input } = await evaluate({ catalog: 'tools.json', cases: 'cases.jsonl', retrievers: ['bm25'] });
 * console.log(run.results.retrievers.bm25?.metrics.overall);
 * writeRunDir('results', run, input.cases, input.catalog);
 * writeReport(run, 'results/report', ['html', 'md'], { cases: input.cases, catalog: input.catalog });
 * ```
 *
 * Everything here is also what the command uses, so the file formats (docs/dataset-format.md,
 * docs/results-format.md) are the same. Bad input throws an {@link InputError}.
 */
import { loadEvalInput, portableRef, type EvalInput } from './eval/input.ts';
import type { DatasetSource } from './eval/results.ts';
import { planCalibration, planEvaluation, runPlanned } from './eval/pipeline.ts';
import type { EvalRun, RunOptions } from './eval/run.ts';
import { parseProfileList } from './profiles/registry.ts';
import { parseRetrieverList } from './retrievers/registry.ts';
import { InputError } from './util/errors.ts';

export { VERSION, CACHE_ROOT } from './util/version.ts';
export { InputError, isInputError } from './util/errors.ts';
export type { Case, Catalog, Tool } from './catalog/types.ts';

/** Catalogs: `loadCatalog(path, { format })` reads any supported format (detected when not given). */
export { loadCatalog, detectCatalogFormat, CATALOG_FORMATS, type CatalogFormatName } from './catalog/loaders/registry.ts';
/** Labelled cases (JSONL) for a catalog. */
export { loadCases } from './catalog/loaders/cases.ts';
/** Datasets: a folder, or a named one (`datasets/<name>` in the working directory, or the bundled `metatool`). */
export { loadDataset, namedDatasets, resolveDatasetPath } from './catalog/resolve.ts';
export type { LoadedDataset } from './catalog/dataset-files.ts';
export { writeDataset } from './catalog/dataset-files.ts';
/** The synthetic catalog generator (`backpack generate`). */
export { generate, resolveParams } from './generate/index.ts';
export { PRESETS } from './generate/presets.ts';
/** Agent transcripts and API logs to a dataset (`backpack import`: write it with `writeDataset`), redacted. */
export { importTranscripts, type ImportOptions, type ImportResult } from './importers/import.ts';
/** What agents call, and what listing the tools never called costs (`backpack audit`). */
export { audit, auditTools, type Audit } from './eval/audit.ts';

/** Evaluation: the input of a source, the configuration, the run. */
export { loadEvalInput, type EvalInput } from './eval/input.ts';
export { makeConfig, runEval, type EvalRun, type RunOptions } from './eval/run.ts';
export type { DatasetSource, EvalConfig, FloorSetting, QueryDetail, Results } from './eval/results.ts';
/** Results folders (`results.json`, details, TREC files): write one, read one back. */
export { readRunDir, writeRunDir, isResultsDir } from './eval/files.ts';
/** Reports: HTML, PNG charts, Markdown, JUnit. */
export { writeReport, REPORT_FORMATS, type ReportFormat, type WrittenReport } from './report/write.ts';
/** The names of the registered retrievers and profiles, with one-line descriptions. */
export { retrieverEntries } from './retrievers/registry.ts';
export { profileEntries } from './profiles/registry.ts';

/** What {@link evaluate} runs: a dataset, or a catalog file with a cases file. */
export interface EvaluateOptions {
  /** A dataset folder or a named dataset (`metatool`). Give this, or `catalog` and `cases`. */
  dataset?: string;
  /** With `dataset`: evaluate only the cases of this split (`test`, `train`, …). */
  split?: string;
  /** A catalog file in any supported format. */
  catalog?: string;
  /** Its labelled cases (JSONL). */
  cases?: string;
  /** The catalog's format, when detection should not decide. */
  format?: string;
  /** Retriever names (`retrieverEntries()`); default `['bm25']`. */
  retrievers?: string[];
  /** Harness profile names (`profileEntries()`); default none. */
  profiles?: string[];
  /** Cut-offs for recall@k and friends; default 1, 3, 5, 10. */
  ks?: number[];
  /**
   * A floor score for every strategy whose design has a floor (every retriever, and the profiles
   * that declare one; a harness profile only when named), or per strategy name; `null` for none.
   * Default: none, but a profile's documented default floor (semantic-retrieval's) — as
   * `backpack eval` without `--floor`.
   */
  floor?: number | null | Record<string, number | null>;
  /**
   * Calibration cases, never scored: a split of the evaluated cases (`train`) or a cases file over
   * the same catalog, as `backpack eval --calibrate-on`; the hybrid fusions fit their score scale on
   * them and a profile's documented default floor is calibrated on them.
   */
  calibrateOn?: string;
  /** Passed to `runEval` (threads, shard, progress). */
  run?: RunOptions;
}

/**
 * Load the input and evaluate it, as `backpack eval` does with the same choices (no calibration,
 * no examples, no traces). Returns the run (`run.results` is what `results.json` holds) and the
 * input, for {@link writeRunDir} and {@link writeReport}.
 */
export async function evaluate(options: EvaluateOptions): Promise<{ run: EvalRun; input: EvalInput }> {
  const source = sourceOf(options);
  const retrievers = parseRetrieverList((options.retrievers ?? ['bm25']).join(','));
  const profiles = options.profiles?.length ? parseProfileList(options.profiles.join(',')) : [];
  const ks = options.ks ?? [1, 3, 5, 10];
  if (!ks.length || ks.some((k) => !Number.isInteger(k) || k < 1)) throw new InputError(`ks must be whole numbers ≥ 1 (got ${JSON.stringify(ks)})`);
  const { calibration: given, ...run } = options.run ?? {};
  const calibrateOn = options.calibrateOn ?? given;
  // the command line's pipeline (eval/pipeline.ts): floors resolved once, then calibration, then the run
  const plan = planEvaluation({
    retrievers,
    profiles,
    ks,
    floor: options.floor,
    ...(calibrateOn !== undefined ? { calibrateOn } : {}),
  });
  const input = loadEvalInput(source);
  const calibration = planCalibration(plan, { input, scoredLabel: source.kind === 'dataset' && source.split !== null ? `split ${source.split}` : 'all cases' });
  const { run: result } = await runPlanned(input, plan, calibration ? { calibration: calibration.set } : {}, run);
  return { run: result, input };
}

function sourceOf(o: EvaluateOptions): DatasetSource {
  if (o.dataset !== undefined) {
    if (o.catalog !== undefined || o.cases !== undefined) throw new InputError('give a dataset, or a catalog and its cases, not both');
    return { kind: 'dataset', ref: portableRef(o.dataset), split: o.split ?? null };
  }
  if (o.catalog === undefined || o.cases === undefined) throw new InputError('give a dataset, or a catalog and its cases');
  return { kind: 'files', catalog: o.catalog, cases: o.cases, format: o.format ?? null };
}
