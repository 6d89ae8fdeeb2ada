/**
 * A configurable tokenizer pipeline for lexical retrieval:
 *
 *   text → [ASCII fold] → split into words (ASCII runs, or UAX#29 words) → lowercase
 *        → [drop tokens shorter than minLength] → [drop English stop words] → [Porter2 stem]
 *
 * With the default `segmenter: 'ascii-runs'`, tokens are runs of `[a-z0-9]` after lowercasing;
 * every other character (including any non-ASCII character left after folding, or all of them
 * when folding is off) separates tokens. The one exception is `splitIdentifiers: false`, which
 * keeps `_`, `.` and `-` *between* letters/digits inside the token (`create_issue` is one token).
 *
 * With `segmenter: 'uax29'`, words are the Unicode UAX#29 word segments that contain a letter or a
 * digit: the tokenizer of the `bm25` crate Codex uses (`unicode_words()`), see {@link Segmenter}.
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

/**
 * How text is cut into words:
 * - `'ascii-runs'` (default): the ASCII scanner described above, shaped by {@link SplitIdentifiers};
 * - `'uax29'`: Unicode UAX#29 word boundaries (`Intl.Segmenter('en', {granularity: 'word'})`),
 *   keeping the word-like segments that contain a letter or digit, like Rust's
 *   `unicode-segmentation` `unicode_words()` (Codex's `bm25` crate). Consequences: `_` never splits
 *   (`create_issue` is one word); `.`, `'` and `:` join letters (`a.b`, `don't`, `a:b`); `.`, `,`,
 *   `;` and `'` join digits (`3.14`, `1,000`); `-`, `/` and spaces split. With folding on, the curly
 *   quotes `‘ ’` become `'` first (as `deunicode` does), so `don’t` is the stop word `don't`.
 *   Requires `splitIdentifiers: false` (UAX#29 decides joins itself). ASCII text (after folding)
 *   takes an exact hand-written scanner of the UAX#29 rules for ASCII (≈ 30× faster than
 *   `Intl.Segmenter`, checked against it by a property test); only the space-delimited pieces with
 *   a non-ASCII character go through `Intl.Segmenter`.
 *   ICU's segmenter and Rust's `unicode-segmentation` may differ on rare non-ASCII cases.
 */
export type Segmenter = 'ascii-runs' | 'uax29';

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
  /** See {@link Segmenter}; default `'ascii-runs'`. */
  segmenter?: Segmenter;
}

/**
 * NLTK's English stop-word list (179 words, the list of the `stop-words` crate Codex uses). Under
 * the `'ascii-runs'` segmenter the entries with an apostrophe can never equal a token (`don't` is
 * `don` + `t`, both listed); under `'uax29'` they can (`don't` is one word, and a stop word).
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
  const seg = o.segmenter ?? 'ascii-runs';
  if (seg !== 'ascii-runs' && seg !== 'uax29') throw new RangeError(`segmenter must be 'ascii-runs' or 'uax29' (got ${JSON.stringify(o.segmenter)})`);
  if (seg === 'uax29' && o.splitIdentifiers !== false) {
    throw new RangeError(`segmenter 'uax29' decides word joins itself: splitIdentifiers must be false (got ${JSON.stringify(o.splitIdentifiers)})`);
  }
}

/** The two stages of a tokenizer, exposed so an index can memoise raw token → term id in one map. */
export interface TokenPipeline {
  /** Calls `sink` with each raw token of `text` in order: a slice of the (folded) text, original case, not yet filtered or stemmed. */
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
const CLASS = asciiTable(LOWER, UPPER, DIGIT, { _: JOINER, '.': JOINER, '-': JOINER });

/** A class per ASCII code: `lower` for a-z, `upper` for A-Z, `digit` for 0-9, `others[c]` for the characters listed, 0 for the rest. */
function asciiTable(lower: number, upper: number, digit: number, others: Record<string, number>): Uint8Array {
  const table = new Uint8Array(128);
  for (let c = 97; c <= 122; c++) table[c] = lower;
  for (let c = 65; c <= 90; c++) table[c] = upper;
  for (let c = 48; c <= 57; c++) table[c] = digit;
  for (const [ch, cls] of Object.entries(others)) table[ch.charCodeAt(0)] = cls;
  return table;
}

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

// UAX#29 word-break classes of the ASCII characters that matter (everything else breaks).
// class 0: everything else
const WB_ALETTER = 1; // A-Z a-z
const WB_NUMERIC = 2; // 0-9
const WB_EXTENDNUMLET = 3; // _
const WB_MIDLETTER = 4; // :
const WB_MIDNUM = 5; // , ;
const WB_MIDNUMLETQ = 6; // . (MidNumLet) and ' (Single_Quote)
const WB = asciiTable(WB_ALETTER, WB_ALETTER, WB_NUMERIC, {
  _: WB_EXTENDNUMLET,
  ':': WB_MIDLETTER,
  ',': WB_MIDNUM,
  ';': WB_MIDNUM,
  '.': WB_MIDNUMLETQ,
  "'": WB_MIDNUMLETQ,
});

/**
 * The UAX#29 words of an all-ASCII `s` that contain a letter or digit, in order. For ASCII the
 * rules reduce to: letters, digits and `_` join (WB5, WB8–WB10, WB13a/b); a letter, then `:` `.` or
 * `'`, then a letter join (WB6/7); a digit, then `,` `;` `.` or `'`, then a digit join (WB11/12);
 * everything else breaks (WB999). Segments of only `_` are dropped (`unicode_words()` keeps words
 * with an alphanumeric character).
 */
function scanAsciiUax29(s: string, sink: (raw: string) => void): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    let c = WB[s.charCodeAt(i)]!;
    if (c !== WB_ALETTER && c !== WB_NUMERIC && c !== WB_EXTENDNUMLET) {
      i++;
      continue;
    }
    const start = i;
    let alnum = c !== WB_EXTENDNUMLET;
    let prev = c;
    i++;
    while (i < n) {
      c = WB[s.charCodeAt(i)]!;
      if (c === WB_ALETTER || c === WB_NUMERIC || c === WB_EXTENDNUMLET) {
        if (c !== WB_EXTENDNUMLET) alnum = true;
        prev = c;
        i++;
        continue;
      }
      if (i + 1 < n) {
        const next = WB[s.charCodeAt(i + 1)]!;
        if (prev === WB_ALETTER && next === WB_ALETTER && (c === WB_MIDLETTER || c === WB_MIDNUMLETQ)) {
          i += 2;
          continue;
        }
        if (prev === WB_NUMERIC && next === WB_NUMERIC && (c === WB_MIDNUM || c === WB_MIDNUMLETQ)) {
          i += 2;
          continue;
        }
      }
      break;
    }
    if (alnum) sink(s.slice(start, i));
  }
}

const CURLY_APOSTROPHES = /[\u2018\u2019]/g;
const HAS_ALNUM = /[\p{Alphabetic}\p{N}]/u;
let wordSegmenter: Intl.Segmenter | undefined;

/**
 * UAX#29 words of `s` containing a letter or digit (Rust's `unicode_words()`). All-ASCII text takes
 * the ASCII scanner. Otherwise the text is cut at ASCII spaces, which no word spans (UAX#29 always
 * breaks before a space, and after one unless an Extend/Format/ZWJ follows, which then joins the
 * space's non-word segment), and only the pieces with a non-ASCII character go through
 * `Intl.Segmenter` (slow: ~3 µs per 10 characters).
 */
function scanUax29(s: string, sink: (raw: string) => void): void {
  if (!NON_ASCII.test(s)) {
    scanAsciiUax29(s, sink);
    return;
  }
  const n = s.length;
  let start = 0;
  while (start < n) {
    let end = s.indexOf(' ', start);
    if (end < 0) end = n;
    if (end > start) {
      const piece = s.slice(start, end);
      if (!NON_ASCII.test(piece)) scanAsciiUax29(piece, sink);
      else {
        wordSegmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
        for (const { segment, isWordLike } of wordSegmenter.segment(piece)) {
          if (isWordLike && HAS_ALNUM.test(segment)) sink(segment);
        }
      }
    }
    start = end + 1;
  }
}

/** Build the two pipeline stages for `opts` (validated). */
export function makePipeline(opts: TokenizerOptions): TokenPipeline {
  checkTokenizerOptions(opts);
  const { splitIdentifiers, minLength } = opts;
  const fold = opts.asciiFold;
  const stop = opts.stopWords === 'english';
  const doStem = opts.stem === 'porter2';
  const memo = new Map<string, string | null>();

  const scanAsciiRuns = (input: string, sink: (raw: string) => void): void => {
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

  const scan =
    (opts.segmenter ?? 'ascii-runs') === 'uax29'
      ? (input: string, sink: (raw: string) => void): void => {
          // deunicode turns curly quotes into ASCII ones; NFKD does not, so do it here.
          const s = fold ? asciiFold(input).replace(CURLY_APOSTROPHES, "'") : input;
          scanUax29(s, sink);
        }
      : scanAsciiRuns;

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
