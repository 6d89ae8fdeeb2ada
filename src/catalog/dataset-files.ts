/**
 * The dataset folder: BEIR layout plus Backpack's own fields, and a manifest with the sha256 of
 * every file.
 *
 *   manifest.json        counts, seed, generator version, slices, catalogSha256, files{path: sha256}
 *   corpus.jsonl         one tool a line: BEIR `_id`, `title`, `text` + every `Tool` field
 *   skills.jsonl         one skill a line: `_id` (= name), `title`, `text` + every `Skill` field
 *   servers.jsonl        MCP servers (and plugin servers): name, source, description, instructions
 *   plugins.jsonl        plugins: name, description
 *   roles.json           role / phase → namespaces and tool patterns, for gating (when the dataset has one)
 *   queries.jsonl        one case a line: BEIR `_id`, `text`, `expected` ("tool" | "none" | "skill-only") + every `Case` field
 *   qrels/<split>.tsv    `query-id corpus-id score` for cases with gold tools (no-tool cases are NOT here)
 *   skill-qrels/<split>.tsv  the same for expected skills
 *   realism.json         measured realism of the requests (generated datasets from 1.0.1; optional)
 *
 * Reading accepts a plain BEIR folder too (only `corpus.jsonl`, `queries.jsonl`, `qrels/`).
 *
 * The lines' records are `dataset-records.ts`'s, the manifest checks and re-signing
 * `manifest-check.ts`'s, and the safe replacement of a folder `replace-folder.ts`'s.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { decodeText, readTextFile, withTextWarnings } from '../util/bounded.ts';
import { InputError } from '../util/errors.ts';
import { failpoint } from '../util/failpoint.ts';
import { sha256 } from '../util/hash.ts';
import { makeDirs, writeFileAtomic, writeFileNamed } from '../util/atomic-write.ts';
import { nonBlankLines, parseJson, parseJsonLine, parseJsonLines } from '../util/jsonl.ts';
import { caseFromRecord, caseRecord, isUnjudged, skillFromRecord, skillRecord, toolFromRecord, toolRecord, type StoredHashPolicy } from './dataset-records.ts';
import { catalogHash, DATASET_SCHEMA_VERSION, REALISM_SCHEMA_VERSION, type FileEntry, type Manifest, type ManifestDrift, type Realism } from './manifest.ts';
import { checkContentHashes, contentHashes, isBackpackManifest, qrelsFiles, RE_SIGN_HINT, readManifest, reSign, verifyFiles } from './manifest-check.ts';
import { toolHash } from './model.ts';
import { checkRealism } from './realism-check.ts';
import { assertReplaceable, replaceDir } from './replace-folder.ts';
import { readRoleMap } from './roles.ts';
import type { Case, Catalog, Dataset, Plugin, Server, Tool } from './types.ts';
import { assembleCatalog, checkCases, inputSchemaProblem, located, type Located } from './validate.ts';

// Split out of this module; importers keep their paths.
export { isBackpackManifest, loaderFiles, readManifest, verifyFiles } from './manifest-check.ts';
export { assertReplaceable, replaceDir } from './replace-folder.ts';

export const QRELS_HEADER = 'query-id\tcorpus-id\tscore';

/** A case's split: its `split` field, `test` when it has none (as `--split` and the qrels files read it). */
export function caseSplit(c: Pick<Case, 'split'>): string {
  return c.split ?? 'test';
}

/** Files of a dataset folder, by relative path, in the order they are written. */
export function datasetFiles(dataset: Dataset): Map<string, string> {
  const { catalog, cases } = dataset;
  const files = new Map<string, string>();
  files.set('corpus.jsonl', jsonLines(catalog.tools.map(toolRecord)));
  files.set('skills.jsonl', jsonLines(catalog.skills.map(skillRecord)));
  files.set('servers.jsonl', jsonLines(catalog.servers));
  files.set('plugins.jsonl', jsonLines(catalog.plugins));
  files.set('queries.jsonl', jsonLines(cases.map(caseRecord)));
  if (dataset.roles) files.set('roles.json', `${JSON.stringify(dataset.roles, null, 2)}\n`);
  const splits = [...new Set(cases.map(caseSplit))].sort();
  for (const split of splits) {
    const inSplit = cases.filter((c) => caseSplit(c) === split);
    const toolRows = inSplit.flatMap((c) => (c.expectedTools ?? []).map((t) => `${c.id}\t${t}\t1`));
    files.set(`qrels/${split}.tsv`, [QRELS_HEADER, ...toolRows].join('\n') + '\n');
    const skillRows = inSplit.filter((c) => c.expectedSkill !== undefined).map((c) => `${c.id}\t${c.expectedSkill}\t1`);
    if (skillRows.length) files.set(`skill-qrels/${split}.tsv`, [QRELS_HEADER, ...skillRows].join('\n') + '\n');
  }
  return files;
}

function jsonLines(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

/**
 * Write a dataset folder atomically (`extraFiles`: more files by relative path, such as
 * `realism.json`, listed in the manifest like every other): everything goes to a sibling temporary folder, the manifest
 * last, and only then replaces `dir`. A failure leaves `dir` as it was.
 */
export function writeDataset(
  dir: string,
  dataset: Dataset,
  manifest: Omit<Manifest, 'files' | 'catalogSha256' | 'schemaVersion'>,
  onProgress: (filesWritten: number, files: number) => void = () => {},
  extraFiles: Readonly<Record<string, string>> = {},
): Manifest {
  onProgress(0, 1); // the stage starts before the files are serialised
  // A reader that finds the files as this manifest describes them skips these checks (readDataset).
  for (const t of dataset.catalog.tools) {
    const problem = inputSchemaProblem(t.inputSchema);
    if (problem) throw new Error(`tool "${t.id}": ${problem}`);
    if (t.hash !== toolHash(t)) throw new Error(`tool "${t.id}": hash does not match its definition`);
  }
  const files = datasetFiles(dataset);
  for (const [path, text] of Object.entries(extraFiles)) {
    if (files.has(path) || path === 'manifest.json') throw new Error(`extra file "${path}" clashes with a dataset file`);
    files.set(path, text);
  }
  const entries: Record<string, FileEntry> = {};
  for (const path of [...files.keys()].sort()) {
    const bytes = Buffer.from(files.get(path)!, 'utf8');
    entries[path] = { sha256: sha256(bytes), bytes: bytes.length };
  }
  const full: Manifest = {
    schemaVersion: DATASET_SCHEMA_VERSION,
    ...manifest,
    catalogSha256: catalogHash(dataset.catalog),
    ...contentHashes((path) => files.get(path)),
    files: entries,
  };
  const target = resolve(dir);
  assertReplaceable(target, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')));
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    let written = 0;
    for (const [path, text] of files) {
      const p = join(tmp, path);
      makeDirs(dirname(p));
      writeFileNamed(p, text);
      onProgress(++written, files.size);
      failpoint('dataset-write');
    }
    writeFileNamed(join(tmp, 'manifest.json'), JSON.stringify(full, null, 2) + '\n');
    replaceDir(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return full;
}

/** True if `dir` looks like a dataset folder this module reads (BEIR corpus or a manifest). */
export function isDatasetDir(dir: string): boolean {
  return existsSync(join(dir, 'corpus.jsonl')) || existsSync(join(dir, 'manifest.json'));
}

export interface ReadOptions {
  /** Keep only cases of this split (BEIR: read only `qrels/<split>.tsv`). Default: all cases. */
  split?: string;
  /** Check every file against the manifest's sha256 (default true when there is a manifest). */
  verify?: boolean;
  /**
   * Tools already read, by the exact text of their corpus line: a line found here is not parsed
   * again, and every line parsed is added. A registry diff reads its second catalog, which shares
   * all but a few lines with the first, at a fraction of the cost and memory. A tool is a function
   * of its line and of whether its file is vouched for by a manifest (a vouched line's stored hash
   * and schema are taken as checked), so a line is reused only by a read of the same kind: the
   * result is the same with or without the memo.
   */
  toolLines?: ToolLineMemo;
  /** Receives what the read leaves out and why (queries no qrels file judges), and invalid UTF-8 replaced; without it, nothing is said. */
  onWarning?: (message: string) => void;
  /** Receives what is said about this read only, not about the data (`--re-sign` with nothing to re-sign). */
  onNote?: (message: string) => void;
  /**
   * Accept the folder as it is now: every file is read with every check (nothing is taken as
   * vouched for), then the manifest is rewritten to list the files the loader read and the
   * catalog's hash (`LoadedDataset.reSigned` says what changed). Without it, a file the manifest
   * does not vouch for is an error.
   */
  reSign?: boolean;
  /**
   * sha256 of `corpus.jsonl` files whose stored tool hashes were already checked against the tools'
   * definitions (`LoadedDataset.corpusSha256` of an earlier read, in this process or the one that
   * started it): a vouched file with these exact bytes skips that check. Every other read computes
   * each tool's hash from its definition.
   */
  contentChecked?: ReadonlySet<string>;
}

/** See `ReadOptions.toolLines`: corpus line → the tool parsed from it, and whether that read was vouched for. */
export type ToolLineMemo = Map<string, { tool: Tool; vouched: boolean }>;

/** A dataset folder as read: the dataset, its folder, its manifest when it has one, and what a re-sign recorded. */
export interface LoadedDataset extends Dataset {
  manifest: Manifest | null;
  dir: string;
  /**
   * The folder was re-signed (`eval --re-sign`, now or before): every file that differed from the
   * manifest as first written, over all its re-signs (the manifest's `reSigned`). Every load of a
   * re-signed folder carries it, so every run on it says so.
   */
  reSigned?: ManifestDrift;
  /** With `ReadOptions.reSign`: whether this load rewrote the manifest (false: the files matched it). */
  reSignedNow?: boolean;
  /** `catalogHash` of the catalog as read: its tools' hashes computed from their definitions (the manifest's, checked, when it has one). */
  catalogSha256: string;
  /** sha256 of the `corpus.jsonl` bytes read, when they were checked against their stored tool hashes (see `ReadOptions.contentChecked`). */
  corpusSha256?: string;
}

/** Read a dataset folder written by `writeDataset`, or a plain BEIR folder. */
export function readDataset(dir: string, opts: ReadOptions = {}): LoadedDataset {
  return withTextWarnings(opts.onWarning, () => readDatasetFolder(dir, opts), resolve(dir));
}

function readDatasetFolder(dir: string, opts: ReadOptions): LoadedDataset {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new InputError('no such dataset folder', { file: dir });
  if (!existsSync(join(root, 'corpus.jsonl'))) throw new InputError('not a dataset folder: corpus.jsonl is missing', { file: dir });
  const manifest = existsSync(join(root, 'manifest.json')) ? readManifest(root) : null;
  // Files that match the manifest are the bytes `writeDataset` wrote after checking every tool's
  // input schema: that check is not repeated (on a 50,000-tool corpus it is a large share of the
  // load). Every tool's hash is still computed from its definition as read, so the catalog hash
  // means the tools evaluated, whatever the files' stored hashes and the manifest say.
  const vouched = manifest !== null && opts.verify !== false && opts.reSign !== true;
  if (opts.reSign && manifest === null)
    opts.onNote?.('--re-sign: the folder has no manifest.json, so there is nothing to re-sign (a plain BEIR folder is read as it is)');
  if (manifest === null)
    opts.onWarning?.(
      `${root.split(/[\\/]/).pop() ?? dir} has no manifest.json: read as an unsigned folder (no file of it is vouched for; its tools are checked and hashed as read)`,
    );
  // The bytes hashed are the bytes parsed: each file is read once.
  const verified = vouched ? verifyFiles(root, manifest) : new Map<string, Buffer>();
  const readJsonl = (name: string) => {
    const file = join(root, name);
    return parseJsonLines(readText(file, verified.get(name)), file);
  };
  const optionalJsonl = (name: string) => (existsSync(join(root, name)) ? readJsonl(name) : []);

  const corpusBytes = verified.get('corpus.jsonl');
  const corpusSha256 = corpusBytes !== undefined ? manifest!.files['corpus.jsonl']!.sha256 : undefined;
  const stale: string[] = [];
  const hashes: StoredHashPolicy = {
    trusted: corpusSha256 !== undefined && opts.contentChecked?.has(corpusSha256) === true,
    ...(opts.reSign ? { onStale: (id: string) => stale.push(id) } : {}),
  };
  const { tools, parsed } = readTools(join(root, 'corpus.jsonl'), corpusBytes, vouched, hashes, opts.toolLines);
  const skills = optionalJsonl('skills.jsonl').map(({ value, file, where }) => located(skillFromRecord(value, file, where), file, where));
  const servers = optionalJsonl('servers.jsonl').map(({ value }) => value as unknown as Server);
  const plugins = optionalJsonl('plugins.jsonl').map(({ value }) => value as unknown as Plugin);
  const catalog: Catalog = assembleCatalog({ tools, skills, servers, plugins });
  const catalogSha256 = catalogHash(catalog);
  if (vouched && catalogSha256 !== manifest.catalogSha256) {
    throw new InputError(
      `the catalog in corpus.jsonl, skills.jsonl, servers.jsonl and plugins.jsonl does not hash to manifest.json's catalogSha256; ${RE_SIGN_HINT}`,
      { file: join(root, 'manifest.json') },
    );
  }
  if (vouched) checkContentHashes(root, manifest, verified);

  const qrels = readQrels(root, 'qrels', opts.split);
  const skillQrels = readQrels(root, 'skill-qrels', opts.split);
  const cases: Located<Case>[] = [];
  const queriesPath = join(root, 'queries.jsonl');
  // Queries no qrels file of any split judges and that say nothing of what they expect: left out
  // (BEIR keeps such queries for other purposes), but never silently.
  const unjudged: string[] = [];
  if (existsSync(queriesPath)) {
    const judged = opts.split === undefined ? null : { tools: readQrels(root, 'qrels', undefined), skills: readQrels(root, 'skill-qrels', undefined) };
    for (const { value, file, where } of readJsonl('queries.jsonl')) {
      const c = caseFromRecord(value, file, where, qrels, skillQrels);
      if (c && (opts.split === undefined || (c.split ?? opts.split) === opts.split)) cases.push(located(c, file, where));
      else if (!c && opts.onWarning && isUnjudged(value, judged ?? { tools: qrels, skills: skillQrels })) unjudged.push(String(value._id));
    }
  }
  if (unjudged.length && opts.onWarning) {
    opts.onWarning(
      `${unjudged.length} ${unjudged.length === 1 ? 'query' : 'queries'} of queries.jsonl ${unjudged.length === 1 ? 'has' : 'have'} no judgement in any qrels file and no "expected" field, so ${unjudged.length === 1 ? 'it is' : 'they are'} left out: ${unjudged.slice(0, 3).join(', ')}${unjudged.length > 3 ? ', …' : ''}`,
    );
  }
  const name = manifest?.name ?? root.split(/[\\/]/).pop() ?? 'dataset';
  const roles = existsSync(join(root, 'roles.json')) ? readRoleMap(join(root, 'roles.json'), catalog) : undefined;
  const checked = checkCases(cases, catalog);
  // Only a dataset that passed every check lends its tools to the next read.
  // (a read that took stored hashes on trust, or accepted stale ones, lends nothing)
  if (opts.toolLines && !hashes.trusted && !stale.length) for (const [line, tool] of parsed) opts.toolLines.set(line, { tool, vouched });
  if (stale.length) {
    rewriteStoredHashes(join(root, 'corpus.jsonl'), catalog);
    opts.onNote?.(
      `--re-sign: ${stale.length} ${stale.length === 1 ? 'tool' : 'tools'} of corpus.jsonl had a stored hash that no longer matched ${stale.length === 1 ? 'its' : 'their'} definition (${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', …' : ''}); corpus.jsonl now stores the hashes of the definitions as read`,
    );
  }
  const reSignedNow = opts.reSign === true && manifest !== null && reSign(root, manifest, catalog);
  const final = reSignedNow ? readManifest(root) : manifest;
  return {
    name,
    catalog,
    cases: checked,
    ...(roles ? { roles } : {}),
    manifest: final,
    dir: root,
    ...(final?.reSigned ? { reSigned: final.reSigned } : {}),
    ...(opts.reSign ? { reSignedNow } : {}),
    catalogSha256,
    ...(corpusSha256 !== undefined ? { corpusSha256 } : {}),
  };
}

/**
 * The tools of a corpus file, each line parsed unless `memo` has it (see `ReadOptions.toolLines`),
 * and the lines parsed (for the memo, once the whole dataset has passed its checks).
 */
function readTools(
  file: string,
  bytes: Buffer | undefined,
  vouched: boolean,
  hashes: StoredHashPolicy,
  memo: ToolLineMemo | undefined,
): { tools: Array<Located<Tool>>; parsed: Array<[string, Tool]> } {
  const tools: Array<Located<Tool>> = [];
  const parsed: Array<[string, Tool]> = [];
  for (const { text, where } of nonBlankLines(readText(file, bytes))) {
    const known = memo?.get(text);
    let tool = known !== undefined && known.vouched === vouched ? known.tool : undefined;
    if (tool === undefined) {
      tool = toolFromRecord(parseJsonLine(text, file, where), file, where, vouched, hashes);
      if (memo) parsed.push([text, tool]);
    }
    tools.push(located(tool, file, where));
  }
  return { tools, parsed };
}

/**
 * Rewrite the `hash` of every corpus line whose stored hash differs from its tool's (a re-sign
 * accepting an edit), atomically; every other line of the file is kept as it was.
 */
function rewriteStoredHashes(file: string, catalog: Catalog): void {
  const hashOf = new Map(catalog.tools.map((t) => [t.id, t.hash]));
  const lines = readText(file).split('\n');
  const out = lines.map((line) => {
    if (line.trim() === '') return line;
    const record = JSON.parse(line) as Record<string, unknown>;
    const hash = hashOf.get(String(record._id));
    if (typeof record.hash !== 'string' || hash === undefined || record.hash === hash) return line;
    record.hash = hash;
    return JSON.stringify(record) + (line.endsWith('\r') ? '\r' : '');
  });
  try {
    writeFileAtomic(file, out.join('\n'));
  } catch (err) {
    throw new InputError(`cannot re-sign the dataset (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file });
  }
}

/**
 * A text file's contents (a UTF-8 byte-order mark removed); an unreadable file is an `InputError`.
 * `bytes`: the file as already read.
 */
export function readText(file: string, bytes?: Buffer): string {
  return bytes !== undefined ? decodeText(bytes, file) : readTextFile(file);
}

/** qrels by query id: corpus ids with score > 0, from `<sub>/<split>.tsv` (every split when none is given). */
function readQrels(root: string, sub: string, split: string | undefined): Map<string, Array<{ id: string; split: string }>> {
  const out = new Map<string, Array<{ id: string; split: string }>>();
  const dir = join(root, sub);
  for (const n of qrelsFiles(root, sub)) {
    const s = n.slice(0, -4);
    if (split !== undefined && s !== split) continue;
    const file = join(dir, n);
    const lines = readText(file).split(/\r?\n/);
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      const cols = line.split('\t');
      if (i === 0 && cols[0] === 'query-id') return;
      if (cols.length < 3)
        throw new InputError(`expected 3 tab-separated columns (query-id, corpus-id, score), got ${cols.length}`, { file, where: `line ${i + 1}` });
      const score = Number(cols[2]);
      if (!Number.isFinite(score)) throw new InputError(`score "${cols[2]}" is not a number`, { file, where: `line ${i + 1}` });
      if (score <= 0) return;
      const list = out.get(cols[0]!) ?? [];
      list.push({ id: cols[1]!, split: s });
      out.set(cols[0]!, list);
    });
  }
  return out;
}

/**
 * The dataset's `realism.json` (see `eval/realism.ts`), or null when it has none (datasets
 * generated before 1.0.1, BEIR folders). A file newer than this Backpack reads is an `InputError`.
 */
export function readRealism(root: string): Realism | null {
  const file = join(resolve(root), 'realism.json');
  if (!existsSync(file)) return null;
  const r = parseJson(readText(file), file) as Realism;
  if (typeof r !== 'object' || r === null || typeof r.schemaVersion !== 'number' || typeof r.overall !== 'object')
    throw new InputError('realism.json lacks "schemaVersion" or "overall"', { file });
  if (r.schemaVersion > REALISM_SCHEMA_VERSION)
    throw new InputError(`realism.json schemaVersion ${r.schemaVersion} is newer than this Backpack reads (${REALISM_SCHEMA_VERSION})`, { file });
  return checkRealism(r, file);
}

/** Relative paths of every file under `root`, sorted (for tests and `inspect`). */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}
