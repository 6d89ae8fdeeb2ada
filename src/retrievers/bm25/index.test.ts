import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Catalog, Tool } from '../../catalog/types.ts';
import { rankStable } from '../rank.ts';
import type { Hit } from '../types.ts';
import { Bm25Retriever, FIELD_NAMES, hermesRequiredTerms, type Admission, type Bm25Options, type FieldWeights } from './index.ts';
import { BM25_DEFAULT_OPTIONS, BM25_PLAIN_OPTIONS, BM25_FACTORIES, createBm25 } from './presets.ts';
import { idf, termWeight } from './score.ts';
import { makeTokenizer, type TokenizerOptions } from './tokenize.ts';

interface ToolSpec {
  id: string;
  name: string;
  description: string;
  title?: string;
  namespace?: string;
  summary?: string;
  examples?: string[];
  params?: string[];
}

function tool(s: ToolSpec): Tool {
  return {
    id: s.id,
    name: s.name,
    source: 'core',
    namespace: s.namespace ?? 'core',
    ...(s.title !== undefined ? { title: s.title } : {}),
    summary: s.summary ?? '',
    description: s.description,
    inputSchema: { type: 'object', properties: Object.fromEntries((s.params ?? []).map((p) => [p, { type: 'string' }])) },
    examples: s.examples ?? [],
    scopes: [],
    pinned: false,
    hash: '',
  };
}

const catalogOf = (tools: Tool[]): Catalog => ({ tools, skills: [], servers: [], plugins: [] });

const PLAIN_TOKENS: TokenizerOptions = { splitIdentifiers: 'punctuation', asciiFold: false, stopWords: 'none', stem: 'none', minLength: 1 };
const NAME_DESC: FieldWeights = { name: 1, namespace: 0, summary: 0, description: 1, examples: 0, params: 0 };
const PLAIN: Bm25Options = { params: { k1: 1.2, b: 0.75 }, tokenizer: PLAIN_TOKENS, fields: NAME_DESC };

async function built(tools: Tool[], options: Bm25Options = PLAIN): Promise<Bm25Retriever> {
  const r = new Bm25Retriever('test', options);
  await r.index(catalogOf(tools));
  return r;
}

/*
 * Hand catalog, plain tokens over name + description (weight 1 each):
 *   search_issues  "search issues" + "Find issues."        → search 1, issues 2, find 1             dl 4
 *   create_issue   "create issue" + "Create a new issue."  → create 2, issue 2, a 1, new 1          dl 6
 *   list_repos     "list repos" + "List repositories."     → list 2, repos 1, repositories 1        dl 4
 *   search_code    "search code" + "Search code."          → search 2, code 2                       dl 4
 * N = 4, avgdl = 18 / 4 = 4.5.
 * idf(search: df 2) = ln(1 + 2.5/2.5) = ln 2 = 0.693147…;  idf(df 1) = ln(1 + 3.5/1.5) = ln(10/3) = 1.203973…
 * termWeight, k1 1.2, b 0.75: dl 4 → k1·(0.25 + 0.75·4/4.5) = 1.1; dl 6 → 1.2·(0.25 + 1) = 1.5
 *   tf 1, dl 4: 2.2/2.1 = 1.047619…;  tf 2, dl 4: 4.4/3.1 = 1.419355…;  tf 2, dl 6: 4.4/3.5 = 1.257143…
 */
const HAND = [
  tool({ id: 'search_issues', name: 'search_issues', description: 'Find issues.' }),
  tool({ id: 'create_issue', name: 'create_issue', description: 'Create a new issue.' }),
  tool({ id: 'list_repos', name: 'list_repos', description: 'List repositories.' }),
  tool({ id: 'search_code', name: 'search_code', description: 'Search code.' }),
];
// "search issues": search_issues = ln2·2.2/2.1 + ln(10/3)·4.4/3.1 = 0.726154… + 1.708865… = 2.435019…
const SEARCH_ISSUES = 2.4350188146529153;
// "search issues": search_code = ln2·4.4/3.1 = 0.983822…
const SEARCH_CODE = 0.983821804665729;

describe('Bm25Retriever on a hand catalog', () => {
  it('scores and orders exactly', async () => {
    const r = await built(HAND);
    const hits = await r.search('search issues', { k: 10 });
    expect(hits.map((h) => h.id)).toEqual(['search_issues', 'search_code']);
    expect(hits[0]!.score).toBeCloseTo(SEARCH_ISSUES, 12);
    expect(hits[1]!.score).toBeCloseTo(SEARCH_CODE, 12);
    // "create issue": only create_issue = 2 · ln(10/3) · 4.4/3.5 = 3.027132…; "issue" ≠ "issues" without stemming.
    const create = await r.search('Create ISSUE', { k: 10 });
    expect(create).toHaveLength(1);
    expect(create[0]!.id).toBe('create_issue');
    expect(create[0]!.score).toBeCloseTo(3.027131622305211, 12);
    expect(r.stats()).toEqual({ tools: 4, terms: 11, postings: 12, avgdl: 4.5 });
  });

  it('counts every occurrence of a query token', async () => {
    const r = await built(HAND);
    // "search search issues": search_issues = 2·ln2·2.2/2.1 + ln(10/3)·4.4/3.1 = 3.161173…
    const hits = await r.search('search search issues', { k: 10 });
    expect(hits[0]!.score).toBeCloseTo(3.1611730038109536, 12);
    expect(hits[1]!.score).toBeCloseTo(2 * SEARCH_CODE, 12);
  });

  it('truncates to k and returns nothing for k ≤ 0', async () => {
    const r = await built(HAND);
    expect((await r.search('search issues', { k: 1 })).map((h) => h.id)).toEqual(['search_issues']);
    expect(await r.search('search issues', { k: 0 })).toEqual([]);
    expect(await r.search('search issues', { k: -3 })).toEqual([]);
  });

  it('returns [] for an empty query, a query of unknown words, or of words the tokenizer drops', async () => {
    const r = await built(HAND);
    expect(await r.search('', { k: 10 })).toEqual([]);
    expect(await r.search('  ?! ', { k: 10 })).toEqual([]);
    expect(await r.search('zebra giraffe', { k: 10 })).toEqual([]);
    const stop = await built(HAND, { ...PLAIN, tokenizer: { ...PLAIN_TOKENS, stopWords: 'english' } });
    expect(await stop.search('a the of', { k: 10 })).toEqual([]);
    // …and the retriever is still clean afterwards (scratch state reset).
    expect((await r.search('search issues', { k: 10 }))[0]!.score).toBeCloseTo(SEARCH_ISSUES, 12);
  });

  it('honours the allowed mask before scoring; idf and avgdl stay those of the whole catalog', async () => {
    const r = await built(HAND);
    // search_issues is the best match but not allowed: it never appears.
    const hits = await r.search('search issues', { k: 10, allowed: Uint8Array.from([0, 1, 1, 1]) });
    expect(hits.map((h) => h.id)).toEqual(['search_code']);
    // N = 4 and df(search) = 2 still count the masked tool: the score is the unmasked one
    // (over the allowed subset alone it would be ln(1 + 2.5/1.5)·termWeight(2, 4, 14/3, …)).
    expect(hits[0]!.score).toBe((await r.search('search issues', { k: 10 }))[1]!.score);
    expect(await r.search('search issues', { k: 10, allowed: new Uint8Array(4) })).toEqual([]);
    // Only 1 means allowed.
    expect((await r.search('search', { k: 10, allowed: Uint8Array.from([2, 1, 1, 255]) })).map((h) => h.id)).toEqual([]);
    await expect(r.search('search', { k: 10, allowed: new Uint8Array(3) })).rejects.toThrow(/allowed mask has 3 entries/);
  });

  it('breaks equal scores by id in code-unit order, whatever the catalog order', async () => {
    const same = (id: string) => tool({ id, name: 'run_tests', description: 'Run the test suite.' });
    const r = await built([same('zeta'), same('alpha'), same('Beta'), tool({ id: 'aaa', name: 'other', description: 'Something else.' })]);
    const hits = await r.search('run tests', { k: 10 });
    expect(hits.map((h) => h.id)).toEqual(['Beta', 'alpha', 'zeta']); // 'B' (66) < 'a' (97)
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    expect((await r.search('run tests', { k: 2 })).map((h) => h.id)).toEqual(['Beta', 'alpha']);
    expect((await r.search('run tests', { k: 2, allowed: Uint8Array.from([1, 1, 0, 1]) })).map((h) => h.id)).toEqual(['alpha', 'zeta']);
  });

  it('refuses to search before index(), and re-indexing replaces the index', async () => {
    const r = new Bm25Retriever('test', PLAIN);
    await expect(r.search('x', { k: 1 })).rejects.toThrow(/before index/);
    await r.index(catalogOf(HAND));
    await r.index(catalogOf([tool({ id: 'only', name: 'only', description: 'zebra' })]));
    expect(await r.search('search issues', { k: 10 })).toEqual([]);
    expect((await r.search('zebra', { k: 10 })).map((h) => h.id)).toEqual(['only']);
    await r.index(catalogOf([]));
    expect(await r.search('zebra', { k: 10 })).toEqual([]);
    expect(r.stats()).toEqual({ tools: 0, terms: 0, postings: 0, avgdl: 1 });
  });
});

/*
 * Weighted fields, Backpack's tokenizer (split, fold, stop words, Porter2), summary not indexed:
 *   weights name 3, namespace 1, summary 0, description 1, examples 1, params 0.5
 *   createIssue: name "createIssue" + title "Create Issue" → creat 2, issu 2 (×3 = 6 each, len 12);
 *                namespace gh (1); description "Opens a ticket." → open, ticket (2);
 *                examples "file a bug" → file, bug (2); params title, body → titl, bodi (×0.5: len 1)
 *                dl = 12 + 1 + 2 + 2 + 1 = 18
 *   listIssues:  name list, issu (×3: len 6); namespace gh (1); description "Lists issues in a repo." →
 *                list, issu, repo (3); params repo (×0.5: 0.5)                 dl = 10.5
 *   N = 2, avgdl = 14.25
 */
const WEIGHTED: Bm25Options = {
  params: { k1: 1.2, b: 0.75 },
  tokenizer: { splitIdentifiers: true, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1 },
  fields: { name: 3, namespace: 1, summary: 0, description: 1, examples: 1, params: 0.5 },
};
const GH = [
  tool({
    id: 'mcp__gh__createIssue',
    name: 'createIssue',
    title: 'Create Issue',
    namespace: 'gh',
    summary: 'Raise a report.',
    description: 'Opens a ticket.',
    examples: ['file a bug'],
    params: ['title', 'body'],
  }),
  tool({ id: 'mcp__gh__listIssues', name: 'listIssues', namespace: 'gh', description: 'Lists issues in a repo.', params: ['repo'] }),
];

describe('Bm25Retriever with weighted fields', () => {
  it('sums w_f·tf_f into tf and w_f·len_f into dl', async () => {
    const r = await built(GH, WEIGHTED);
    expect(r.stats().avgdl).toBe(14.25);
    // "issues": idf(df 2) = ln(1 + 0.5/2.5) = ln 1.2 = 0.182322…
    //   createIssue: tf 6, dl 18: k1·(0.25 + 0.75·18/14.25) = 1.436842…; 6·2.2/7.436842… = 1.774938…; × ln 1.2 = 0.323611…
    //   listIssues:  tf 3 + 1 = 4, dl 10.5: 0.963158…; 8.8/4.963158… = 1.773065…; × ln 1.2 = 0.323268…
    const issues = await r.search('issues', { k: 10 });
    expect(issues.map((h) => h.id)).toEqual(['mcp__gh__createIssue', 'mcp__gh__listIssues']);
    expect(issues[0]!.score).toBeCloseTo(0.32361108594425914, 12);
    expect(issues[1]!.score).toBeCloseTo(0.3232679140609673, 12);
    // "repository"? no: Porter2 "repo" only. "repo": listIssues tf 1 + 0.5 = 1.5: ln2 · 3.3/2.463158… = 0.928639…
    expect(await r.search('repo', { k: 10 })).toEqual([{ id: 'mcp__gh__listIssues', score: expect.closeTo(0.9286394919040294, 12) }]);
    // A parameter name (tf 0.5): ln2 · 1.1/1.936842… = 0.393662…; an example word (tf 1): ln2 · 2.2/2.436842… = 0.625779…
    expect(await r.search('Title', { k: 10 })).toEqual([{ id: 'mcp__gh__createIssue', score: expect.closeTo(0.3936623933071429, 12) }]);
    expect(await r.search('bugs', { k: 10 })).toEqual([{ id: 'mcp__gh__createIssue', score: expect.closeTo(0.6257786640908362, 12) }]);
    // Weight 0: the summary is not indexed.
    expect(await r.search('report', { k: 10 })).toEqual([]);
  });
});

/*
 * 'hermes' admission (Hermes Agent's `search_catalog`, `tools/tool_search_catalog.py` @13a4e497),
 * plain tokens over name + description.
 * Tools (name = id; description adds the words after it):
 *   gmail_send     "Send an email."            gmail send | send an email
 *   incident_email "Email the incident team."  incident email | email the incident team
 *   slack_send     "Send a message."           slack send | send a message
 *   gmail_search   "Search email threads."     gmail search | search email threads
 * df: email 3; gmail 2, send 2; incident, slack, search, team, message, threads, an, the, a 1. N = 4.
 */
const HERMES_PLAIN: Bm25Options = { ...PLAIN, params: { k1: 1.5, b: 0.75 }, admission: 'hermes' };
const MAIL = [
  tool({ id: 'gmail_send', name: 'gmail_send', description: 'Send an email.' }),
  tool({ id: 'incident_email', name: 'incident_email', description: 'Email the incident team.' }),
  tool({ id: 'slack_send', name: 'slack_send', description: 'Send a message.' }),
  tool({ id: 'gmail_search', name: 'gmail_search', description: 'Search email threads.' }),
];
/*
 * Coverage catalog, description only (names are single made-up words no query uses):
 *   t1 alpha beta gamma   t2 alpha delta   t3 alpha omega   t4 beta gamma delta   t5 beta gamma delta omega
 * df: alpha, beta, gamma, delta 3; omega 2.
 */
const COVER = [
  ['t1', 'alpha beta gamma'],
  ['t2', 'alpha delta'],
  ['t3', 'alpha omega'],
  ['t4', 'beta gamma delta'],
  ['t5', 'beta gamma delta omega'],
].map(([id, description]) => tool({ id: id!, name: `n${id}`, description: description! }));

const idsOf = (hits: Hit[]) => hits.map((h) => h.id).sort();

describe("Bm25Retriever with 'hermes' admission", () => {
  it('admits only documents with the gate token (highest idf, first in query order on a tie)', async () => {
    const r = await built(MAIL, HERMES_PLAIN);
    const any = await built(MAIL, { ...HERMES_PLAIN, admission: 'any-term' });
    // "send gmail email": send and gmail both df 2 → gate "send" (first); 3 answerable → 1 term suffices.
    expect(idsOf(await r.search('send gmail email', { k: 10 }))).toEqual(['gmail_send', 'slack_send']);
    // Same words, gmail first → gate "gmail".
    expect(idsOf(await r.search('gmail send email', { k: 10 }))).toEqual(['gmail_search', 'gmail_send']);
    // any-term returns all four (incident_email shares only "email"); admission never changes a score.
    const all = await any.search('send gmail email', { k: 10 });
    expect(all).toHaveLength(4);
    for (const h of await r.search('send gmail email', { k: 10 })) expect(h.score).toBe(all.find((a) => a.id === h.id)!.score);
    // A single rare word gates itself.
    expect(idsOf(await r.search('incident', { k: 10 }))).toEqual(['incident_email']);
  });

  it('admits nothing when a query token is in no document (df 0 has the highest idf)', async () => {
    const r = await built(MAIL, HERMES_PLAIN);
    expect(await r.search('send gmail zebra', { k: 10 })).toEqual([]);
    expect(await r.search('zebra', { k: 10 })).toEqual([]);
    expect(await r.search('', { k: 10 })).toEqual([]);
    // The unknown token decides even after known ones, and the scratch state is clean afterwards.
    expect(await r.search('email email zebra', { k: 10 })).toEqual([]);
    expect(idsOf(await r.search('email', { k: 10 }))).toEqual(['gmail_search', 'gmail_send', 'incident_email']);
    // A stop word the tokenizer drops is not a query token, so it cannot be an unknown gate.
    const stop = await built(MAIL, { ...HERMES_PLAIN, tokenizer: { ...PLAIN_TOKENS, stopWords: 'english' } });
    expect(idsOf(await stop.search('send with gmail', { k: 10 }))).toEqual(['gmail_send', 'slack_send']);
    expect(await r.search('send with gmail', { k: 10 })).toEqual([]); // no stop words: "with" is unknown
  });

  it('applies the coverage floor from exactly 4 answerable terms', async () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(hermesRequiredTerms)).toEqual([1, 1, 1, 1, 2, 3, 3, 4]);
    const r = await built(COVER, HERMES_PLAIN);
    // 3 answerable → 1 required; gate alpha (all df 3, first): t1, t2, t3.
    expect(idsOf(await r.search('alpha beta gamma', { k: 10 }))).toEqual(['t1', 't2', 't3']);
    // Duplicates do not raise the floor (answerable is unique terms).
    expect(idsOf(await r.search('alpha alpha beta gamma', { k: 10 }))).toEqual(['t1', 't2', 't3']);
    // 4 answerable → 2 required: t1 has 3, t2 has exactly 2 (alpha, delta), t3 only alpha.
    expect(idsOf(await r.search('alpha beta gamma delta', { k: 10 }))).toEqual(['t1', 't2']);
    // 5 answerable → 3 required; gate omega (df 2): t3 has 2 (alpha, omega), t5 has 4.
    expect(idsOf(await r.search('alpha beta gamma delta omega', { k: 10 }))).toEqual(['t5']);
    // 3 known + 1 unknown: the unknown token is the gate, nothing is admitted.
    expect(await r.search('alpha beta gamma zebra', { k: 10 })).toEqual([]);
  });

  it('honours the mask before admission; df stays that of the whole catalog', async () => {
    const r = await built(COVER, HERMES_PLAIN);
    // t1 masked: alpha's df is still 3, gate still alpha, t2 still passes the floor.
    expect(idsOf(await r.search('alpha beta gamma delta', { k: 10, allowed: Uint8Array.from([0, 1, 1, 1, 1]) }))).toEqual(['t2']);
    expect(await r.search('alpha beta gamma delta', { k: 10, allowed: new Uint8Array(5) })).toEqual([]);
    expect((await r.search('alpha beta gamma', { k: 2 })).length).toBe(2);
  });

  it('describes the admission only when it is not the default', () => {
    expect(new Bm25Retriever('x', PLAIN).describe()).not.toHaveProperty('admission');
    expect(new Bm25Retriever('x', { ...PLAIN, admission: 'any-term' }).describe()).toEqual(new Bm25Retriever('x', PLAIN).describe());
    expect(new Bm25Retriever('x', HERMES_PLAIN).describe()).toMatchObject({ admission: 'hermes', returns: expect.stringMatching(/gate token/) });
    expect(() => new Bm25Retriever('x', { ...PLAIN, admission: 'all' as Admission })).toThrow(/admission must be one of/);
  });
});

describe('presets and describe()', () => {
  it('createBm25 picks the preset by name and lays options over it', () => {
    expect(createBm25('bm25').describe()).toMatchObject({ name: 'bm25', ...BM25_DEFAULT_OPTIONS });
    expect(createBm25('bm25-plain').describe()).toMatchObject({ name: 'bm25-plain', ...BM25_PLAIN_OPTIONS });
    expect(createBm25('custom').describe()).toMatchObject(BM25_DEFAULT_OPTIONS);
    const d = createBm25('bm25-plain', { params: { k1: 1.5 }, fields: { params: 1 } }).describe();
    expect(d).toMatchObject({ params: { k1: 1.5, b: 0.75 }, fields: { ...BM25_PLAIN_OPTIONS.fields, params: 1 }, tokenizer: BM25_PLAIN_OPTIONS.tokenizer });
    expect(BM25_FACTORIES['bm25-plain'].create('x').describe()).toMatchObject({ name: 'x', ...BM25_PLAIN_OPTIONS });
    expect(BM25_FACTORIES.bm25.create('bm25').name).toBe('bm25');
  });

  it('the presets are as documented', () => {
    // Chosen on the train splits of MetaTool and the generated small-11 catalog (scripts/tune-on-train.ts, docs/tuning.md).
    expect(BM25_DEFAULT_OPTIONS).toEqual({
      params: { k1: 3, b: 0.15 },
      tokenizer: { splitIdentifiers: true, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1 },
      fields: { name: 6, namespace: 2, summary: 1, description: 1, examples: 1, params: 0 },
    });
    expect(BM25_PLAIN_OPTIONS).toEqual({
      params: { k1: 1.2, b: 0.75 },
      tokenizer: { splitIdentifiers: 'punctuation', asciiFold: false, stopWords: 'none', stem: 'none', minLength: 1 },
      fields: { name: 1, namespace: 0, summary: 0, description: 1, examples: 0, params: 0 },
    });
  });

  it('rejects out-of-range options', () => {
    expect(() => createBm25('bm25', { params: { b: 2 } })).toThrow(RangeError);
    expect(() => createBm25('bm25', { fields: { name: -1 } })).toThrow(/field weight "name"/);
    expect(() => createBm25('bm25', { fields: { title: 1 } as Partial<FieldWeights> })).toThrow(/unknown field "title"/);
    expect(() => createBm25('bm25', { tokenizer: { minLength: 0 } })).toThrow(/minLength/);
  });
});

/*
 * Property test against a brute-force oracle: every document scored with plain loops in float64,
 * summing idf·termWeight over the query token occurrences in query order (the order the index
 * accumulates in), weighted tf and dl summed field by field in FIELD_NAMES order, then
 * `rankStable` and a cut at k. Ids and scores must be identical.
 */
function oracleFieldTexts(t: Tool): string[][] {
  const props = (t.inputSchema.properties ?? {}) as Record<string, unknown>;
  return [t.title !== undefined ? [t.name, t.title] : [t.name], [t.namespace], [t.summary], [t.description], t.examples, Object.keys(props)];
}

function oracle(tools: Tool[], o: Bm25Options, query: string, allowed: Uint8Array | undefined, k: number): Hit[] {
  const tokenize = makeTokenizer(o.tokenizer);
  const weights = FIELD_NAMES.map((f) => o.fields[f]);
  const docs = tools.map((t) => {
    const tf = new Map<string, number>();
    let dl = 0;
    oracleFieldTexts(t).forEach((texts, f) => {
      const w = weights[f]!;
      if (w === 0) return;
      const counts = new Map<string, number>();
      let len = 0;
      for (const text of texts) {
        for (const term of tokenize(text)) {
          counts.set(term, (counts.get(term) ?? 0) + 1);
          len++;
        }
      }
      for (const [term, c] of counts) tf.set(term, (tf.get(term) ?? 0) + w * c);
      dl += w * len;
    });
    return { tf, dl };
  });
  const N = tools.length;
  const sumDl = docs.reduce((s, d) => s + d.dl, 0);
  const avgdl = N > 0 && sumDl > 0 ? sumDl / N : 1;
  const df = (term: string) => docs.filter((d) => d.tf.has(term)).length;
  const q = tokenize(query);
  // 'hermes' admission, written out as upstream does it: gate = max by idf (first on ties), answerable = unique terms with df > 0.
  let admit = (_d: (typeof docs)[number]): boolean => true;
  if ((o.admission ?? 'any-term') === 'hermes' && q.length > 0) {
    let gate = q[0]!;
    for (const t of q) if (idf(N, df(t)) > idf(N, df(gate))) gate = t;
    const answerable = [...new Set(q)].filter((t) => df(t) > 0);
    const required = answerable.length < 4 ? 1 : Math.ceil(answerable.length * 0.5);
    admit = (d) => d.tf.has(gate) && answerable.filter((t) => d.tf.has(t)).length >= required;
  }
  const hits: Hit[] = [];
  docs.forEach((d, i) => {
    if (allowed !== undefined && allowed[i] !== 1) return;
    if (!admit(d)) return;
    let score = 0;
    let matched = false;
    for (const term of q) {
      const tf = d.tf.get(term);
      if (tf === undefined) continue;
      matched = true;
      score += idf(N, df(term)) * termWeight(tf, d.dl, avgdl, o.params.k1, o.params.b);
    }
    if (matched && score > 0) hits.push({ id: tools[i]!.id, score });
  });
  return rankStable(hits).slice(0, Math.max(0, k));
}

const VOCAB = [
  'create',
  'issue',
  'Issues',
  'create_issue',
  'listRepos',
  'the',
  'a',
  'café',
  'search',
  'running',
  'runs',
  'x',
  'GitHub',
  'repo',
  'HTTPServer',
  'v2',
];
const text = fc.tuple(fc.array(fc.constantFrom(...VOCAB), { maxLength: 6 }), fc.constantFrom(' ', '_', '-', '.', ', ')).map(([words, sep]) => words.join(sep));
const toolArb = (id: string) =>
  fc
    .record({
      name: text,
      title: fc.option(text, { nil: undefined }),
      namespace: fc.constantFrom('core', 'github', 'gitHub', 'jira'),
      summary: text,
      description: text,
      examples: fc.array(text, { maxLength: 2 }),
      params: fc.uniqueArray(fc.constantFrom('repo', 'issue_id', 'pageSize', 'the', 'query'), { maxLength: 3 }),
    })
    .map((s) => tool({ id, ...s }));
const catalogArb = fc
  .uniqueArray(fc.stringMatching(/^[A-Za-z_]{1,4}$/), { minLength: 0, maxLength: 12 })
  .chain((ids) => (ids.length === 0 ? fc.constant([] as Tool[]) : fc.tuple(...ids.map(toolArb))));
const weight = fc.constantFrom(0, 0.3, 0.5, 1, 1.7, 3);
const optionsArb: fc.Arbitrary<Bm25Options> = fc.record({
  params: fc.record({ k1: fc.constantFrom(0, 0.5, 1.2, 2), b: fc.constantFrom(0, 0.3, 0.75, 1) }),
  tokenizer: fc.record({
    splitIdentifiers: fc.constantFrom(true, false, 'punctuation' as const),
    asciiFold: fc.boolean(),
    stopWords: fc.constantFrom('none' as const, 'english' as const),
    stem: fc.constantFrom('none' as const, 'porter2' as const),
    minLength: fc.constantFrom(1, 2, 3),
  }),
  fields: fc.record({ name: weight, namespace: weight, summary: weight, description: weight, examples: weight, params: weight }),
  admission: fc.constantFrom<Admission | undefined>(undefined, 'any-term', 'hermes'),
});

describe('Bm25Retriever against a brute-force oracle (property)', () => {
  it('gives exactly the oracle ranking and scores on random catalogs, queries, masks and k', async () => {
    await fc.assert(
      fc.asyncProperty(
        catalogArb,
        optionsArb,
        fc.array(
          fc.tuple(
            fc.array(fc.constantFrom(...VOCAB, 'unknown'), { maxLength: 6 }),
            fc.integer({ min: 0, max: 14 }),
            fc.option(fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), { nil: undefined }),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        async (tools, options, queries) => {
          const r = await built(tools, options);
          for (const [words, k, mask] of queries) {
            const query = words.join(' ');
            const allowed = mask === undefined ? undefined : Uint8Array.from(mask.slice(0, tools.length), (b) => (b ? 1 : 0));
            const got = await r.search(query, { k, ...(allowed !== undefined ? { allowed } : {}) });
            expect(got).toEqual(oracle(tools, options, query, allowed, k));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
