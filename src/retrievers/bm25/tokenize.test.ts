import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiFold, checkTokenizerOptions, ENGLISH_STOP_WORDS, makePipeline, makeTokenizer, type TokenizerOptions } from './tokenize.ts';

/** Everything off: plain lowercase `[a-z0-9]+` runs. */
const PLAIN: TokenizerOptions = { splitIdentifiers: 'punctuation', asciiFold: false, stopWords: 'none', stem: 'none', minLength: 1 };
const tok = (text: string, o: Partial<TokenizerOptions> = {}): string[] => makeTokenizer({ ...PLAIN, ...o })(text);

const IDENTS = 'Create_Issue createIssue create-issue issues.create HTMLParser base64Encode';

describe('splitIdentifiers', () => {
  it("'punctuation': plain [a-z0-9]+ runs, camelCase kept whole", () => {
    expect(tok(IDENTS)).toEqual(['create', 'issue', 'createissue', 'create', 'issue', 'issues', 'create', 'htmlparser', 'base64encode']);
  });

  it('true: snake, camel, kebab and dotted names into parts; letters and digits stay together', () => {
    expect(tok(`${IDENTS} S3Bucket getURLForID`, { splitIdentifiers: true })).toEqual([
      'create',
      'issue',
      'create',
      'issue',
      'create',
      'issue',
      'issues',
      'create',
      'html',
      'parser',
      'base64',
      'encode',
      's3',
      'bucket',
      'get',
      'url',
      'for',
      'id',
    ]);
  });

  it('false: _ . - between letters/digits join (create_issue stays one token), camelCase not split', () => {
    expect(tok(`${IDENTS} mcp__github__create_issue end. e.g. _x_ a--b`, { splitIdentifiers: false })).toEqual([
      'create_issue',
      'createissue',
      'create-issue',
      'issues.create',
      'htmlparser',
      'base64encode',
      'mcp__github__create_issue',
      'end',
      'e.g',
      'x',
      'a--b',
    ]);
  });
});

describe('asciiFold', () => {
  const text = 'Café naïve ﬁle Ｆｕｌｌ straße';
  it('off: non-ASCII characters separate tokens', () => {
    expect(tok(text)).toEqual(['caf', 'na', 've', 'le', 'stra', 'e']);
  });
  it('on: NFKD and combining marks stripped (ß has no decomposition, so it still separates)', () => {
    expect(tok(text, { asciiFold: true })).toEqual(['cafe', 'naive', 'file', 'full', 'stra', 'e']);
    expect(asciiFold('Crème brûlée')).toBe('Creme brulee');
    expect(asciiFold('plain')).toBe('plain');
  });
});

describe('stopWords', () => {
  const text = "I don't want the issues of THE repo, it's fine";
  it("'none' keeps every token", () => {
    expect(tok(text)).toEqual(['i', 'don', 't', 'want', 'the', 'issues', 'of', 'the', 'repo', 'it', 's', 'fine']);
  });
  it("'english' drops NLTK's 179 stop words (case-insensitive)", () => {
    expect(tok(text, { stopWords: 'english' })).toEqual(['want', 'issues', 'repo', 'fine']);
    expect(ENGLISH_STOP_WORDS).toHaveLength(179);
    expect(new Set(ENGLISH_STOP_WORDS).size).toBe(179);
  });
  it('drops before stemming: a stemmed form of a stop word is not a stop word', () => {
    // "having" is a stop word; "haves" is not, and stems to "have".
    expect(tok('having haves', { stopWords: 'english', stem: 'porter2' })).toEqual(['have']);
  });
});

describe('stem', () => {
  const text = 'running issues created repositories generously create_issue';
  it("'none' keeps surface forms", () => {
    expect(tok(text)).toEqual(['running', 'issues', 'created', 'repositories', 'generously', 'create', 'issue']);
  });
  it("'porter2' stems with Snowball English", () => {
    expect(tok(text, { stem: 'porter2' })).toEqual(['run', 'issu', 'creat', 'repositori', 'generous', 'creat', 'issu']);
  });
});

describe('minLength', () => {
  it('1 keeps everything; 3 drops shorter tokens (checked before stemming)', () => {
    expect(tok('a an the issue id go x1 abc')).toEqual(['a', 'an', 'the', 'issue', 'id', 'go', 'x1', 'abc']);
    expect(tok('a an the issue id go x1 abc', { minLength: 3 })).toEqual(['the', 'issue', 'abc']);
  });
});

describe('the whole pipeline', () => {
  it("Backpack's default: split, fold, stop words, Porter2", () => {
    const o: TokenizerOptions = { splitIdentifiers: true, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1 };
    expect(makeTokenizer(o)('Create a GitHub issue in the repo — café listPullRequests')).toEqual([
      'creat',
      'git',
      'hub',
      'issu',
      'repo',
      'cafe',
      'list',
      'pull',
      'request',
    ]);
  });

  it('empty and separator-only texts give no tokens; duplicates are kept in order', () => {
    expect(tok('')).toEqual([]);
    expect(tok(' -- !! ')).toEqual([]);
    expect(tok('b a b')).toEqual(['b', 'a', 'b']);
  });

  it('the pipeline stages: scan gives raw ASCII slices, term filters and stems (memoised)', () => {
    const p = makePipeline({ ...PLAIN, splitIdentifiers: true, stopWords: 'english', stem: 'porter2' });
    const raw: string[] = [];
    p.scan('The listIssues', (r) => raw.push(r));
    expect(raw).toEqual(['The', 'list', 'Issues']);
    expect(raw.map((r) => p.term(r))).toEqual([null, 'list', 'issu']);
    expect(p.term('Issues')).toBe('issu');
  });

  it('rejects invalid options', () => {
    expect(() => checkTokenizerOptions({ ...PLAIN, minLength: 0 })).toThrow(/minLength/);
    expect(() => checkTokenizerOptions({ ...PLAIN, minLength: 1.5 })).toThrow(RangeError);
    expect(() => makeTokenizer({ ...PLAIN, stem: 'snowball' as 'porter2' })).toThrow(/stem/);
    expect(() => makeTokenizer({ ...PLAIN, stopWords: 'french' as 'english' })).toThrow(/stopWords/);
    expect(() => makeTokenizer({ ...PLAIN, splitIdentifiers: 'yes' as unknown as boolean })).toThrow(/splitIdentifiers/);
  });
});

describe("segmenter 'uax29' (Codex's bm25 crate: UAX#29 unicode_words)", () => {
  const UAX: TokenizerOptions = { ...PLAIN, splitIdentifiers: false, segmenter: 'uax29' };
  const raw = (text: string, o: Partial<TokenizerOptions> = {}): string[] => {
    const out: string[] = [];
    makePipeline({ ...UAX, ...o }).scan(text, (r) => out.push(r));
    return out;
  };
  /** The oracle: Intl.Segmenter's word-like segments that contain a letter or digit. */
  const oracle = (text: string): string[] =>
    [...new Intl.Segmenter('en', { granularity: 'word' }).segment(text)]
      .filter((s) => s.isWordLike && /[\p{Alphabetic}\p{N}]/u.test(s.segment))
      .map((s) => s.segment);

  it("underscore never splits; . : and ' join letters; , ; . and ' join digits; - / and spaces split", () => {
    expect(raw("Create_Issue mcp__github__create_issue a.b a:b don't e.g. 3.14 1,000 v1.2 a,b hello-world x/y ___ _x_ a_.b")).toEqual([
      'Create_Issue',
      'mcp__github__create_issue',
      'a.b',
      'a:b',
      "don't",
      'e.g',
      '3.14',
      '1,000',
      'v1.2',
      'a',
      'b',
      'hello',
      'world',
      'x',
      'y',
      '_x_',
      'a_',
      'b',
    ]);
  });

  it("is the default 'ascii-runs' unless asked, and existing options keep their output", () => {
    expect(tok('create_issue a.b')).toEqual(['create', 'issue', 'a', 'b']);
    expect(tok('create_issue a.b', { segmenter: 'ascii-runs' })).toEqual(['create', 'issue', 'a', 'b']);
  });

  it("the whole Codex pipeline: fold, lowercase, NLTK stop words (don't is one word and a stop word), Porter2", () => {
    const codex = makeTokenizer({ splitIdentifiers: false, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1, segmenter: 'uax29' });
    expect(codex("Don't create_issue in the Café repos — don’t")).toEqual(['create_issu', 'cafe', 'repo']);
    // Under ascii-runs "don't" is don + t, both stop words too, but "create_issue" splits.
    expect(makeTokenizer({ splitIdentifiers: true, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1 })("Don't create_issue")).toEqual([
      'creat',
      'issu',
    ]);
  });

  it('non-ASCII text goes through Intl.Segmenter (word-like segments with a letter or digit)', () => {
    expect(raw('straße café 🦀 x', { asciiFold: false })).toEqual(['straße', 'café', 'x']);
    expect(raw('straße café 🦀 x', { asciiFold: true })).toEqual(['straße', 'cafe', 'x']);
    expect(raw('naïve_ü.v', { asciiFold: false })).toEqual(oracle('naïve_ü.v'));
  });

  it('the ASCII scanner equals Intl.Segmenter on random ASCII text (property)', () => {
    const ch = fc.constantFrom(...'aZq09_.\':,;- "\n\t\r/!@'.split(''));
    fc.assert(
      fc.property(
        fc.array(ch, { maxLength: 16 }).map((a) => a.join('')),
        (text) => {
          expect(raw(text)).toEqual(oracle(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('mixed text, cut at spaces with only non-ASCII pieces segmented by Intl, equals Intl.Segmenter on the whole (property)', () => {
    const ch = fc.constantFrom(
      ...['a', 'Z', '0', '_', '.', "'", ':', ',', ' ', ' ', '-', 'é', 'ü', '—', '中', '文', '’', '\u0301', '\u200d', '🦀', '\u00a0', 'ß'],
    );
    fc.assert(
      fc.property(
        fc.array(ch, { maxLength: 16 }).map((a) => a.join('')),
        (text) => {
          expect(raw(text, { asciiFold: false })).toEqual(oracle(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('requires splitIdentifiers: false and a known segmenter', () => {
    expect(() => checkTokenizerOptions({ ...UAX, splitIdentifiers: true })).toThrow(/splitIdentifiers must be false/);
    expect(() => checkTokenizerOptions({ ...PLAIN, segmenter: 'icu' as 'uax29' })).toThrow(/segmenter/);
    expect(() => checkTokenizerOptions(UAX)).not.toThrow();
  });
});
