/**
 * `backpack generate` and `backpack inspect`: write a seeded dataset; summarise a dataset or catalog.
 */
import { helpList } from './help-text.ts';
import { DEFAULT_SEED } from './run-command.ts';
import { wholeNumber, type Io } from './options.ts';
import { type Command, Option } from 'commander';
import { join, resolve } from 'node:path';
import { assertReplaceable, isBackpackManifest, readRealism, writeDataset } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import type { Realism } from '../catalog/manifest.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { loadCases } from '../catalog/loaders/cases.ts';
import { catalogFormatEntries, catalogFormatNames, loadCatalog } from '../catalog/loaders/registry.ts';
import { loadDataset } from '../catalog/resolve.ts';
import { formatRealism, formatSummary, formatSurface, summarize } from '../catalog/summary.ts';
import { sessionSurface } from '../eval/request-surface.ts';
import { PRESETS } from '../generate/presets.ts';
import { withSkills } from '../eval/input.ts';
import { progressReporter } from './progress.ts';

/** Add `generate` and `inspect` to the program. */
export function registerDatasetCommands(program: Command, io: Io): void {
  program
    .command('generate')
    .description('Write a seeded synthetic dataset (the "monster company": tools, skills, labelled cases) to a folder.')
    .addOption(new Option('--preset <name>', 'size preset').choices(Object.keys(PRESETS)).default('monster'))
    .option('--seed <n>', 'random seed (same seed and version give byte-identical files)', wholeNumber('--seed'), DEFAULT_SEED)
    .option('--out <dir>', 'dataset folder to write (replaced atomically if it holds a dataset); default datasets/<preset>-<seed> in the working folder')
    .option('--tools <n>', 'total tools (core + plugin + MCP), overriding the preset', wholeNumber('--tools'))
    .option('--skills <n>', 'number of skills, overriding the preset', wholeNumber('--skills'))
    .option('--cases <n>', 'number of labelled cases, overriding the preset', wholeNumber('--cases'))
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      `\nPresets:\n${Object.entries(PRESETS)
        .map(
          ([k, p]) =>
            `  ${k.padEnd(8)} ${p.mcpTools.toLocaleString('en-US')} MCP tools on ${p.servers} servers, ${p.plugins} plugins, ${p.coreTools} core tools, ${p.skills.toLocaleString('en-US')} skills, ${p.cases.toLocaleString('en-US')} cases`,
        )
        .join('\n')}\n`,
    )
    .action(async (opts: { preset: string; seed: number; out?: string; tools?: number; skills?: number; cases?: number; quiet?: boolean }) => {
      const out = opts.out ?? join('datasets', `${opts.preset}-${opts.seed}`);
      const dir = resolve(out);
      assertReplaceable(dir, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')));
      // the generator and its vocabularies load here, not when the program starts (`--help` stays quick)
      const { resolveParams } = await import('../generate/index.ts');
      const { generateMeasured } = await import('../eval/realism.ts');
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
        `wrote ${out}: ${c.tools.toLocaleString('en-US')} tools, ${c.skills.toLocaleString('en-US')} skills, ${c.cases.toLocaleString('en-US')} cases ` +
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
    .addOption(new Option('--format <name>', 'catalog format (detected when omitted)').choices(catalogFormatNames()))
    .option('--server <name>', 'server name for a single MCP tools/list file (default: from the file name)')
    .option('--json', 'print JSON instead of text')
    .option(
      '--realism',
      "print only how the requests read: the dataset's realism.json, or for a dataset without one (MetaTool, an import, a cases file) its surface figures measured now, beside real request sets' figures and the generator's windows",
    )
    .addHelpText('after', () =>
      helpList(
        'Catalog formats',
        catalogFormatEntries().map(([k, f]) => [k, f.description] as const),
        16,
      ),
    )
    .action(
      async (
        dataset: string | undefined,
        opts: { catalog?: string; cases?: string; skills?: string; format?: string; server?: string; json?: boolean; realism?: boolean },
      ) => {
        if ((dataset === undefined) === (opts.catalog === undefined)) throw new InputError('give either a dataset (folder or name) or --catalog PATH');
        if ((opts.cases !== undefined || opts.skills !== undefined) && opts.catalog === undefined)
          throw new InputError('--cases and --skills go with --catalog');
        let summary: ReturnType<typeof summarize>;
        if (opts.catalog !== undefined) {
          const catalog = withSkills(
            loadCatalog(opts.catalog, {
              ...(opts.format ? { format: opts.format } : {}),
              ...(opts.server ? { server: opts.server } : {}),
              onWarning: (w) => io.err(`warning: ${w}\n`),
            }),
            opts.skills ?? null,
          );
          const cases = opts.cases !== undefined ? loadCases(opts.cases, catalog) : [];
          if (opts.realism) {
            if (opts.cases === undefined) throw new InputError('--realism measures requests: give --cases FILE with --catalog');
            return await printRealism(opts.catalog, catalog, cases, null, opts.json === true, io);
          }
          summary = summarize(opts.catalog, catalog, cases);
        } else {
          const d = loadDataset(dataset!, { onWarning: (w) => io.err(`warning: ${w}\n`) });
          summary = summarize(d.name, d.catalog, d.cases, d.manifest, readRealism(d.dir));
          if (opts.realism) return await printRealism(d.name, d.catalog, d.cases, summary.realism ?? null, opts.json === true, io);
        }
        io.out(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : `${formatSummary(summary)}\n`);
      },
    );
}

/**
 * `inspect --realism`: the dataset's realism.json when it has the surface figures (generator 3.0
 * on); otherwise the surface and session figures measured now with the same rule, beside the
 * reference. BM25's expansion leak is measured against the generator's own tables, so it is only
 * in a generated dataset's realism.json. The reference (and the generator vocabulary it reads) is
 * imported here, not when the command line starts.
 */
async function printRealism(name: string, catalog: Catalog, cases: readonly Case[], realism: Realism | null, json: boolean, io: Io): Promise<void> {
  const { REALISM_REFERENCE, surfaceOf } = await import('../eval/realism-reference.ts');
  const surface = realism?.surface ?? surfaceOf(catalog, cases);
  const sessions = realism?.sessions ?? sessionSurface(catalog, cases);
  if (json) {
    io.out(`${JSON.stringify({ name, ...(realism ? { realism } : {}), surface, sessions, reference: REALISM_REFERENCE }, null, 2)}\n`);
    return;
  }
  const lines = [`${name}`];
  if (realism) lines.push('', ...formatRealism(realism));
  if (!realism?.surface) lines.push('', ...formatSurface(surface, sessions.sessions ? sessions : null, REALISM_REFERENCE));
  io.out(`${lines.join('\n')}\n`);
}
