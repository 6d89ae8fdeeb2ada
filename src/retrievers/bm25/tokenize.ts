/**
 * A configurable tokenizer pipeline for lexical retrieval:
 *
 *   text → [ASCII fold] → scan ASCII word runs (optionally splitting identifiers) → lowercase
 *        → [drop tokens shorter than minLength] → [drop English stop words] → [Porter2 stem]
 *
 * Tokens are runs of `[a-z0-9]` after lowercasing; every other character (including any non-ASCII
 * character left after folding, or all of them when folding is off) separates tokens. The one
 * exception is `splitIdentifiers: false`, which keeps `_`, `.` and `-` *between* letters/digits
 * inside the token (`create_issue` is one token, as under Codex's UAX#29 word splitting).
 *
 * Built for 50,000-tool catalogs: the scan is a single pass over char codes, and each distinct raw
 * token's final term (or its removal) is memoised, so stop-word lookup and stemming run once per
 * distinct word.
 */
import { stem as porter2 } from 'porter2';

/**
 * How identifiers such as `create_issue`, `createIssue`, `create-issue` and `issues.create` are cut:
 * - `true`: into their parts, on `_ . -` and other punctuation *and* on camelCase humps
 *   (`createIssue` → `create issue`, `HTMLParser` → `html parser`, `base64Encode` → `base64 encode`;
 *   letters and digits are never split apart);
 * - `'punctuation'`: plain `[a-z0-9]+` runs: `_ . -` separate (`create_issue` → `create issue`) but
 *   camelCase does not (`createIssue` → `createissue`), the textbook regex tokenizer;
 * - `false`: not at all: `_ . -` between letters/digits join (`create_issue` stays one token) and
 *   camelCase is not split.
 */
export type SplitIdentifiers = boolean | 'punctuation';

export interface TokenizerOptions {
  /** See {@link SplitIdentifiers}. */
  splitIdentifiers: SplitIdentifiers;
  /** Fold to ASCII first: Unicode NFKD, then strip combining marks (`café` → `cafe`, `ﬁ` → `fi`). Letters with no decomposition (`ß`, `ø`) stay non-ASCII and so separate tokens. */
  asciiFold: boolean;
  /** `'english'` drops the 179 NLTK English stop words ({@link ENGLISH_STOP_WORDS}), before stemming. */
  stopWords: 'none' | 'english';
  /** `'porter2'` stems each token with the Snowball English (Porter2) stemmer. */
  stem: 'none' | 'porter2';
  /** Drop tokens with fewer characters than this (checked on the lowercased token, before stemming). Integer ≥ 1; 1 keeps everything. */
  minLength: number;
}

/**
 * NLTK's English stop-word list (179 words, the list of the `stop-words` crate Codex uses). The
 * entries with an apostrophe can never equal a token (tokens are `[a-z0-9]` runs, so `don't` is
 * `don` + `t`, both listed); they are kept so the list stays exactly NLTK's.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = Object.freeze(
  (
    "i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves " +
    "he him his himself she she's her hers herself it it's its itself they them their theirs themselves " +
    "what which who whom this that that'll these those am is are was were be been being have has had having " +
    'do does did doing a an the and but if or because as until while of at by for with about against between ' +
    'into through during before after above below to from up down in out on off over under again further ' +
    'then once here there when where why how all any both each few more most other some such no nor not only ' +
    "own same so than too very s t can will just don don't should should've now d ll m o re ve y ain aren " +
    "aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma " +
    "mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't " +
    "won won't wouldn wouldn't"
  ).split(' '),
);

const STOP_SET: ReadonlySet<string> = new Set(ENGLISH_STOP_WORDS);

/** Throws a `RangeError` if an option is out of range. */
export function checkTokenizerOptions(o: TokenizerOptions): void {
  if (o.splitIdentifiers !== true && o.splitIdentifiers !== false && o.splitIdentifiers !== 'punctuation') {
    throw new RangeError(`splitIdentifiers must be true, false or 'punctuation' (got ${JSON.stringify(o.splitIdentifiers)})`);
  }
  if (o.stopWords !== 'none' && o.stopWords !== 'english') throw new RangeError(`stopWords must be 'none' or 'english' (got ${JSON.stringify(o.stopWords)})`);
  if (o.stem !== 'none' && o.stem !== 'porter2') throw new RangeError(`stem must be 'none' or 'porter2' (got ${JSON.stringify(o.stem)})`);
  if (!Number.isSafeInteger(o.minLength) || o.minLength < 1) throw new RangeError(`minLength must be a whole number ≥ 1 (got ${o.minLength})`);
}

/** The two stages of a tokenizer, exposed so an index can memoise raw token → term id in one map. */
export interface TokenPipeline {
  /** Calls `sink` with each raw token of `text` in order: an ASCII slice, original case, not yet filtered or stemmed. */
  scan(text: string, sink: (raw: string) => void): void;
  /** The final term for a raw token from `scan`, or `null` if the token is dropped. Memoised. */
  term(raw: string): string | null;
}

/** Memo entries kept before the memo is cleared (bounds memory on endless distinct query words). */
const MEMO_LIMIT = 1 << 20;
const NON_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{M}/gu;

// Character classes by char code.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const JOINER = 4; // _ . -  (join identifier parts when splitIdentifiers is false)
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
CLASS[95] = JOINER;
CLASS[46] = JOINER;
CLASS[45] = JOINER;

function classOf(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? CLASS[c]! : OTHER;
}

function isAlnum(cls: number): boolean {
  return cls === LOWER || cls === UPPER || cls === DIGIT;
}

/** Fold `text` to ASCII where Unicode can: NFKD, then remove combining marks. */
export function asciiFold(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKD').replace(MARKS, '') : text;
}

/** Build the two pipeline stages for `opts` (validated). */
export function makePipeline(opts: TokenizerOptions): TokenPipeline {
  checkTokenizerOptions(opts);
  const { splitIdentifiers, minLength } = opts;
  const fold = opts.asciiFold;
  const stop = opts.stopWords === 'english';
  const doStem = opts.stem === 'porter2';
  const memo = new Map<string, string | null>();

  const scan = (input: string, sink: (raw: string) => void): void => {
    const s = fold ? asciiFold(input) : input;
    const n = s.length;
    let i = 0;
    while (i < n) {
      // Skip to the start of a run.
      while (i < n && !isAlnum(classOf(s, i))) i++;
      if (i >= n) break;
      let start = i;
      let prev = classOf(s, i);
      i++;
      while (i < n) {
        const cls = classOf(s, i);
        if (isAlnum(cls)) {
          if (splitIdentifiers === true && cls === UPPER) {
            // camelCase hump: aB or 9B → split before B; ABc → split before B (HTMLParser → HTML|Parser).
            if (prev === LOWER || prev === DIGIT || (prev === UPPER && i + 1 < n && classOf(s, i + 1) === LOWER)) {
              sink(s.slice(start, i));
              start = i;
            }
          }
          prev = cls;
          i++;
        } else if (splitIdentifiers === false && cls === JOINER) {
          // Join only if the joiners are followed by a letter or digit.
          let j = i + 1;
          while (j < n && classOf(s, j) === JOINER) j++;
          if (j < n && isAlnum(classOf(s, j))) {
            prev = classOf(s, j);
            i = j + 1;
          } else break;
        } else break;
      }
      sink(s.slice(start, i));
    }
  };

  const compute = (raw: string): string | null => {
    const lower = raw.toLowerCase();
    if (lower.length < minLength) return null;
    if (stop && STOP_SET.has(lower)) return null;
    if (!doStem) return lower;
    const stemmed = porter2(lower);
    return stemmed.length > 0 ? stemmed : null;
  };

  const term = (raw: string): string | null => {
    let t = memo.get(raw);
    if (t === undefined) {
      t = compute(raw);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(raw, t);
    }
    return t;
  };

  return { scan, term };
}

/** A tokenizer function for `opts`: text → final terms, in order (duplicates kept). */
export function makeTokenizer(opts: TokenizerOptions): (text: string) => string[] {
  const { scan, term } = makePipeline(opts);
  return (text) => {
    const out: string[] = [];
    scan(text, (raw) => {
      const t = term(raw);
      if (t !== null) out.push(t);
    });
    return out;
  };
}
