/**
 * The `backpack` command. Thin: it parses arguments, calls the modules, prints, and maps errors to
 * exit codes (0 ok, 1 Backpack failed, 2 bad input).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { readManifest, verifyFiles, writeDataset } from '../catalog/dataset-files.ts';
import { InputError, isInputError } from '../catalog/errors.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { CATALOG_FORMATS, loadCatalog } from '../catalog/loaders/registry.ts';
import { DATASETS_DIR, loadDataset } from '../catalog/resolve.ts';
import { formatSummary, summarize } from '../catalog/summary.ts';
import { generate, GenerateParamsError, GENERATOR, resolveParams } from '../generate/index.ts';
import { PRESETS } from '../generate/presets.ts';
import { progressReporter } from './progress.ts';
import { VERSION } from './version.ts';

export const EXIT = { ok: 0, failed: 1, badInput: 2 } as const;

function wholeNumber(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };
}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const defaultIo: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) };

/** Where the main job keeps the built-in default dataset. */
export const DEFAULT_SEED = 7;
export const DEFAULT_DATASET_DIR = join(DATASETS_DIR, `monster-${DEFAULT_SEED}`);

export function buildProgram(io: Io): Command {
  const program = new Command();
  program
    .name('backpack')
    .description('Offline evaluation and benchmarking of tool and skill retrieval for AI agent harnesses.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();

  program
    .command('run')
    .description('The main job on the built-in default: generate the monster company (seed 7) unless it is already there, then print its summary.')
    .option('--seed <n>', 'seed of the monster company', wholeNumber('--seed'), DEFAULT_SEED)
    .option('--out <dir>', 'dataset folder (default: datasets/monster-<seed>)')
    .option('--quiet', 'no progress output')
    .action((opts: { seed: number; out?: string; quiet?: boolean }) => {
      const dir = resolve(opts.out ?? join(DATASETS_DIR, `monster-${opts.seed}`));
      const params = resolveParams('monster', opts.seed);
      const t0 = Date.now();
      if (reusable(dir, params)) {
        io.err(`reusing ${relative(process.cwd(), dir) || dir} (same generator ${GENERATOR.version}, seed and parameters; files verified)\n`);
      } else {
        io.err(`generating the monster company (seed ${opts.seed}) into ${relative(process.cwd(), dir) || dir}\n`);
        const progress = progressReporter(process.stderr, opts.quiet === true);
        const g = generate(params, (stage, done, total) => progress.update(stage, done, total));
        writeDataset(dir, g.dataset, g.manifest, (done, total) => progress.update('writing', done, total));
        progress.stop();
        io.err(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      }
      const d = loadDataset(dir);
      io.out(`${formatSummary(summarize(d.name, d.catalog, d.cases, d.manifest))}\n`);
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
        .map(([k, p]) => `  ${k.padEnd(8)} ${p.mcpTools.toLocaleString('en-US')} MCP tools on ${p.servers} servers, ${p.plugins} plugins, ${p.coreTools} core tools, ${p.skills} skills, ${p.cases} cases`)
        .join('\n')}\n`,
    )
    .action((opts: { preset: string; seed: number; out: string; tools?: number; skills?: number; cases?: number; quiet?: boolean }) => {
      const dir = resolve(opts.out);
      if (existsSync(dir) && !existsSync(join(dir, 'manifest.json')) && readdirSync(dir).length > 0) {
        throw new InputError('folder exists and is not a Backpack dataset; refusing to replace it', { file: opts.out });
      }
      const params = resolveParams(opts.preset, opts.seed, {
        ...(opts.tools !== undefined ? { tools: opts.tools } : {}),
        ...(opts.skills !== undefined ? { skills: opts.skills } : {}),
        ...(opts.cases !== undefined ? { cases: opts.cases } : {}),
      });
      const t0 = Date.now();
      const progress = progressReporter(process.stderr, opts.quiet === true);
      const g = generate(params, (stage, done, total) => progress.update(stage, done, total));
      const manifest = writeDataset(dir, g.dataset, g.manifest, (done, total) => progress.update('writing', done, total));
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
    .addOption(new Option('--format <name>', 'catalog format (detected when omitted)').choices(Object.keys(CATALOG_FORMATS)))
    .option('--server <name>', 'server name for a single MCP tools/list file (default: from the file name)')
    .option('--json', 'print JSON instead of text')
    .addHelpText('after', `\nCatalog formats:\n${Object.entries(CATALOG_FORMATS).map(([k, f]) => `  ${k.padEnd(16)} ${f.description}`).join('\n')}\n`)
    .action((dataset: string | undefined, opts: { catalog?: string; cases?: string; format?: string; server?: string; json?: boolean }) => {
      if ((dataset === undefined) === (opts.catalog === undefined)) throw new InputError('give either a dataset (folder or name) or --catalog PATH');
      if (opts.cases !== undefined && opts.catalog === undefined) throw new InputError('--cases goes with --catalog');
      let summary;
      if (opts.catalog !== undefined) {
        const catalog = loadCatalog(opts.catalog, { ...(opts.format ? { format: opts.format } : {}), ...(opts.server ? { server: opts.server } : {}) });
        const cases = opts.cases !== undefined ? loadCases(opts.cases, catalog) : [];
        summary = summarize(opts.catalog, catalog, cases);
      } else {
        const d = loadDataset(dataset!);
        summary = summarize(d.name, d.catalog, d.cases, d.manifest);
      }
      io.out(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : `${formatSummary(summary)}\n`);
    });

  return program;
}

/** True if `dir` holds an intact dataset made by this generator version with these parameters. */
function reusable(dir: string, params: ReturnType<typeof resolveParams>): boolean {
  if (!existsSync(join(dir, 'manifest.json'))) return false;
  try {
    const m = readManifest(dir);
    if (m.generator?.version !== GENERATOR.version || JSON.stringify(m.params) !== JSON.stringify(params)) return false;
    verifyFiles(dir, m);
    return true;
  } catch {
    return false;
  }
}

/** Run the command line; returns the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const program = buildProgram(io);
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
    if (err instanceof GenerateParamsError) {
      io.err(`error: ${err.message}\n`);
      return EXIT.badInput;
    }
    io.err(`backpack failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.failed;
  }
}
