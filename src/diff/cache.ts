/**
 * The rankings cache: the ranked tools a retriever gave each case on a catalog, on disk, so that
 * the next diff against the same catalog (in CI: the base branch's catalog, diffed by every pull
 * request) reads them instead of searching again.
 *
 * A file holds one (retriever, catalog) pair: `<dir>/<retriever>-<key>.json`, key = sha256 of the
 * canonical JSON of everything a ranking depends on: the cache format, Backpack's version, a
 * fingerprint of Backpack's code (every non-test `src/**\/*.ts`, `package.json` and
 * `package-lock.json`: a fix to a tokenizer must not serve stale rankings), the retriever's name
 * and `describe()` (model and model-file hashes included), the catalog's content hash, the role
 * map and the depth. Inside, rankings are keyed by the sha256 of the case's request, caller scopes
 * and role (what the policy layer passes to the retriever), so cases may come and go.
 *
 * Format 2: `{"format": 2, "key": {…}, "cases": {"<case key>": {"r": ranking, "c": crc}}}`, where
 * crc is the CRC-32 of `<case key>\n<JSON of the ranking>`, so an entry carries its key and a
 * checksum over both. An entry whose checksum fails (or that is not such an object) is dropped,
 * searched again and left out of the next save; a file that is not JSON at all counts as one bad
 * entry. Bad entries are reported once per load (`warning: N cache records of FILE were corrupt
 * and were recomputed`), and the file is rewritten by the next save even if nothing else changed.
 *
 * Entries are exact: a file is only ever written with rankings computed for that key. Writes take
 * `<file>.lock` (`lockCacheFile`: a busy lock skips the save, a stale one is taken over with a
 * warning) and go to a temporary file renamed into place; a concurrent writer at worst loses the
 * other's entries. A save that fails (a read-only folder) is a warning, never an error.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { makeDirs, writeFileAtomic } from '../util/atomic-write.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import { lockCacheFile } from '../util/file-lock.ts';
import { cacheWarning, corruptWarning, crc32OfText } from '../util/record-log.ts';
import { CACHE_ROOT, PACKAGE_ROOT, VERSION } from '../util/version.ts';

/** Default folder: `rankings/` in Backpack's cache folder (`CACHE_ROOT`), beside the vector cache. */
export const DEFAULT_RANKINGS_DIR = join(CACHE_ROOT, 'rankings');

export const RANKINGS_CACHE_FORMAT = 2;

export type Ranking = Array<[string, number]>;

let fingerprint: string | undefined;

/** sha256 over Backpack's code: every non-test `.ts` file under `src/` (`.js` and `.d.ts` under `dist/` in an installed package), `package.json` and `package-lock.json`, by relative path. */
export function codeFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if ((e.name.endsWith('.ts') || e.name.endsWith('.js')) && !e.name.endsWith('.test.ts')) files.push(p);
    }
  };
  // An installed package has the compiled dist/ and no src/.
  walk(join(PACKAGE_ROOT, existsSync(join(PACKAGE_ROOT, 'src')) ? 'src' : 'dist'));
  for (const f of ['package.json', 'package-lock.json']) if (existsSync(join(PACKAGE_ROOT, f))) files.push(join(PACKAGE_ROOT, f));
  const parts = files.map((f) => relative(PACKAGE_ROOT, f).split('\\').join('/')).sort();
  const h = sha256(parts.map((p) => `${p}\0${sha256(readFileSync(join(PACKAGE_ROOT, p)))}`).join('\n'));
  return (fingerprint = h);
}

/** The key of a case inside a cache file: what the policy layer hands the retriever. */
export function caseKey(request: string, callerScopes: readonly string[] | undefined, role: string | undefined): string {
  return sha256(canonicalJson({ request, scopes: callerScopes ?? null, role: role ?? null })).slice(0, 32);
}

export interface RankingKey {
  retriever: string;
  config: Record<string, unknown>;
  catalogSha256: string;
  roles: string | null;
  depth: number;
}

/** The checksum of a cache entry: its key and its ranking's JSON. */
export function rankingChecksum(key: string, ranking: Ranking): number {
  return crc32OfText(`${key}\n${JSON.stringify(ranking)}`);
}

/** A well-formed ranking: [tool id, score] pairs. */
function isRanking(v: unknown): v is Ranking {
  return Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && (typeof e[1] === 'number' || e[1] === null));
}

export class RankingCache {
  readonly file: string;
  private readonly entries = new Map<string, Ranking>();
  private dirty = false;

  constructor(
    readonly dir: string,
    readonly key: RankingKey,
  ) {
    const full = { format: RANKINGS_CACHE_FORMAT, backpack: VERSION, code: codeFingerprint(), ...key };
    const slug = key.retriever.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40);
    this.file = join(dir, `${slug}-${sha256(canonicalJson(full)).slice(0, 32)}.json`);
    if (!existsSync(this.file) || !statSync(this.file).isFile()) return;
    let corrupt = 0;
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { format?: unknown; cases?: Record<string, unknown> };
      if (data === null || typeof data !== 'object' || data.format !== RANKINGS_CACHE_FORMAT || typeof data.cases !== 'object' || data.cases === null)
        corrupt = 1;
      else {
        for (const [k, v] of Object.entries(data.cases)) {
          const e = v as { r?: unknown; c?: unknown } | null;
          if (e !== null && typeof e === 'object' && isRanking(e.r) && e.c === rankingChecksum(k, e.r)) this.entries.set(k, e.r);
          else corrupt++;
        }
      }
    } catch {
      corrupt = 1; // not JSON (a torn or damaged file): a miss, never an error
    }
    if (corrupt > 0) {
      corruptWarning(corrupt, this.file);
      this.dirty = true; // rewritten by the next save, without the bad entries
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Ranking | undefined {
    return this.entries.get(key);
  }

  set(key: string, ranking: Ranking): void {
    this.entries.set(key, ranking);
    this.dirty = true;
  }

  /** Write the entries (when any changed, or bad ones were dropped). Never throws: a cache that cannot be written is a warning. */
  save(): void {
    if (!this.dirty) return;
    try {
      makeDirs(this.dir);
      const release = lockCacheFile(this.file, cacheWarning);
      if (release === null) return; // another writer for seconds: it writes rankings as good as these
      try {
        const cases: Record<string, { r: Ranking; c: number }> = {};
        for (const k of [...this.entries.keys()].sort()) {
          const r = this.entries.get(k)!;
          cases[k] = { r, c: rankingChecksum(k, r) };
        }
        writeFileAtomic(this.file, JSON.stringify({ format: RANKINGS_CACHE_FORMAT, key: this.key, cases }));
        this.dirty = false;
      } finally {
        release();
      }
    } catch (e) {
      this.dirty = false; // say it once
      cacheWarning(`cannot write the rankings cache ${this.file} (${e instanceof Error ? e.message : String(e)}); the next diff searches again`);
    }
  }
}
