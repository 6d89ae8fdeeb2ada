/**
 * A dataset folder's `manifest.json` and what it vouches for: reading it, checking the folder's
 * files against it (tamper evidence), and re-signing a folder changed on purpose.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { readTextFile } from '../util/bounded.ts';
import { InputError } from '../util/errors.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import { parseJson } from '../util/jsonl.ts';
import { catalogHash, DATASET_SCHEMA_VERSION, type FileEntry, type Manifest, type ManifestDrift } from './manifest.ts';
import type { Catalog } from './types.ts';

/** True if `file` is a Backpack dataset manifest (not just any manifest.json). */
export function isBackpackManifest(file: string): boolean {
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
    return typeof m.schemaVersion === 'number' && typeof m.files === 'object' && typeof m.counts === 'object' && typeof m.catalogSha256 === 'string';
  } catch {
    return false;
  }
}

/** `manifest.json` of the dataset folder `root`, checked for shape and schema version. */
export function readManifest(root: string): Manifest {
  const file = join(root, 'manifest.json');
  const m = parseJson(readTextFile(file), file) as Manifest;
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw new InputError('manifest.json must hold a JSON object', { file });
  if (typeof m.files !== 'object' || m.files === null || Array.isArray(m.files) || typeof m.counts !== 'object' || m.counts === null) {
    throw new InputError('manifest lacks "files" or "counts" (objects)', { file });
  }
  if (typeof m.schemaVersion !== 'number') throw new InputError('manifest "schemaVersion" must be a number', { file });
  if (m.schemaVersion > DATASET_SCHEMA_VERSION) {
    throw new InputError(`dataset schemaVersion ${m.schemaVersion} is newer than this Backpack reads (${DATASET_SCHEMA_VERSION})`, { file });
  }
  if (m.catalogSha256 !== undefined && typeof m.catalogSha256 !== 'string') throw new InputError('manifest "catalogSha256" must be a string', { file });
  for (const [path, entry] of Object.entries(m.files)) {
    if (!isInsideRelative(path)) throw new InputError(`manifest "files" lists "${path}", which is not a relative path inside the folder`, { file });
    const e = entry as Partial<FileEntry> | null;
    if (typeof e !== 'object' || e === null || typeof e.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(e.sha256)) {
      throw new InputError(`manifest "files" entry "${path}" must be {"sha256": 64 hex digits, "bytes": N}`, { file });
    }
  }
  return m;
}

function isInsideRelative(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path)) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The hint every tamper error ends with. */
export const RE_SIGN_HINT = 'if you changed the folder on purpose, re-sign it with `backpack eval --dataset DIR --re-sign …` (the results record it)';

/**
 * The files of a dataset folder that `readDataset` (and `readRealism`) read, by relative path, as
 * they are on disk: what the manifest must cover for the folder to be tamper-evident.
 */
export function loaderFiles(root: string): string[] {
  const out: string[] = [];
  for (const f of ['corpus.jsonl', 'skills.jsonl', 'servers.jsonl', 'plugins.jsonl', 'queries.jsonl', 'roles.json', 'realism.json']) {
    const p = join(root, f);
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (st.isDirectory()) throw new InputError('is a folder, not a file: the loader reads this name as a file', { file: p });
    if (!st.isFile()) throw new InputError('is not a regular file (a FIFO, socket or device): the loader reads this name as a file', { file: p });
    out.push(f);
  }
  for (const sub of ['qrels', 'skill-qrels']) for (const n of qrelsFiles(root, sub)) out.push(`${sub}/${n}`);
  return out;
}

/** The `.tsv` files of `<root>/<sub>` (qrels, skill-qrels), sorted; none when it is absent, an `InputError` when it is not a folder. */
export function qrelsFiles(root: string, sub: string): string[] {
  const dir = join(root, sub);
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) throw new InputError(`is a file, not a folder of ${sub} files (<split>.tsv)`, { file: dir });
  return readdirSync(dir)
    .filter((n) => n.endsWith('.tsv'))
    .sort();
}

/**
 * Throw if the manifest does not vouch for the folder as the loader will read it: a file the
 * loader reads that the manifest does not list (an added file, or an entry deleted from the
 * manifest), a listed file that is missing, or one whose sha256 differs. Returns the bytes checked,
 * by relative path, so that what is parsed is what was checked.
 */
export function verifyFiles(root: string, manifest: Manifest): Map<string, Buffer> {
  const { bytes, drift } = checkFiles(root, manifest);
  if (drift.added.length) {
    throw new InputError(
      `is not listed in manifest.json, which must vouch for every file the loader reads (an added file, or an entry removed from the manifest); ${RE_SIGN_HINT}`,
      { file: join(root, drift.added[0]!) },
    );
  }
  if (drift.removed.length) throw new InputError(`file listed in manifest.json is missing; ${RE_SIGN_HINT}`, { file: join(root, drift.removed[0]!) });
  if (drift.changed.length) {
    const path = drift.changed[0]!;
    const actual = sha256(bytes.get(path)!);
    const entry = manifest.files[path]!;
    throw new InputError(
      `sha256 ${actual.slice(0, 12)}… differs from manifest.json (${entry.sha256.slice(0, 12)}…): the file was changed after it was written; ${RE_SIGN_HINT}`,
      { file: join(root, path) },
    );
  }
  return bytes;
}

/** Every file the manifest lists or the loader reads, read once, and how they differ from the manifest. */
function checkFiles(root: string, manifest: Manifest): { bytes: Map<string, Buffer>; drift: ManifestDrift } {
  const bytes = new Map<string, Buffer>();
  const drift: ManifestDrift = { added: [], removed: [], changed: [] };
  for (const path of loaderFiles(root)) if (!Object.hasOwn(manifest.files, path)) drift.added.push(path);
  for (const [path, entry] of Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const p = join(root, path);
    if (!existsSync(p) || !statSync(p).isFile()) {
      drift.removed.push(path);
      continue;
    }
    const b = readBytes(p);
    if (sha256(b) !== entry.sha256) drift.changed.push(path);
    bytes.set(path, b);
  }
  for (const path of drift.added) bytes.set(path, readBytes(join(root, path)));
  return { bytes, drift };
}

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new InputError(`cannot read file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file });
  }
}

/** The files whose content hash a manifest keeps besides their bytes' sha256, by manifest key. */
const CONTENT_HASHED = [
  ['roles.json', 'rolesSha256'],
  ['realism.json', 'realismSha256'],
] as const;

/** sha256 of the canonical JSON of a JSON file's text as parsed (an unreadable text hashes as text: the loader reports it). */
function jsonContentHash(text: string): string {
  try {
    return sha256(canonicalJson(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)));
  } catch {
    return sha256(text);
  }
}

/** The manifest's content hashes (`rolesSha256`, `realismSha256`) of the files `text` gives (undefined: the folder lacks it). */
export function contentHashes(text: (path: string) => string | undefined): Pick<Manifest, 'rolesSha256' | 'realismSha256'> {
  const out: Pick<Manifest, 'rolesSha256' | 'realismSha256'> = {};
  for (const [path, key] of CONTENT_HASHED) {
    const t = text(path);
    if (t !== undefined) out[key] = jsonContentHash(t);
  }
  return out;
}

/**
 * Throw if a file the manifest keeps a content hash of (`rolesSha256`, `realismSha256`) parses to
 * other content: the file was edited and its `files` entry patched to match. `bytes`: the files
 * as verified. A manifest without the key (written before 1.9) checks nothing for that file.
 */
export function checkContentHashes(root: string, manifest: Manifest, bytes: ReadonlyMap<string, Buffer>): void {
  for (const [path, key] of CONTENT_HASHED) {
    const expected = manifest[key];
    const b = bytes.get(path);
    if (expected === undefined || b === undefined) continue;
    const actual = jsonContentHash(b.toString('utf8'));
    if (actual !== expected) {
      throw new InputError(
        `content hash ${actual.slice(0, 12)}… differs from manifest.json's ${key} (${expected.slice(0, 12)}…): the file was edited and its "files" entry patched; ${RE_SIGN_HINT}`,
        { file: join(root, path) },
      );
    }
  }
}

/**
 * Re-sign a dataset folder the user changed on purpose: its manifest is rewritten (atomically)
 * to list every file the loader reads with its sha256 now, and the catalog hash of `catalog` (the
 * catalog read from those files with every check done). Files the manifest listed that are gone
 * are dropped from it. The manifest's `reSigned` gathers what differed, over every re-sign (a
 * hand-edited catalog hash counts as a change of manifest.json). Returns whether it rewrote the
 * manifest (false: the folder matched it).
 */
export function reSign(root: string, manifest: Manifest, catalog: Catalog): boolean {
  const { bytes, drift } = checkFiles(root, manifest);
  const catalogSha256 = catalogHash(catalog);
  const content = contentHashes((path) => bytes.get(path)?.toString('utf8'));
  if (catalogSha256 !== manifest.catalogSha256) drift.changed.push('manifest.json');
  else if (CONTENT_HASHED.some(([, key]) => manifest[key] !== undefined && manifest[key] !== content[key])) drift.changed.push('manifest.json');
  if (!drift.added.length && !drift.removed.length && !drift.changed.length) return false;
  const files: Record<string, FileEntry> = {};
  for (const path of [...bytes.keys()].sort()) files[path] = { sha256: sha256(bytes.get(path)!), bytes: bytes.get(path)!.length };
  const union = (k: keyof ManifestDrift) => [...new Set([...(manifest.reSigned?.[k] ?? []), ...drift[k]])].sort();
  const { rolesSha256: _roles, realismSha256: _realism, ...kept } = manifest;
  const next: Manifest = {
    ...kept,
    catalogSha256,
    ...content,
    files,
    reSigned: { added: union('added'), removed: union('removed'), changed: union('changed') },
  };
  const file = join(root, 'manifest.json');
  try {
    writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
  } catch (err) {
    throw new InputError(`cannot re-sign the dataset (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file });
  }
  return true;
}
