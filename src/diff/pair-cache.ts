/**
 * The near-duplicate cache: a catalog's pair analysis (every tool's content-word set and every
 * pair at or above the threshold), on disk, so that the next diff from the same base catalog (in
 * CI: every pull request against the base branch) compares only the added and changed tools
 * (`analysePairsFrom`) instead of joining the whole catalog again.
 *
 * One file per (catalog, threshold), `<rankings cache dir>/near-duplicates/<key>.json`, key =
 * sha256 of the canonical JSON of the format, Backpack's version, its code fingerprint (as the
 * rankings cache: a change to the word rules must not serve stale pairs), the catalog's content
 * hash and the threshold. Inside: the tool ids in the catalog's order, the vocabulary, the word
 * sets (flat, with their lengths) and the pairs (flat triples).
 *
 * Format 2: the file is one record with its checksum, `{"crc32":N,"data":DATA}` where DATA is the
 * JSON above and N the CRC-32 of DATA's exact text. A file whose checksum fails, or that is not
 * of that form (a torn write, flipped bytes), is a miss reported once (`warning: 1 cache records
 * of FILE were corrupt and were recomputed`) and rewritten by the caller; a missing file is a
 * plain miss, as is a file whose checksum holds but that does not describe the catalog it is
 * asked for. Writes take `<file>.lock` (`lockCacheFile`: a busy lock skips the write, a stale one
 * is taken over with a warning) and go to a temporary file renamed into place.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs, writeFileAtomic } from '../util/atomic-write.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import { lockCacheFile } from '../util/file-lock.ts';
import { cacheWarning, corruptWarning, crc32OfText } from '../util/record-log.ts';
import { VERSION } from '../util/version.ts';
import { codeFingerprint } from './cache.ts';
import type { PairAnalysis } from './near-duplicates.ts';

export const PAIR_CACHE_FORMAT = 2;

/** A cached analysis with the ids of the tools its sets belong to (catalog order). */
export interface CachedPairs {
  ids: string[];
  analysis: PairAnalysis;
}

interface PairFile {
  format: number;
  key: Record<string, unknown>;
  ids: string[];
  words: string[];
  lengths: number[];
  members: number[];
  pairs: number[];
}

function fileOf(dir: string, catalogSha256: string, similarity: number): { file: string; key: Record<string, unknown> } {
  const key = { format: PAIR_CACHE_FORMAT, backpack: VERSION, code: codeFingerprint(), catalogSha256, similarity };
  return { file: join(dir, 'near-duplicates', `${sha256(canonicalJson(key)).slice(0, 32)}.json`), key };
}

const SEALED = /^\{"crc32":(\d+),"data":/;

/** The file's text for `data`: the data's JSON and its checksum. */
export function sealPairFile(data: unknown): string {
  const text = JSON.stringify(data);
  return `{"crc32":${crc32OfText(text)},"data":${text}}\n`;
}

/** The data of a sealed file's text, or undefined when its checksum or its form is wrong. */
function unsealed(text: string): unknown {
  const m = SEALED.exec(text);
  const end = text.endsWith('}\n') ? text.length - 2 : text.endsWith('}') ? text.length - 1 : -1;
  if (m === null || end < m[0].length) return undefined;
  const data = text.slice(m[0].length, end);
  if (crc32OfText(data) !== Number(m[1])) return undefined;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** The cached analysis of the catalog hashed `catalogSha256` at `similarity`, or undefined. */
export function readPairCache(dir: string, catalogSha256: string, similarity: number): CachedPairs | undefined {
  const { file, key } = fileOf(dir, catalogSha256, similarity);
  if (!existsSync(file)) return undefined;
  let sealed: unknown;
  try {
    sealed = unsealed(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // unreadable (a folder, no permission): a miss
  }
  if (sealed === undefined) {
    corruptWarning(1, file);
    return undefined;
  }
  try {
    const d = sealed as PairFile;
    if (d.format !== PAIR_CACHE_FORMAT || canonicalJson(d.key) !== canonicalJson(key)) return undefined;
    const { ids, words, lengths, members, pairs } = d;
    if (![ids, words, lengths, members, pairs].every(Array.isArray) || lengths.length !== ids.length || pairs.length % 3 !== 0) return undefined;
    // A file that parses is still checked for shape: a damaged one must be a miss, not wrong pairs.
    const isIndex = (x: unknown, below: number): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < below;
    if (!ids.every((x) => typeof x === 'string') || new Set(ids).size !== ids.length) return undefined;
    if (!words.every((x) => typeof x === 'string') || new Set(words).size !== words.length) return undefined;
    if (!lengths.every((n) => isIndex(n, Number.MAX_SAFE_INTEGER)) || !members.every((w) => isIndex(w, words.length))) return undefined;
    const all = Uint32Array.from(members);
    const sets: Uint32Array[] = [];
    let at = 0;
    for (const n of lengths) {
      const set = all.subarray(at, at + n);
      for (let i = 1; i < set.length; i++) if (set[i - 1]! >= set[i]!) return undefined; // ascending, no repeats
      sets.push(set);
      at += n;
    }
    if (at !== all.length) return undefined;
    const triples: Array<[number, number, number]> = [];
    for (let p = 0; p < pairs.length; p += 3) {
      const [i, j, jac] = [pairs[p], pairs[p + 1], pairs[p + 2]];
      if (!isIndex(i, ids.length) || !isIndex(j, ids.length) || i >= j || typeof jac !== 'number' || !(jac >= similarity - 1e-12 && jac <= 1)) return undefined;
      triples.push([i, j, jac]);
    }
    return { ids, analysis: { similarity, words, sets, pairs: triples } };
  } catch {
    return undefined; // an unreadable cache file is a miss, never an error: it is rewritten
  }
}

/** Store `analysis` of the catalog hashed `catalogSha256`, whose tools are `ids`. A failure to write is ignored (the cache is an optimisation). */
export function writePairCache(dir: string, catalogSha256: string, ids: readonly string[], analysis: PairAnalysis): void {
  const { file, key } = fileOf(dir, catalogSha256, analysis.similarity);
  const members: number[] = [];
  for (const s of analysis.sets) for (const w of s) members.push(w);
  const body: PairFile = {
    format: PAIR_CACHE_FORMAT,
    key,
    ids: [...ids],
    words: analysis.words,
    lengths: analysis.sets.map((s) => s.length),
    members,
    pairs: analysis.pairs.flat(),
  };
  try {
    makeDirs(join(dir, 'near-duplicates'));
    const release = lockCacheFile(file, cacheWarning);
    if (release === null) return; // another writer for seconds: it writes the same analysis
    try {
      writeFileAtomic(file, sealPairFile(body));
    } finally {
      release();
    }
  } catch {
    // read-only cache folder: the next diff computes the base again
  }
}
