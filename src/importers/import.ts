/**
 * `backpack import`: agent transcripts and API logs in, a dataset out (docs/import.md).
 *
 *  1. Read: every file of the sources in its format (detected per file, or `from`), giving
 *     sessions of typed requests with the calls made before the next one, advertised tool
 *     definitions, and counts of what was skipped.
 *  2. Join: a subagent's calls go to the parent turn that started it; a fork's copy of its
 *     parent's history and a request recorded twice (the same time and text) are dropped.
 *  3. Catalog: the catalog given (`--catalog`), the tools the logs advertised (the latest
 *     definition of each), the harnesses' core tools, and every other called tool by its id only.
 *  4. Cases: each typed request, its gold the distinct tools called that `tools` counts (never a
 *     harness's own tool search), gold mode `all`, the calls in order; none → a no-tool case.
 *     Sessions keep their order (`sessionId`, `turn`); `since`/`until` and `sample` choose which;
 *     train and test are split by session.
 *  5. Privacy: every text is redacted before it is returned; arguments and results were never read
 *     into the sessions.
 */
import { catalogHash, datasetCounts, type ImportRecord, type Manifest, splitCounts } from '../catalog/manifest.ts';
import { firstSentence, makeTool } from '../catalog/model.ts';
import { sliceStats } from '../catalog/overlap.ts';
import { normaliseSchemaDraft } from '../catalog/schema-drafts.ts';
import type { Case, Catalog, Dataset, JsonSchema, Server, Tool } from '../catalog/types.ts';
import { inputSchemaProblem } from '../catalog/validate.ts';
import { tooDeep } from '../util/bounded.ts';
import { InputError, setting } from '../util/errors.ts';
import { sha256 } from '../util/hash.ts';
import { Redactor } from '../util/redact.ts';
import { Rng } from '../util/rng.ts';
import { VERSION } from '../util/version.ts';
import { coreTools, coreToolSource, META_TOOLS } from './core-tools.ts';
import { detectTranscriptFormat, transcriptFormats } from './registry.ts';
import { sourceFiles } from './sources.ts';
import { promptLink } from './conversation.ts';
import { type AdvertisedTool, type FileRead, type Harness, type RecordedCall, Tally, type TranscriptSession, type TypedRequest } from './types.ts';

/** Which calls count as gold: every call, MCP tools only, or the tool ids a regular expression matches. */
export type GoldRule = { kind: 'all' } | { kind: 'mcp' } | { kind: 'regex'; pattern: RegExp; source: string };

/** What `importTranscripts` is told besides the sources (the flags of `backpack import`). */
export interface ImportOptions {
  /** Read every file in this format instead of detecting it. */
  from?: string;
  gold: GoldRule;
  /** Keep the requests at or after / before this time (requests with no time are then left out). */
  since?: Date;
  until?: Date;
  /** Keep at most this many cases, whole sessions drawn at random (the last one cut). */
  sample?: number;
  /** Seeds the sample and the train/test split. */
  seed: number;
  /** Share of the sessions in the test split (the rest are train). */
  testShare: number;
  /** More patterns to redact (`--redact`). */
  redact: readonly RegExp[];
  /** The catalog given with `--catalog` (already loaded, or snapshotted). */
  catalog?: Catalog;
  /** The dataset's name. */
  name: string;
  /** What the import says as it goes (each warning once). */
  onWarning?: (message: string) => void;
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** What an import gives: the dataset, and the manifest to write with it (`writeDataset` adds the files' hashes). */
export interface ImportResult {
  dataset: Dataset;
  manifest: Omit<Manifest, 'files' | 'catalogSha256' | 'schemaVersion'>;
}

/** The longest request text kept; a longer one (a pasted log) is cut, counted. */
export const MAX_REQUEST_CHARS = 10_000;

/** Run the import (see the module comment). An input that cannot give any case is an `InputError`. */
export function importTranscripts(sources: readonly string[], opts: ImportOptions): ImportResult {
  const warn = opts.onWarning ?? (() => {});
  const walk = sourceFiles(sources);
  const forced = opts.from !== undefined ? transcriptFormats.require(opts.from) : undefined;
  const skipped = new Tally();
  const formats: ImportRecord['formats'] = {};
  const sessions: TranscriptSession[] = [];
  const advertised: AdvertisedTool[] = [];
  let unrecognised = 0;
  const unrecognisedNames: string[] = [];
  walk.files.forEach((f, i) => {
    opts.onProgress?.('reading', i, walk.files.length);
    const name = opts.from ?? detectTranscriptFormat(f.path);
    if (name === undefined) {
      if (f.explicit)
        throw new InputError(`not a transcript in any format Backpack reads (${transcriptFormats.names().join(', ')}): name one with ${setting('from')}`, {
          file: f.path,
        });
      unrecognised++;
      if (unrecognisedNames.length < 3) unrecognisedNames.push(f.relative);
      return;
    }
    const read: FileRead = (forced ?? transcriptFormats.require(name)).read({ file: f.path, relative: f.relative });
    const fmt = (formats[name] ??= { files: 0, records: 0, sessions: 0, requests: 0 });
    fmt.files++;
    fmt.records += read.records;
    fmt.sessions += read.sessions.filter((s) => !s.parent).length;
    fmt.requests += read.sessions.reduce((n, s) => n + s.requests.length, 0);
    skipped.merge(read.skipped);
    sessions.push(...read.sessions);
    advertised.push(...read.tools);
  });
  opts.onProgress?.('reading', walk.files.length, walk.files.length);
  if (unrecognised)
    warn(
      `${unrecognised} ${unrecognised === 1 ? 'file is' : 'files are'} in no transcript format Backpack reads, left out (first: ${unrecognisedNames.join(', ')})`,
    );
  // the names of what was skipped can hold a record's own type: redacted like every other text written
  // names of skipped records and session ids are checked without counting (a session id that needs redacting is hashed)
  const uncounted = new Redactor(opts.redact);
  const clip = (k: string) => (k.length > 64 ? `${k.slice(0, 63)}…` : k);
  const skippedCounts: Record<string, number> = {};
  for (const [k, v] of Object.entries(skipped.toJSON())) {
    const name = clip(uncounted.redact(k));
    skippedCounts[name] = (skippedCounts[name] ?? 0) + v;
  }
  const unknownTypes = Object.entries(skippedCounts).filter(([k]) => k.startsWith('unknown-type:'));
  if (unknownTypes.length) {
    const n = unknownTypes.reduce((a, [, v]) => a + v, 0);
    const shown = unknownTypes.slice(0, 10).map(([k, v]) => `${k.slice('unknown-type:'.length)} ×${v}`);
    warn(`skipped ${n} ${n === 1 ? 'record' : 'records'} of types Backpack does not read: ${shown.join(', ')}${unknownTypes.length > 10 ? ', …' : ''}`);
  }
  const broken =
    skipped.get('truncated-last-line') +
    skipped.get('not-json') +
    skipped.get('not-an-object') +
    skipped.get('nested-too-deep') +
    skipped.get('record-too-large');
  if (broken)
    warn(
      `skipped ${broken} unreadable ${broken === 1 ? 'record' : 'records'} (${[
        'truncated-last-line',
        'not-json',
        'not-an-object',
        'nested-too-deep',
        'record-too-large',
      ]
        .filter((k) => skipped.get(k))
        .map((k) => `${k} ×${skipped.get(k)}`)
        .join(', ')})`,
    );

  const joined = joinSessions(sessions, warn);
  const requestsRead = joined.main.reduce((n, s) => n + s.requests.length, 0) + joined.duplicates + joined.forkCopies;
  if (requestsRead === 0) {
    const notRegular = walk.skipped.notRegular
      ? `; ${walk.skipped.notRegular} FIFO, socket or device ${walk.skipped.notRegular === 1 ? 'entry' : 'entries'} skipped`
      : '';
    const where = `${walk.files.length ? `${walk.files.length} ${walk.files.length === 1 ? 'file' : 'files'} read` : 'no .jsonl or .json file found'}${notRegular}`;
    throw new InputError(`no typed request found (${where}): nothing to import`, { file: sources.join(', ') });
  }
  const noRequest = joined.main.filter((s) => s.requests.length === 0).length;
  if (noRequest) warn(`${noRequest} ${noRequest === 1 ? 'session has' : 'sessions have'} no typed request, left out`);

  const redactor = new Redactor(opts.redact);
  const names = new ToolNames(redactor);
  const namedTools = cleanNames(joined.main, advertised, names, skipped);
  const catalog = buildCatalog(joined.main, namedTools, opts, redactor, warn);
  const built = buildCases(joined.main, catalog, opts, redactor, uncounted);
  if (built.cases.length === 0)
    throw new InputError(`no typed request is left after ${setting('since')}/${setting('until')}: nothing to import`, { file: sources.join(', ') });

  const formatNames = Object.keys(formats).sort();
  const record: ImportRecord = {
    formats: Object.fromEntries(formatNames.map((n) => [n, formats[n]!])),
    skipped: skippedCounts,
    files: { read: walk.files.length - unrecognised, ...walk.skipped, unrecognised },
    requests: {
      read: requestsRead,
      kept: built.cases.length,
      duplicates: joined.duplicates,
      forkCopies: joined.forkCopies,
      outsideWindow: built.outsideWindow,
      withoutTime: built.withoutTime,
      sampledOut: built.sampledOut,
      cut: built.cut,
    },
    calls: built.cases.reduce((n, c) => n + (c.calls?.length ?? 0), 0),
    subagents: joined.subagents,
    tools: { gold: goldRuleText(opts.gold), ...catalog.counts, renamed: names.changed },
    redactions: redactor.counts(),
  };
  const dataset: Dataset = { name: opts.name, catalog: catalog.catalog, cases: built.cases };
  const harnesses = [...new Set(joined.main.map((s) => s.harness).filter((h): h is Harness => h !== undefined))].sort();
  return {
    dataset,
    manifest: {
      name: opts.name,
      generator: null,
      seed: opts.seed,
      preset: null,
      params: {
        from: formatNames,
        tools: goldRuleText(opts.gold),
        since: opts.since?.toISOString() ?? null,
        until: opts.until?.toISOString() ?? null,
        sample: opts.sample ?? null,
        testShare: opts.testShare,
        redactPatterns: opts.redact.length,
        catalogSha256: opts.catalog ? catalogHash(opts.catalog) : null,
      },
      counts: datasetCounts(dataset.catalog, dataset.cases),
      slices: sliceStats(dataset.catalog, dataset.cases),
      splits: splitCounts(dataset.cases),
      provenance:
        `Imported by Backpack ${VERSION} (backpack import) from ${formatNames.map((n) => `${formats[n]!.files} ${n} ${formats[n]!.files === 1 ? 'file' : 'files'}`).join(', ')}: ` +
        `${built.cases.length} typed requests of ${built.sessions} sessions, redacted before writing; tool arguments and results not kept.` +
        (harnesses.length ? ` Core tools: ${harnesses.map((h) => `${h} (${coreToolSource(h)})`).join('; ')}.` : ''),
      import: record,
    },
  };
}

export function goldRuleText(rule: GoldRule): string {
  return rule.kind === 'regex' ? `regex:${rule.source}` : rule.kind;
}

// ---------------------------------------------------------------------------------------------
// 2. Join

interface Joined {
  main: TranscriptSession[];
  duplicates: number;
  forkCopies: number;
  subagents: ImportRecord['subagents'];
}

/** Formats whose sessions can be split over files (a log rotated, one file a request): their sessions of one id are joined. */
const SPLIT_FORMATS = new Set(['api-log', 'otel']);

/**
 * Sessions of a log format that have the same id are one conversation read from several files:
 * joined, their turns aligned by number (a call seen in both, by its key, counted once). Two with
 * a different text at the same turn are two conversations that opened alike: kept apart.
 */
function joinSplit(all: readonly TranscriptSession[]): TranscriptSession[] {
  const out: TranscriptSession[] = [];
  const byId = new Map<string, TranscriptSession[]>();
  for (const s of all) {
    if (!SPLIT_FORMATS.has(s.format) || s.parent) {
      out.push(s);
      continue;
    }
    const key = `${s.format}\u0000${s.id}`;
    const same = byId.get(key) ?? [];
    const fits = (b: TranscriptSession) =>
      s.requests.every((r) => {
        const q = b.requests.find((x) => x.turn === r.turn);
        return q === undefined || q.text === r.text;
      });
    const into = same.find(fits);
    if (!into) {
      same.push(s);
      byId.set(key, same);
      out.push(s);
      continue;
    }
    for (const r of s.requests) {
      const q = into.requests.find((x) => x.turn === r.turn);
      if (!q) {
        into.requests.push(r);
        continue;
      }
      const keys = new Set(q.calls.map((c) => c.key).filter((k) => k !== undefined));
      for (const c of r.calls) if (c.key === undefined || !keys.has(c.key)) q.calls.push(c);
      for (const l of r.links ?? []) if (!(q.links ?? []).includes(l)) (q.links ??= []).push(l);
      if (q.at === undefined && r.at !== undefined) q.at = r.at;
    }
    into.requests.sort((a, b) => a.turn! - b.turn!);
    into.leading.push(...s.leading);
  }
  return out;
}

function joinSessions(read: readonly TranscriptSession[], warn: (m: string) => void): Joined {
  // a request's turn is its place among its session's typed requests as read (before anything is dropped)
  for (const s of read) s.requests.forEach((r, i) => (r.turn ??= i));
  const all = joinSplit(read);
  // the turn each link names: agent ids, prompt ids, and the prompts subagent calls gave
  const byLink = new Map<string, { session: TranscriptSession; request: TypedRequest }>();
  for (const s of all) if (!s.parent) for (const r of s.requests) for (const l of r.links ?? []) if (!byLink.has(l)) byLink.set(l, { session: s, request: r });
  // a logged conversation that opens with the prompt another conversation's subagent call gave is that subagent
  for (const s of all) {
    const first = s.requests[0];
    if (s.parent || !first || !SPLIT_FORMATS.has(s.format)) continue;
    const link = promptLink(first.text);
    const parent = byLink.get(link);
    if (!parent || parent.session === s) continue;
    s.parent = { sessionId: parent.session.id, links: [link] };
    s.leading = [...s.leading, ...s.requests.flatMap((r) => r.calls)];
    s.requests = [];
  }
  const main = all.filter((s) => !s.parent);
  const subs = all.filter((s) => s.parent);
  const subagents = { linked: 0, linkedByTime: 0, unlinked: 0 };
  const byId = new Map<string, TranscriptSession[]>();
  for (const s of main) byId.set(s.id, [...(byId.get(s.id) ?? []), s]);
  for (const sub of subs) {
    const p = sub.parent!;
    const calls: RecordedCall[] = [...sub.leading, ...sub.requests.flatMap((r) => r.calls)].map((c) => ({ id: c.id, subagent: true }));
    let target = p.links.map((l) => byLink.get(l)).find((t) => t !== undefined)?.request;
    if (target) subagents.linked++;
    else {
      const parent = byId.get(p.sessionId)?.find((s) => s.requests.length > 0);
      if (parent) {
        // the parent's last typed request before the subagent started (its first when it has no time)
        target = parent.requests[0]!;
        if (p.at !== undefined) for (const r of parent.requests) if (r.at !== undefined && r.at <= p.at) target = r;
        subagents.linkedByTime++;
      }
    }
    if (!target) {
      subagents.unlinked++;
      continue;
    }
    target.calls.push(...calls);
  }
  if (subagents.unlinked)
    warn(
      `${subagents.unlinked} subagent ${subagents.unlinked === 1 ? 'transcript' : 'transcripts'} belong to no session read: their calls are left out (import the parent sessions with them)`,
    );
  // a fork re-records its parent's history first: drop what it shares with the parent as read
  // (a fork of a fork shares its grandparent's history too, which its parent's own trimming must not hide)
  const asRead = new Map(main.map((s) => [s.id, s.requests.map((r) => r.text)]));
  let forkCopies = 0;
  for (const s of main) {
    if (s.forkedFrom === undefined) continue;
    const parent = asRead.get(s.forkedFrom);
    if (!parent) continue;
    let n = 0;
    while (n < s.requests.length && n < parent.length && s.requests[n]!.text === parent[n]) n++;
    forkCopies += n;
    s.requests = s.requests.slice(n);
  }
  // a request recorded twice (a resumed session's copy): the same format, time and text
  let duplicates = 0;
  const seen = new Set<string>();
  for (const s of main) {
    s.requests = s.requests.filter((r) => {
      if (r.at === undefined) return true;
      const key = `${s.format}\u0000${r.at}\u0000${r.text}`;
      if (seen.has(key)) {
        duplicates++;
        return false;
      }
      seen.add(key);
      return true;
    });
  }
  return { main, duplicates, forkCopies, subagents };
}

// ---------------------------------------------------------------------------------------------
// 3. Catalog

interface BuiltCatalog {
  catalog: Catalog;
  /** A called name → the catalog id it stands for. */
  idOf: (name: string) => string;
  counts: Omit<ImportRecord['tools'], 'gold' | 'renamed'>;
}

/** A name as compared across the spellings of one tool (Codex replaces `-` and other characters with `_`). */
const looseName = (id: string): string => id.toLowerCase().replace(/[^a-z0-9]+/g, '_');

const EMPTY: JsonSchema = { type: 'object', properties: {} };

/** Keywords whose string values are the schema's structure, never text a person wrote: kept as they are. */
const STRUCTURAL = new Set([
  'type',
  '$ref',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  'format',
  'pattern',
  'contentMediaType',
  'contentEncoding',
]);
/** Keywords whose object keys are names (of properties, of definitions): redacted like text, the values being schemas. */
const NAMING = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependentRequired']);

/**
 * A JSON Schema from a log with every string a person or a server wrote redacted (descriptions,
 * titles, enum values, defaults and examples, at any depth, and property names, in `properties` and
 * `required` alike), its structure kept (`type`, `$ref`, `format`, `pattern`…).
 */
function redactSchema(schema: unknown, r: Redactor, key = ''): unknown {
  if (typeof schema === 'string') return STRUCTURAL.has(key) ? schema : r.redact(schema);
  if (Array.isArray(schema)) return schema.map((v) => redactSchema(v, r, key === 'type' ? 'type' : ''));
  if (schema !== null && typeof schema === 'object') {
    const named = NAMING.has(key);
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => (named ? [r.redact(k), redactSchema(v, r, '')] : [k, redactSchema(v, r, k)])));
  }
  return schema;
}

/** The longest advertised description kept (a longer one is cut, counted, before it is redacted). */
const MAX_DESCRIPTION_CHARS = 20_000;

/**
 * Tool names as written to the dataset: whitespace and control characters (which a TSV file or a
 * terminal cannot hold) as `_`; a name (or an MCP server's or tool's part of it) that redaction
 * would change, by a hash of it (`redacted-<hash>`), so no secret is written and the id stays one
 * tool's; a name over 200 characters cut, with a hash of the whole. Undefined: nothing is left.
 */
class ToolNames {
  private readonly memo = new Map<string, string | undefined>();
  changed = 0;

  constructor(private readonly redactor: Redactor) {}

  clean(raw: string): string | undefined {
    if (this.memo.has(raw)) return this.memo.get(raw);
    const trimmed = raw.trim().replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, '_');
    let out: string | undefined;
    if (trimmed !== '') {
      const m = /^mcp__(.+?)__(.+)$/.exec(trimmed);
      out = m ? `mcp__${this.part(m[1]!)}__${this.part(m[2]!)}` : this.part(trimmed);
    }
    if (out !== raw) this.changed++;
    this.memo.set(raw, out);
    return out;
  }

  private part(p: string): string {
    if (this.redactor.redact(p) !== p) return `redacted-${sha256(p).slice(0, 12)}`;
    return p.length > 200 ? `${p.slice(0, 180)}-${sha256(p).slice(0, 12)}` : p;
  }
}

/** Every call and advertised tool of the import, named as `ToolNames` writes them; calls with no name left are dropped, counted. */
function cleanNames(sessions: readonly TranscriptSession[], advertised: readonly AdvertisedTool[], names: ToolNames, skipped: Tally): AdvertisedTool[] {
  for (const s of sessions)
    for (const r of s.requests)
      r.calls = r.calls.flatMap((c) => {
        const id = names.clean(c.id);
        if (id === undefined) skipped.add('call-without-a-name');
        return id === undefined ? [] : [{ ...c, id }];
      });
  return advertised.flatMap((t) => {
    const id = names.clean(t.id);
    if (id === undefined) return [];
    const m = /^mcp__(.+?)__(.+)$/.exec(id);
    const { server: _, ...rest } = t;
    return [
      { ...rest, id, name: m ? m[2]! : id, source: m ? ('mcp' as const) : t.source === 'mcp' ? ('core' as const) : t.source, ...(m ? { server: m[1]! } : {}) },
    ];
  });
}

function buildCatalog(
  sessions: readonly TranscriptSession[],
  advertised: readonly AdvertisedTool[],
  opts: ImportOptions,
  redactor: Redactor,
  warn: (m: string) => void,
): BuiltCatalog {
  const tools: Tool[] = [...(opts.catalog?.tools ?? [])];
  const servers: Server[] = [...(opts.catalog?.servers ?? [])];
  const have = new Set(tools.map((t) => t.id));
  // the latest definition of each advertised tool (by time, then by order read)
  const latest = new Map<string, AdvertisedTool>();
  for (const t of advertised) {
    const prev = latest.get(t.id);
    if (!prev || (t.at ?? '') >= (prev.at ?? '')) latest.set(t.id, t);
  }
  let schemasReplaced = 0;
  let descriptionsCut = 0;
  let fromLogs = 0;
  for (const t of [...latest.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (have.has(t.id)) continue;
    let schema = tooDeep(t.inputSchema) === undefined ? (normaliseSchemaDraft(t.inputSchema).schema as JsonSchema) : EMPTY;
    if (schema === EMPTY || inputSchemaProblem(schema) !== undefined) {
      schema = { ...EMPTY, properties: {} };
      schemasReplaced++;
    }
    if (t.description.length > MAX_DESCRIPTION_CHARS) descriptionsCut++;
    const description = redactor.redact(t.description.length > MAX_DESCRIPTION_CHARS ? `${t.description.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : t.description);
    tools.push(
      makeTool({
        id: t.id,
        name: t.name,
        source: t.source,
        ...(t.server !== undefined ? { server: t.server } : {}),
        summary: description.trim() ? firstSentence(description) : t.name,
        description,
        inputSchema: redactSchema(schema, redactor) as JsonSchema,
      }),
    );
    have.add(t.id);
    fromLogs++;
  }
  if (schemasReplaced)
    warn(
      `${schemasReplaced} advertised ${schemasReplaced === 1 ? 'tool has' : 'tools have'} an input schema that is not valid JSON Schema: kept with an empty one`,
    );

  const calledNames = new Set(sessions.flatMap((s) => s.requests.flatMap((r) => r.calls.map((c) => c.id))));
  let core = 0;
  for (const h of [...new Set(sessions.map((s) => s.harness).filter((x): x is Harness => x !== undefined))].sort()) {
    for (const t of coreTools(h, calledNames)) {
      if (have.has(t.id)) continue;
      tools.push(t);
      have.add(t.id);
      core++;
    }
  }

  // a called name matches a catalog tool by its id, else by its loose spelling when only one tool has it
  const loose = new Map<string, string | null>();
  for (const t of tools) loose.set(looseName(t.id), loose.has(looseName(t.id)) ? null : t.id);
  let matchedByName = 0;
  const alias = new Map<string, string>();
  const missing: string[] = [];
  for (const name of [...calledNames].sort()) {
    if (have.has(name)) continue;
    const match = loose.get(looseName(name));
    if (match) {
      alias.set(name, match);
      matchedByName++;
    } else missing.push(name);
  }
  // spellings of one tool no catalog has (Claude Code's mcp__n8n-mcp__x, Codex's mcp__n8n_mcp__x): one id-only tool, the first spelling in sort order
  const firstSpelling = new Map<string, string>();
  for (const name of missing) {
    const first = firstSpelling.get(looseName(name));
    if (first === undefined) firstSpelling.set(looseName(name), name);
    else {
      alias.set(name, first);
      matchedByName++;
    }
  }
  const idOnly = missing.filter((name) => !alias.has(name));
  for (const id of idOnly) {
    const m = /^mcp__(.+?)__(.+)$/.exec(id);
    tools.push(
      makeTool({
        id,
        name: m ? m[2]! : id,
        source: m ? 'mcp' : 'core',
        ...(m ? { server: m[1]! } : {}),
        summary: '',
        description: '',
        idOnly: true,
      }),
    );
  }
  if (idOnly.length)
    warn(
      `${idOnly.length} called ${idOnly.length === 1 ? 'tool is' : 'tools are'} in no catalog given: kept by id only, with no description or schema (${idOnly.slice(0, 5).join(', ')}${idOnly.length > 5 ? ', …' : ''}); give --catalog for their definitions`,
    );
  // every MCP namespace has its server entry
  const named = new Set(servers.map((s) => s.name));
  for (const t of tools) {
    if (t.source !== 'mcp' || t.server === undefined || named.has(t.server)) continue;
    named.add(t.server);
    servers.push({ name: t.server, source: 'mcp', description: '', instructions: '' });
  }
  return {
    catalog: { tools, skills: opts.catalog?.skills ?? [], servers, plugins: opts.catalog?.plugins ?? [] },
    idOf: (name) => alias.get(name) ?? name,
    counts: {
      fromCatalog: opts.catalog?.tools.length ?? 0,
      advertised: fromLogs,
      core,
      idOnly: idOnly.length,
      matchedByName,
      schemasReplaced,
      descriptionsCut,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 4. Cases

interface BuiltCases {
  cases: Case[];
  sessions: number;
  outsideWindow: number;
  withoutTime: number;
  sampledOut: number;
  cut: number;
}

function countsAsGold(rule: GoldRule, tool: Tool | undefined, id: string): boolean {
  if (META_TOOLS.has(id)) return false;
  if (rule.kind === 'all') return true;
  if (rule.kind === 'mcp') return tool?.source === 'mcp' || id.startsWith('mcp__');
  rule.pattern.lastIndex = 0;
  return rule.pattern.test(id);
}

/** A session id safe to write: the format's own id when it is a plain id that redaction leaves as it is, else a hash of it. */
function safeSessionId(s: TranscriptSession, probe: Redactor): string {
  return /^[A-Za-z0-9._:/-]{1,128}$/.test(s.id) && probe.redact(s.id) === s.id ? s.id : `${s.format}-${sha256(s.id).slice(0, 16)}`;
}

function buildCases(sessions: readonly TranscriptSession[], built: BuiltCatalog, opts: ImportOptions, redactor: Redactor, probe: Redactor): BuiltCases {
  const byId = new Map(built.catalog.tools.map((t) => [t.id, t]));
  const formats = new Set(sessions.map((s) => s.format));
  let outsideWindow = 0;
  let withoutTime = 0;
  let cut = 0;
  interface Turn {
    turn: number;
    text: string;
    calls: RecordedCall[];
  }
  const kept: Array<{ s: TranscriptSession; id: string; start: string; turns: Turn[] }> = [];
  for (const s of sessions) {
    const turns: Turn[] = [];
    s.requests.forEach((r, i) => {
      const turn = r.turn ?? i;
      if (opts.since !== undefined || opts.until !== undefined) {
        if (r.at === undefined) {
          withoutTime++;
          return;
        }
        const t = new Date(r.at).getTime();
        if ((opts.since !== undefined && t < opts.since.getTime()) || (opts.until !== undefined && t >= opts.until.getTime())) {
          outsideWindow++;
          return;
        }
      }
      turns.push({ turn, text: r.text, calls: r.calls });
    });
    if (turns.length) kept.push({ s, id: safeSessionId(s, probe), start: s.requests.find((r) => r.at)?.at ?? '', turns });
  }
  // sessions in time order (then id), so that the cases are in the order they were made
  kept.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // ids must be unique across files: a second session with the same id gets a suffix
  const used = new Map<string, number>();
  for (const k of kept) {
    const n = used.get(k.id) ?? 0;
    used.set(k.id, n + 1);
    if (n > 0) k.id = `${k.id}~${n + 1}`;
  }
  let chosen = kept;
  let sampledOut = 0;
  if (opts.sample !== undefined) {
    const total = kept.reduce((n, k) => n + k.turns.length, 0);
    const order = new Rng(opts.seed).fork('import-sample').shuffle(kept.map((_, i) => i));
    const pick = new Set<number>();
    let n = 0;
    for (const i of order) {
      if (n >= opts.sample) break;
      const k = kept[i]!;
      if (n + k.turns.length > opts.sample) k.turns = k.turns.slice(0, opts.sample - n);
      n += k.turns.length;
      pick.add(i);
    }
    chosen = kept.filter((_, i) => pick.has(i));
    sampledOut = total - n;
  }
  // train and test by session: sessions in a seeded order, the first testShare of them test
  const ranked = chosen
    .map((k) => ({ id: k.id, h: sha256(`${opts.seed}:${k.id}`) }))
    .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0))
    .map((x) => x.id);
  const testCount = ranked.length < 2 ? ranked.length : Math.min(ranked.length - 1, Math.max(1, Math.round(ranked.length * opts.testShare)));
  const test = new Set(ranked.slice(0, testCount));
  const cases: Case[] = [];
  for (const k of chosen) {
    const multiTurn = k.s.requests.length > 1;
    for (const t of k.turns) {
      const calls = t.calls.map((c) => built.idOf(c.id));
      const gold: string[] = [];
      let fromSubagent = false;
      t.calls.forEach((c, i) => {
        const id = calls[i]!;
        if (!countsAsGold(opts.gold, byId.get(id), id)) return;
        if (c.subagent) fromSubagent = true;
        if (!gold.includes(id)) gold.push(id);
      });
      // cut before redacting too: a pasted log of megabytes is not scanned whole to keep 10,000 characters of it
      const raw = t.text.trim();
      let text = redactor.redact(raw.length > MAX_REQUEST_CHARS + 512 ? raw.slice(0, MAX_REQUEST_CHARS + 512) : raw);
      if (text.length > MAX_REQUEST_CHARS) {
        text = `${text.slice(0, MAX_REQUEST_CHARS - 1)}…`;
        cut++;
      }
      const slices = [
        ...(gold.length === 0 ? ['no-tool', ...(calls.length ? ['other-tools-only'] : [])] : []),
        ...(gold.length > 1 ? ['multi-tool'] : []),
        ...(multiTurn ? ['multi-turn'] : []),
        ...(fromSubagent ? ['subagent'] : []),
        ...(formats.size > 1 ? [`from:${k.s.format}`] : []),
      ];
      cases.push({
        id: `${k.id}#${t.turn}`,
        request: text,
        expectedTools: gold,
        goldMode: 'all',
        slices,
        sessionId: k.id,
        turn: t.turn,
        split: test.has(k.id) ? 'test' : 'train',
        calls,
      });
    }
  }
  return { cases, sessions: chosen.length, outsideWindow, withoutTime, sampledOut, cut };
}
