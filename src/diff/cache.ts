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
 * Entries are exact: a file is only ever written with rankings computed for that key. Writes go
 * to a temporary file renamed into place; a concurrent writer at worst loses the other's entries.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { canonicalJson, sha256 } from '../catalog/hash.ts';
import { CACHE_ROOT, PACKAGE_ROOT, VERSION } from '../version.ts';

/** Default folder: `rankings/` in Backpack's cache folder (`CACHE_ROOT`), beside the vector cache. */
export const DEFAULT_RANKINGS_DIR = join(CACHE_ROOT, 'rankings');

export const RANKINGS_CACHE_FORMAT = 1;

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
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { format?: unknown; cases?: Record<string, Ranking> };
      if (data.format !== RANKINGS_CACHE_FORMAT || typeof data.cases !== 'object' || data.cases === null) return;
      for (const [k, v] of Object.entries(data.cases)) if (Array.isArray(v)) this.entries.set(k, v);
    } catch {
      // An unreadable cache file is a miss, never an error: it is rewritten on save.
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

  save(): void {
    if (!this.dirty) return;
    mkdirSync(this.dir, { recursive: true });
    const cases: Record<string, Ranking> = {};
    for (const k of [...this.entries.keys()].sort()) cases[k] = this.entries.get(k)!;
    const tmp = `${this.file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ format: RANKINGS_CACHE_FORMAT, key: this.key, cases }));
    renameSync(tmp, this.file);
    this.dirty = false;
  }
}
