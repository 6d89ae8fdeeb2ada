/**
 * `backpack import` (agent transcripts and API logs to a dataset folder) and `backpack audit`
 * (what agents call, and what listing the tools they never call costs). docs/import.md.
 */
import { helpList, helpWidth, wrapText } from './help-text.ts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { basename, join, resolve } from 'node:path';
import { assertReplaceable, caseSplit, isBackpackManifest, writeDataset } from '../catalog/dataset-files.ts';
import { catalogFormatNames, loadCatalog } from '../catalog/loaders/registry.ts';
import { loadDataset } from '../catalog/resolve.ts';
import type { Catalog } from '../catalog/types.ts';
import { type Audit, audit, auditTools, neverCalledLine, standInNote } from '../eval/audit.ts';
import { type GoldRule, goldRuleText, importTranscripts } from '../importers/import.ts';
import { transcriptFormats } from '../importers/registry.ts';
import { isConfigCatalog, snapshotConfigFile } from '../snapshot/for-catalog.ts';
import { InputError } from '../util/errors.ts';
import { compilePattern, REDACTION_KINDS } from '../util/redact.ts';
import { DEFAULT_SEED } from './run-command.ts';
import { displayPath, type Io, wholeNumber } from './options.ts';
import { progressReporter } from './progress.ts';

/** `--tools all|mcp|REGEX`. */
export function parseGoldRule(text: string): GoldRule {
  const t = text.trim();
  if (t === 'all') return { kind: 'all' };
  if (t === 'mcp') return { kind: 'mcp' };
  try {
    return { kind: 'regex', pattern: compilePattern(t), source: t };
  } catch (err) {
    throw new InputError(`--tools: "${t}" is neither all, mcp nor a usable regular expression (${(err as Error).message})`);
  }
}

/** `--since` / `--until`: an ISO date or date-time, in UTC unless it names its zone (a date alone is midnight UTC), as an ISO time. */
function parseTime(flag: string): (v: string) => string {
  return (v) => {
    const t = v.trim().replace(' ', 'T');
    const utc = /^\d{4}-\d\d-\d\dT[\d:.]+$/.test(t) ? `${t}Z` : t;
    const d = new Date(utc);
    if (!/^\d{4}-\d\d-\d\d(?:T[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?$/.test(t) || Number.isNaN(d.getTime()))
      throw new InvalidArgumentError(`${flag} must be a date or date-time such as 2026-11-01 or 2026-11-01T09:00:00Z (got "${v}")`);
    return d.toISOString();
  };
}

function share(v: string): number {
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x) || x <= 0 || x >= 1)
    throw new InvalidArgumentError(`--test-share must be a number between 0 and 1, exclusive (got "${v}")`);
  return x;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

interface ImportOptions {
  out: string;
  from?: string;
  tools: string;
  catalog?: string;
  format?: string;
  server?: string;
  since?: string;
  until?: string;
  sample?: number;
  seed: number;
  testShare: number;
  redact?: string[];
  name?: string;
  quiet?: boolean;
}

/** Add `import` and `audit` to the program. */
export function registerImportCommands(program: Command, io: Io): void {
  program
    .command('import')
    .description(
      'Turn agent transcripts and API logs into a dataset folder: each request a person typed is a case, its gold the tools the agent then called; sessions keep their order. Everything is redacted before it is written; tool arguments and results are never kept.',
    )
    .argument('<sources...>', 'transcript files or folders (read recursively), e.g. ~/.claude/projects ~/.codex/sessions')
    .requiredOption('--out <dir>', 'the dataset folder to write (replaced atomically if it holds a dataset)')
    .addOption(new Option('--from <format>', 'read every file in this format (default: detected per file)').choices(transcriptFormats.names()))
    .option(
      '--tools <all|mcp|regex>',
      'which calls are gold: every call, MCP tools only (when the core tools are always listed), or the tool ids a regular expression matches',
      'all',
    )
    .option(
      '--catalog <path>',
      'the tools the agents had: a catalog in any format Backpack reads, or an mcpServers configuration (snapshotted now); added to the tools the logs advertise and the harness core tools',
    )
    .addOption(new Option('--format <name>', 'with --catalog: its format (detected when omitted)').choices(catalogFormatNames()))
    .option('--server <name>', 'with --catalog: the server name of a single MCP tools/list file')
    .option(
      '--since <time>',
      'only requests made at or after this time (ISO date or date-time, UTC unless it names its zone; requests with no time are then left out)',
      parseTime('--since'),
    )
    .option('--until <time>', 'only requests made before this time', parseTime('--until'))
    .option('--sample <n>', 'at most n cases: whole sessions drawn at random (with --seed), the last one cut', wholeNumber('--sample'))
    .option('--seed <n>', 'seed of --sample and of the train/test split by session', wholeNumber('--seed'), DEFAULT_SEED)
    .option('--test-share <x>', 'share of the sessions in the test split (the rest are train)', share, 0.5)
    .option(
      '--redact <regex>',
      'another pattern to redact (repeatable), beside keys, tokens, e-mail addresses, home-folder user names and URL credentials',
      collect,
    )
    .option('--name <name>', "the dataset's name (default: the folder's name)")
    .option('--quiet', 'no progress output')
    .addHelpText(
      'after',
      () =>
        `${helpList(
          'Formats (detected per file)',
          transcriptFormats.entries().map(([k, f]) => [k, f.description] as const),
          12,
        )}\n${wrapText(`Redacted before anything is written: ${REDACTION_KINDS.filter((k) => k !== 'custom').join(', ')}, and each --redact pattern.`, helpWidth()).join('\n')}\n`,
    )
    .action(async (sources: string[], opts: ImportOptions) => {
      const out = resolve(opts.out);
      // never over the transcripts it reads (nor a folder holding them)
      assertReplaceable(out, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')), [...sources, ...(opts.catalog ? [opts.catalog] : [])]);
      const gold = parseGoldRule(opts.tools);
      const redact = (opts.redact ?? []).map((p) => {
        try {
          return compilePattern(p);
        } catch (err) {
          throw new InputError(`--redact: "${p}": ${(err as Error).message}`);
        }
      });
      if ((opts.format !== undefined || opts.server !== undefined) && opts.catalog === undefined)
        throw new InputError('--format and --server go with --catalog');
      const since = opts.since !== undefined ? new Date(opts.since) : undefined;
      const until = opts.until !== undefined ? new Date(opts.until) : undefined;
      if (since && until && since.getTime() >= until.getTime())
        throw new InputError(`--since ${opts.since} is not before --until ${opts.until}: no request can be in between`);
      if (opts.sample === 0) throw new InputError('--sample 0 keeps no case: give at least 1');
      const warn = (m: string) => io.err(`warning: ${m}\n`);
      let catalog: Catalog | undefined;
      if (opts.catalog !== undefined) {
        catalog = isConfigCatalog(opts.catalog, opts.format)
          ? (await snapshotConfigFile(opts.catalog, io.err, { quiet: opts.quiet === true })).catalog
          : loadCatalog(opts.catalog, { ...(opts.format ? { format: opts.format } : {}), ...(opts.server ? { server: opts.server } : {}), onWarning: warn });
      }
      const t0 = Date.now();
      const progress = progressReporter(process.stderr, opts.quiet === true);
      const result = importTranscripts(sources, {
        ...(opts.from !== undefined ? { from: opts.from } : {}),
        gold,
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        ...(opts.sample !== undefined ? { sample: opts.sample } : {}),
        seed: opts.seed,
        testShare: opts.testShare,
        redact,
        ...(catalog ? { catalog } : {}),
        name: opts.name ?? basename(out),
        onWarning: (m) => {
          progress.stop();
          warn(m);
        },
        onProgress: (stage, done, total) => progress.update(stage, done, total),
      });
      const manifest = writeDataset(out, result.dataset, result.manifest, (done, total) => progress.update('writing', done, total));
      progress.stop();
      const rec = manifest.import!;
      const c = manifest.counts;
      const redactions = Object.entries(rec.redactions).filter(([, n]) => n > 0);
      io.out(
        `imported ${plural(c.cases, 'typed request')} of ${plural(c.sessions, 'session')} (${c.noToolCases.toLocaleString('en-US')} with no ${opts.tools === 'all' ? '' : 'gold '}tool call) from ${Object.entries(
          rec.formats,
        )
          .map(([n, f]) => `${f.files} ${n} ${f.files === 1 ? 'file' : 'files'}`)
          .join(', ')} into ${displayPath(out)} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n` +
          `  splits: ${Object.entries(manifest.splits)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')} (by session)\n` +
          `  tools: ${c.tools.toLocaleString('en-US')} (${rec.tools.fromCatalog} from --catalog, ${rec.tools.advertised} advertised in the logs, ${rec.tools.core} harness core tools, ${rec.tools.idOnly} known by id only); gold: ${goldRuleText(gold)}; ${rec.calls.toLocaleString('en-US')} calls\n` +
          `  redacted: ${redactions.length ? redactions.map(([k, n]) => `${k} ${n}`).join(', ') : 'nothing found to redact'}\n` +
          `next: backpack run --dataset ${displayPath(out)}   (or backpack eval --dataset ${displayPath(out)} …; backpack audit --dataset ${displayPath(out)})\n`,
      );
    });

  program
    .command('audit')
    .description(
      'What agents really call, and what listing every tool costs: per tool and per server, calls, sessions, share of requests and schema tokens (o200k); the tools never called and what dropping them saves per request.',
    )
    .requiredOption('--dataset <dir|name>', 'a dataset folder (e.g. one backpack import wrote) or a name under datasets/')
    .option('--split <name>', 'only the cases of this split')
    .option('--top <n>', 'tools and servers listed in the text output', wholeNumber('--top'), 20)
    .option('--json', 'print JSON: every tool as an object with id, calls, …')
    .action((opts: { dataset: string; split?: string; top: number; json?: boolean }) => {
      const d = loadDataset(opts.dataset, { onWarning: (w) => io.err(`warning: ${w}\n`) });
      const cases = opts.split !== undefined ? d.cases.filter((c) => caseSplit(c) === opts.split) : d.cases;
      if (!cases.length) throw new InputError(opts.split !== undefined ? `no case is in split "${opts.split}"` : 'the dataset has no case', { file: d.dir });
      const a = audit(cases, auditTools(d.catalog));
      if (opts.json) io.out(`${JSON.stringify({ dataset: d.name, ...(opts.split !== undefined ? { split: opts.split } : {}), ...a }, null, 2)}\n`);
      else io.out(`${formatAudit(a, d.name, opts.top)}\n`);
    });
}

const int = (n: number): string => n.toLocaleString('en-US');
const plural = (n: number, what: string): string => `${int(n)} ${what}${n === 1 ? '' : 's'}`;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const tok = (n: number | null): string => (n === null ? 'n/a' : int(n));

/** The audit as text: totals, the most called tools, the servers, the never-called line. */
export function formatAudit(a: Audit, name: string, top: number): string {
  const basis = a.basis === 'calls' ? 'calls the transcripts record' : 'gold tools (the dataset records no calls: each gold tool of a case counts as one call)';
  const lines = [
    `audit of ${name}: ${int(a.totals.requests)} requests in ${int(a.totals.sessions)} sessions, ${int(a.totals.calls)} calls (${basis})`,
    `${int(a.totals.calledTools)} of ${int(a.totals.tools)} tools called; listing every tool eagerly costs ${int(a.totals.eagerTokens)} tokens a request (o200k, Anthropic tool format)${a.totals.unknownTokenTools ? `; ${a.totals.unknownTokenTools} known by id only (tokens n/a)` : ''}`,
    neverCalledLine(a),
    ...(standInNote(a) ? [`note: ${standInNote(a)}`] : []),
    '',
    `tools, most called first (top ${Math.min(top, a.tools.length)} of ${a.tools.length}):`,
    `  ${'calls'.padStart(7)} ${'requests'.padStart(9)} ${'sessions'.padStart(8)} ${'tokens'.padStart(7)} ${'tok/use'.padStart(8)}  tool`,
    ...a.tools
      .slice(0, top)
      .map(
        (u) =>
          `  ${int(u.calls).padStart(7)} ${`${pct(u.requestShare)}`.padStart(9)} ${int(u.sessions).padStart(8)} ${tok(u.schemaTokens).padStart(7)} ${tok(u.tokensPerUse).padStart(8)}  ${u.id}`,
      ),
    '',
    `servers and namespaces (top ${Math.min(top, a.namespaces.length)} of ${a.namespaces.length}):`,
    `  ${'calls'.padStart(7)} ${'requests'.padStart(9)} ${'called'.padStart(9)} ${'tokens'.padStart(8)} ${'unused tok'.padStart(10)}  namespace`,
    ...a.namespaces
      .slice(0, top)
      .map(
        (n) =>
          `  ${int(n.calls).padStart(7)} ${pct(n.requestShare).padStart(9)} ${`${n.calledTools}/${n.tools}`.padStart(9)} ${(n.unknownTokenTools === n.tools ? 'n/a' : `${int(n.schemaTokens)}${n.unknownTokenTools ? '+' : ''}`).padStart(8)} ${int(n.neverCalledTokens).padStart(10)}  ${n.namespace}`,
      ),
  ];
  if (a.neverCalled.tools) {
    const shown = a.neverCalled.ids.slice(0, top);
    lines.push(
      '',
      `never ${a.basis === 'calls' ? 'called' : 'expected'} (${shown.length} of ${a.neverCalled.tools}): ${shown.join(', ')}${a.neverCalled.tools > shown.length ? ', …' : ''}`,
    );
  }
  return lines.join('\n');
}
