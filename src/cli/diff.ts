/**
 * `backpack diff`: the registry diff as a command. Registered on the program by `main.ts` with
 * `registerDiffCommand(program, io)`. Exit codes: 0 nothing moved beyond the threshold, 100 a
 * review is required (`ReviewRequired`, thrown after the report is written), 2 bad input, 1
 * Backpack failed.
 */
import { helpList } from './help-text.ts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isDatasetDir, type ToolLineMemo } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { isDirectory } from '../catalog/loaders/common.ts';
import { isMetaToolDir } from '../catalog/loaders/metatool.ts';
import { catalogFormatNames, loadCatalog } from '../catalog/loaders/registry.ts';
import { loadDataset, namedDatasetDir } from '../catalog/resolve.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { DEFAULT_DIFF_K, DEFAULT_DIFF_RETRIEVER, DEFAULT_THRESHOLD, diffCatalogs, diffJson, type DiffSide } from '../diff/diff.ts';
import { ReviewRequired } from '../diff/errors.ts';
import { formatDiffMarkdown, formatDiffText, verdict } from '../diff/format.ts';
import { DEFAULT_SIMILARITY } from '../diff/near-duplicates.ts';
import { createRetriever, retrieverCapabilities, retrieverEntries, retrieverNames } from '../retrievers/registry.ts';
import { isConfigCatalog, snapshotConfigFile } from '../snapshot/for-catalog.ts';
import { progressReporter } from './progress.ts';
import { makeDirs, writeFileNamed } from '../util/atomic-write.ts';

export interface DiffIo {
  out(s: string): void;
  err(s: string): void;
}

interface DiffCliOptions {
  old: string;
  new: string;
  cases?: string;
  renamesOut?: string;
  format?: string;
  retriever: string;
  model?: string;
  k: number;
  threshold: number;
  similarity: number;
  json?: boolean;
  out?: string;
  cache: boolean;
  timings?: boolean;
  quiet?: boolean;
  timeout: number;
}

/** True if `ref` names a dataset (a dataset or MetaTool folder, or a named dataset: under `datasets/`, or bundled) rather than a catalog file. */
export function isDatasetRef(ref: string): boolean {
  if (isDirectory(ref)) return isDatasetDir(ref) || isMetaToolDir(ref);
  return !existsSync(ref) && namedDatasetDir(ref) !== null;
}

/**
 * One side of the diff: a dataset (with its cases and role map) or a catalog in any supported
 * format. `toolLines`: shared by both sides, so the second dataset parses only the corpus lines
 * the first did not have.
 */
export function loadDiffSide(
  ref: string,
  format?: string,
  toolLines?: ToolLineMemo,
  onWarning?: (warning: string) => void,
): { side: DiffSide; cases?: Case[] } {
  if (format === undefined && isDatasetRef(ref)) {
    const d = loadDataset(ref, toolLines ? { toolLines } : {});
    // A manifest that matched its files vouches for the catalog hash (readDataset checked it).
    const sha = d.manifest !== null ? d.manifest.catalogSha256 : undefined;
    return {
      side: { label: ref, catalog: d.catalog, ...(sha !== undefined ? { catalogSha256: sha } : {}), ...(d.roles ? { roles: d.roles } : {}) },
      cases: d.cases,
    };
  }
  return { side: { label: ref, catalog: loadCatalog(ref, { ...(format !== undefined ? { format } : {}), ...(onWarning ? { onWarning } : {}) }) } };
}

/**
 * `loadDiffSide`, and an `mcpServers` configuration too: its servers are snapshotted first (all of
 * them, or the diff stops with exit 1), so `--new .mcp.json` compares against what the servers
 * list today.
 */
export async function loadDiffSideLive(
  ref: string,
  format: string | undefined,
  toolLines: ToolLineMemo,
  err: (s: string) => void,
  live: { timeoutMs?: number; quiet?: boolean } = {},
  onWarning?: (warning: string) => void,
): Promise<{ side: DiffSide; cases?: Case[] }> {
  if (!(format === undefined && isDatasetRef(ref)) && isConfigCatalog(ref, format)) {
    const { catalog } = await snapshotConfigFile(ref, err, live);
    return { side: { label: ref, catalog } };
  }
  return loadDiffSide(ref, format, toolLines, onWarning);
}

/** Both catalogs' tools and skills (the new definition of a tool in both), to check cases against. */
function unionCatalog(a: Catalog, b: Catalog): Catalog {
  const ids = new Set(b.tools.map((t) => t.id));
  const skills = new Set(b.skills.map((s) => s.name));
  return {
    tools: [...b.tools, ...a.tools.filter((t) => !ids.has(t.id))],
    skills: [...b.skills, ...a.skills.filter((s) => !skills.has(s.name))],
    servers: b.servers,
    plugins: b.plugins,
  };
}

function wholeNumber(flag: string, min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`${flag} must be a whole number ≥ ${min}`);
    return Number(value);
  };
}

function seconds(value: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x <= 0) throw new InvalidArgumentError('--timeout must be a number of seconds > 0');
  return x;
}

function fraction(flag: string) {
  return (value: string): number => {
    const x = Number(value);
    if (value.trim() === '' || !Number.isFinite(x) || x <= 0 || x > 1) throw new InvalidArgumentError(`${flag} must be a number in (0, 1]`);
    return x;
  };
}

/** `--retriever`'s parser: a registered retriever name (the "unknown retriever" InputError otherwise), kept as given. */
function retrieverName(value: string): string {
  if (!retrieverNames().includes(value)) createRetriever(value);
  return value;
}

export function registerDiffCommand(program: Command, io: DiffIo): Command {
  return program
    .command('diff')
    .description(
      'Registry diff: what changed between two catalogs (by content hash), which cases the change moves and who took whose top-1, near-duplicate tools in the new catalog with a "say what each is not for" fix. Exit 100 when an existing tool loses top-1 on --threshold cases or more (a review is required).',
    )
    .requiredOption(
      '--old <path|name>',
      'the catalog before: a dataset folder or name, a catalog in any supported format, or an mcpServers configuration (its servers are snapshotted)',
    )
    .requiredOption('--new <path|name>', 'the catalog after (same forms)')
    .option('--cases <file>', 'labelled cases (CSV or JSONL); default: the cases of --new (or --old) when it is a dataset')
    .addOption(new Option('--format <name>', 'read both --old and --new as this catalog format (detected when omitted)').choices(catalogFormatNames()))
    .option('--retriever <name>', 'retriever to rank with', retrieverName, DEFAULT_DIFF_RETRIEVER)
    .option('--model <id|dir>', 'embedding model for embed and hybrid (default: the offline GloVe encoder)')
    .option('--k <n>', 'cut-off of the top-k compared', wholeNumber('--k', 1), DEFAULT_DIFF_K)
    .option(
      '--threshold <n>',
      'cases an existing tool may lose top-1 on before a review is required (exit 100)',
      wholeNumber('--threshold', 1),
      DEFAULT_THRESHOLD,
    )
    .option('--similarity <x>', 'near-duplicate threshold: Jaccard of content-word sets', fraction('--similarity'), DEFAULT_SIMILARITY)
    .option('--json', 'print the report as JSON (deterministic: same inputs, same bytes)')
    .option('--timings', 'with --json or --out: add timings and index counters (vary run to run)')
    .option('--out <dir>', 'also write diff.json and diff.md (Markdown, for a pull request comment) into this folder')
    .option(
      '--renames-out <file>',
      'write the renames diff detected (a removed and an added tool on the same server, same input schema, close description) as a JSON object old id → new id, for eval --renames (an empty object when none)',
    )
    .option(
      '--no-cache',
      "do not read or write the rankings cache (rankings/ in Backpack's cache folder) or the base catalog's near-duplicate pairs (rankings/near-duplicates/)",
    )
    .option('--quiet', 'no progress output')
    .option('--timeout <seconds>', 'for an mcpServers configuration (--old or --new): give up on a server after this long', seconds, 30)
    .addHelpText(
      'after',
      () =>
        `${helpList(
          'Retrievers',
          retrieverEntries().map(([n, f]) => [n, f.description] as const),
          18,
        )}\nSee docs/diff.md.\n`,
    )
    .action(async (opts: DiffCliOptions) => {
      if (!retrieverNames().includes(opts.retriever)) createRetriever(opts.retriever); // the "unknown retriever" InputError
      if (opts.model !== undefined && !retrieverCapabilities(opts.retriever).usesModel)
        throw new InputError('--model applies to the embed, hybrid and hybrid-rrf retrievers');
      const t0 = performance.now();
      const toolLines: ToolLineMemo = new Map();
      const live = { timeoutMs: opts.timeout * 1000, quiet: opts.quiet === true || opts.json === true };
      // A catalog loader's warnings (skipped built-in tools, older JSON Schema forms): once per side, naming it.
      const warn = (flag: string, ref: string) => (w: string) => io.err(`warning: ${flag} ${ref}: ${w}\n`);
      const before = await loadDiffSideLive(opts.old, opts.format, toolLines, io.err, live, warn('--old', opts.old));
      const after = await loadDiffSideLive(opts.new, opts.format, toolLines, io.err, live, warn('--new', opts.new));
      toolLines.clear();
      let cases: Case[];
      let casesFrom: string;
      if (opts.cases !== undefined) {
        cases = loadCases(opts.cases, unionCatalog(before.side.catalog, after.side.catalog));
        casesFrom = opts.cases;
      } else if (after.cases) {
        cases = after.cases;
        casesFrom = `the cases of ${opts.new}`;
      } else if (before.cases) {
        cases = before.cases;
        casesFrom = `the cases of ${opts.old}`;
      } else throw new InputError('give --cases FILE (labelled cases, CSV or JSONL): neither --new nor --old is a dataset with cases');
      if (!cases.some((c) => c.expectedTools !== undefined))
        throw new InputError('no case is labelled for tools: nothing to compare', { file: opts.cases ?? opts.new });
      const loadMs = performance.now() - t0;
      const progress = progressReporter(process.stderr, opts.quiet === true || opts.json === true);
      let result: Awaited<ReturnType<typeof diffCatalogs>>;
      try {
        result = await diffCatalogs(
          { old: before.side, new: after.side, cases, casesFrom },
          {
            retriever: opts.retriever,
            k: opts.k,
            threshold: opts.threshold,
            similarity: opts.similarity,
            ...(opts.model !== undefined ? { retrieverOptions: { model: opts.model } } : {}),
            ...(opts.cache ? {} : { cacheDir: null }),
            progress: (stage, done, total) => progress.update(stage, done, total),
          },
        );
      } finally {
        progress.stop();
      }
      const { report } = result;
      const timings = { ...result.timings, loadMs };
      if (opts.out !== undefined) {
        const dir = resolve(opts.out);
        makeDirs(dir);
        writeFileNamed(join(dir, 'diff.json'), diffJson(report, opts.timings ? timings : undefined));
        writeFileNamed(join(dir, 'diff.md'), formatDiffMarkdown(report));
      }
      if (opts.renamesOut !== undefined) {
        const file = resolve(opts.renamesOut);
        makeDirs(dirname(file));
        writeFileNamed(file, `${JSON.stringify(Object.fromEntries(report.changes.renamed.map((x) => [x.from, x.to])), null, 2)}\n`);
      }
      if (opts.json) io.out(diffJson(report, opts.timings ? timings : undefined));
      else io.out(formatDiffText(report, timings));
      if (opts.out !== undefined && !opts.json) io.out(`wrote ${join(opts.out, 'diff.json')} and ${join(opts.out, 'diff.md')}\n`);
      if (report.review.required) throw new ReviewRequired(verdict(report));
    });
}
