import { describe, expect, it } from 'vitest';
import { retrieverContract } from '../../test/contract/contract.ts';
import type { Catalog, Tool, ToolSource } from '../catalog/types.ts';
import { makeTool } from '../catalog/model.ts';
import { makeTokenizer } from '../retrievers/bm25/tokenize.ts';
import {
  clipDescription,
  createHermesProfile,
  EMPTY_RESULT_HINT,
  EXACT_NAME_SCORE,
  HERMES_BM25_OPTIONS,
  hermesSearchText,
  HERMES_DEFERRAL,
  type HermesProfile,
  LISTING_HEADER,
  searchResultObjectText,
  searchResultText,
  toolRecord,
  toolSearchDescription,
  HermesSearcher,
} from './hermes/index.ts';
import { isDeferrable as isDeferrableWith } from './deferral.ts';
import { createProfile } from './registry.ts';

const isDeferrable = (t: Tool) => isDeferrableWith(t, HERMES_DEFERRAL);

const hermesSearcher = (name: string, options: { retryKnownWords?: boolean } = {}) => new HermesSearcher(name, options);

interface Spec {
  id: string;
  source: ToolSource;
  server?: string;
  plugin?: string;
  description: string;
  params?: string[];
  required?: unknown[];
}

function tool(s: Spec): Tool {
  const name = s.id.split('__').pop()!;
  return {
    id: s.id,
    name,
    source: s.source,
    ...(s.server !== undefined ? { server: s.server } : {}),
    ...(s.plugin !== undefined ? { plugin: s.plugin } : {}),
    namespace: s.server ?? s.plugin ?? 'core',
    summary: '',
    description: s.description,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries((s.params ?? []).map((p) => [p, { type: 'string' }])),
      ...(s.required ? { required: s.required } : {}),
    },
    examples: [],
    scopes: [],
    pinned: false,
    hash: '',
  };
}

const catalogOf = (tools: Tool[]): Catalog => ({ tools, skills: [], servers: [], plugins: [] });
const mask = (bits: number[]) => Uint8Array.from(bits);

/*
 * Hand catalog (indexed text → Hermes tokens, Porter2):
 *   T1 mcp__mail__send_email      "Send an email."            mail send email send an email              dl 6
 *   T2 mcp__mail__search_email    "Search email threads."     mail search email search email thread      dl 6
 *   T3 mcp__pager__page_incident  "Email the incident team."  pager page incid email the incid team      dl 7
 *   T4 mcp__chat__send_message    "Send a message."           chat send messag send a messag             dl 6
 * (the server is a word of each name, so no label is added). Core tools are not indexed.
 * N = 4, avgdl = 25/4 = 6.25; df: email 3; mail 2, send 2; every other term 1.
 * idf(df 2) = ln 2 = 0.693147…, idf(df 3) = ln(10/7) = 0.356675…
 * termWeight k1 1.5, b 0.75, dl 6: K = 1.5·(0.25 + 0.75·6/6.25) = 1.455; tf 2: 5/3.455 = 1.447178…
 * "send email": gate send (df 2 beats email's 3) → T1, T4 (2 answerable → 1 term suffices)
 *   T1 = (ln 2 + ln(10/7))·1.447178… = 1.519279…;  T4 = ln 2·1.447178… = 1.003107…
 */
const BASH = tool({ id: 'bash', source: 'core', description: 'Run a shell command.', params: ['command'] });
const READ = tool({ id: 'read_file', source: 'core', description: 'Read a file.', params: ['path'] });
const T1 = tool({ id: 'mcp__mail__send_email', source: 'mcp', server: 'mail', description: 'Send an email.' });
const T2 = tool({ id: 'mcp__mail__search_email', source: 'mcp', server: 'mail', description: 'Search email threads.' });
const T3 = tool({ id: 'mcp__pager__page_incident', source: 'mcp', server: 'pager', description: 'Email the incident team.' });
const T4 = tool({ id: 'mcp__chat__send_message', source: 'mcp', server: 'chat', description: 'Send a message.' });
const HAND = [BASH, T1, READ, T2, T3, T4];

describe('hermes: deferral and indexed text', () => {
  it('defers MCP and plugin tools, never core tools or the GUI-surface plugin toolsets', () => {
    expect(isDeferrable(BASH)).toBe(false);
    expect(isDeferrable(T1)).toBe(true);
    expect(isDeferrable(tool({ id: 'plugin__notes__add', source: 'plugin', plugin: 'notes', description: '' }))).toBe(true);
    for (const gui of ['desktop_ui', 'project', 'setup'])
      expect(isDeferrable(tool({ id: `plugin__${gui}__x`, source: 'plugin', plugin: gui, description: '' }))).toBe(false);
    // An MCP server a GUI plugin ships is still an mcp-* toolset: deferred.
    expect(isDeferrable(tool({ id: 'mcp__setup__x', source: 'mcp', server: 'setup', plugin: 'setup', description: '' }))).toBe(true);
  });

  it('builds _entry_search_text: name words, the label only if new, the description, top-level parameter names', () => {
    const gh = tool({ id: 'mcp__github__create_issue', source: 'mcp', server: 'github', description: 'Open an issue.', params: ['title', 'body'] });
    expect(hermesSearchText(gh)).toBe('github  create issue  Open an issue. title body');
    const drive = tool({ id: 'mcp__google-drive__list.files', source: 'mcp', server: 'google-drive', description: 'List files.' });
    expect(hermesSearchText(drive)).toBe('google drive  list files google-drive List files. ');
    const plug = tool({ id: 'plugin__clickup__create_task', source: 'plugin', plugin: 'clickup', description: 'Create a task.', params: ['list_id'] });
    expect(hermesSearchText(plug)).toBe('plugin  clickup  create task  Create a task. list_id');
    // Only a leading mcp__ is dropped; ':' also splits.
    expect(hermesSearchText(tool({ id: 'x:mcp__y', source: 'mcp', server: 'x', description: 'd' }))).toBe('x mcp  y  d ');
    expect(makeTokenizer(HERMES_BM25_OPTIONS.tokenizer)(hermesSearchText(T3))).toEqual(['pager', 'page', 'incid', 'email', 'the', 'incid', 'team']);
  });
});

describe('hermes: the searcher', () => {
  retrieverContract(() => hermesSearcher('hermes'), 'hermes');

  it('scores by hand and admits by the gate token', async () => {
    const s = hermesSearcher('hermes');
    await s.index(catalogOf(HAND));
    expect(await s.search('send email', { k: 5 })).toEqual([
      { id: 'mcp__mail__send_email', score: expect.closeTo(1.5192794855263063, 12) },
      { id: 'mcp__chat__send_message', score: expect.closeTo(1.0031073524745953, 12) },
    ]);
    // Gate "email" (df 3): T1 = T2 = ln(10/7)·1.447178… = 0.516172…, tie → id order; T3 tf 1, dl 7: 0.338401…
    expect(await s.search('email', { k: 5 })).toEqual([
      { id: 'mcp__mail__search_email', score: expect.closeTo(0.5161721330517111, 12) },
      { id: 'mcp__mail__send_email', score: expect.closeTo(0.5161721330517111, 12) },
      { id: 'mcp__pager__page_incident', score: expect.closeTo(0.3384012750841864, 12) },
    ]);
    // "incident email": gate incid (df 1) → only T3, though T1, T2 share "email".
    expect((await s.search('incident email', { k: 5 })).map((h) => h.id)).toEqual(['mcp__pager__page_incident']);
    // A word no deferred tool has (core tools are not indexed: "shell") admits nothing.
    expect(await s.search('send email please', { k: 5 })).toEqual([]);
    expect(await s.search('shell', { k: 5 })).toEqual([]);
    expect(await s.search('send email', { k: 1 })).toHaveLength(1);
  });

  it('applies the coverage floor at exactly 4 answerable terms', async () => {
    // Descriptions only matter; names mcp__s__tN add "s" (every doc) and "tN" (one each).
    const docs = ['alpha beta gamma', 'alpha delta', 'alpha omega', 'beta gamma delta', 'beta gamma delta omega'];
    const s = hermesSearcher('hermes');
    await s.index(catalogOf(docs.map((d, i) => tool({ id: `mcp__s__t${i + 1}`, source: 'mcp', server: 's', description: d }))));
    const ids = async (q: string) => (await s.search(q, { k: 10 })).map((h) => h.id).sort();
    // 3 answerable → 1 required (gate alpha, first of the df-3 tokens).
    expect(await ids('alpha beta gamma')).toEqual(['mcp__s__t1', 'mcp__s__t2', 'mcp__s__t3']);
    // 4 answerable → ceil(4/2) = 2: t2 (alpha, delta) is exactly at the floor, t3 (alpha) below.
    expect(await ids('alpha beta gamma delta')).toEqual(['mcp__s__t1', 'mcp__s__t2']);
  });

  it('returns an exact name first, even when the gate admits nothing, and once', async () => {
    const P = tool({ id: 'plugin__notes__send_note', source: 'plugin', plugin: 'notes', description: 'Send a note.' });
    const s = hermesSearcher('hermes');
    await s.index(catalogOf([...HAND, P]));
    // "mcp" is in no indexed text (the prefix is dropped), so BM25 admits nothing: the exact name still wins.
    expect(await s.search('mcp__mail__send_email', { k: 5 })).toEqual([{ id: 'mcp__mail__send_email', score: EXACT_NAME_SCORE }]);
    expect(await s.search('  MCP__Mail__Send_Email\n', { k: 5 })).toEqual([{ id: 'mcp__mail__send_email', score: EXACT_NAME_SCORE }]);
    // Admitted by BM25 too (gate "plugin"): listed once, with the exact-name score.
    expect(await s.search('plugin__notes__send_note', { k: 5 })).toEqual([{ id: 'plugin__notes__send_note', score: EXACT_NAME_SCORE }]);
    // The bare tool name is not the name the model sees: ordinary BM25 (gate send, df 3 with the note tool).
    const bare = await s.search('send_email', { k: 5 });
    expect(bare.map((h) => h.id)).toEqual(['mcp__mail__send_email', 'mcp__chat__send_message', 'plugin__notes__send_note']);
    expect(bare[0]!.score).toBeLessThan(10);
    // Not for a caller who may not see it; not for a core tool (not deferred).
    expect(await s.search('mcp__mail__send_email', { k: 5, allowed: mask([1, 0, 1, 1, 1, 1, 1]) })).toEqual([]);
    expect(await s.search('bash', { k: 5 })).toEqual([]);
  });

  it('maps the full-catalog mask onto the deferred tools, exactly', async () => {
    const s = hermesSearcher('hermes');
    await s.index(catalogOf(HAND));
    // Positions: 0 bash, 1 T1, 2 read_file, 3 T2, 4 T3, 5 T4.
    expect((await s.search('email', { k: 5, allowed: mask([1, 0, 1, 1, 1, 1]) })).map((h) => h.id)).toEqual([
      'mcp__mail__search_email',
      'mcp__pager__page_incident',
    ]);
    expect((await s.search('email', { k: 5, allowed: mask([0, 1, 0, 0, 0, 0]) })).map((h) => h.id)).toEqual(['mcp__mail__send_email']);
    // Masked statistics do not move: T1 scores as unmasked.
    expect((await s.search('send email', { k: 5, allowed: mask([0, 1, 0, 0, 0, 0]) }))[0]!.score).toBeCloseTo(1.5192794855263063, 12);
    expect(await s.search('email', { k: 5, allowed: mask([2, 2, 2, 2, 2, 2]) })).toEqual([]);
    await expect(s.search('email', { k: 5, allowed: mask([1, 1, 1]) })).rejects.toThrow(/6 tools/);
  });
});

describe('hermes: the exposure model', () => {
  const P = tool({ id: 'plugin__notes__send_note', source: 'plugin', plugin: 'notes', description: 'Send a note.' });
  const CAT = catalogOf([...HAND, P]); // 0 bash, 1 T1, 2 read_file, 3 T2, 4 T3, 5 T4, 6 P

  it('before any search: core tools eager, the three bridge tools, the listing as advertisement', async () => {
    const p = createHermesProfile('hermes');
    await p.index(CAT);
    expect(p.searchLimit).toBe(5);
    expect(p.searcher()).not.toBeNull();
    const b = p.beforeSearch({});
    expect(b.eager).toEqual(['bash', 'read_file']);
    expect(b.metaTools.map((t) => t.name)).toEqual(['tool_search', 'tool_describe', 'tool_call']);
    expect(b.metaTools[0]!.description).toBe(toolSearchDescription(5, 'full'));
    expect(b.metaTools[0]!.description).toMatch(/^Search 5 additional tools that are loaded on demand\. /);
    expect(b.metaTools[0]!.description).toMatch(/do NOT claim it is unavailable/);
    expect(b.advertisement).toBe(
      [
        LISTING_HEADER,
        'chat tools (1):',
        '- mcp__chat__send_message: Send a message.',
        'mail tools (2):',
        '- mcp__mail__search_email: Search email threads.',
        '- mcp__mail__send_email: Send an email.',
        'notes tools (1):',
        '- plugin__notes__send_note: Send a note.',
        'pager tools (1):',
        '- mcp__pager__page_incident: Email the incident team.',
      ].join('\n'),
    );
    expect(p.assembly({})).toMatchObject({ activated: true, deferredCount: 5, tier: 1, listingForm: 'full', listingBudget: 4000 });
    expect(JSON.parse(JSON.stringify(p.describe()))).toEqual(p.describe());
    expect(p.describe()).toMatchObject({ profile: 'hermes', listing: { unrestricted: { form: 'full', tier: 1, deferred: 5 } } });
  });

  it('honours the scope mask in the listing, in N and in the search answer', async () => {
    const p = createHermesProfile('hermes');
    await p.index(CAT);
    const caller = { allowed: mask([1, 1, 0, 0, 1, 0, 0]) }; // bash, T1, T3
    const b = p.beforeSearch(caller);
    expect(b.eager).toEqual(['bash']);
    expect(b.metaTools[0]!.description).toMatch(/^Search 2 additional tools/);
    expect(b.advertisement).toBe(
      [
        LISTING_HEADER,
        'mail tools (1):',
        '- mcp__mail__send_email: Send an email.',
        'pager tools (1):',
        '- mcp__pager__page_incident: Email the incident team.',
      ].join('\n'),
    );
    for (const hidden of ['search_email', 'send_message', 'send_note', 'read_file']) expect(b.advertisement).not.toContain(hidden);
    const hits = await p.searcher()!.search('send email', { k: p.searchLimit, allowed: caller.allowed });
    expect(hits.map((h) => h.id)).toEqual(['mcp__mail__send_email']);
    const after = p.afterSearch(hits, caller, 'send email');
    expect(after).toEqual({
      form: 'metadata',
      loaded: ['mcp__mail__send_email'],
      text:
        '{"queries": ["send email"], "total_available": 2, "results": [{"query": "send email", "matches": ["mcp__mail__send_email"]}], ' +
        '"tools": {"mcp__mail__send_email": {"source": "mcp", "source_name": "mcp-mail", "description": "Send an email.", "required": []}}}',
      // the model then describes the tool it picks (the top hit): its schema enters the context
      definitions: [
        { name: 'mcp__mail__send_email', description: 'Send an email.', inputSchema: CAT.tools.find((t) => t.id === 'mcp__mail__send_email')!.inputSchema },
      ],
    });
    // Nothing matched: the caller's sources only.
    expect(JSON.parse(p.afterSearch([], caller, '').text)).toEqual({
      queries: [''],
      total_available: 2,
      results: [
        {
          query: '',
          matches: [],
          available_sources: [
            { name: 'mail', tool_count: 1 },
            { name: 'pager', tool_count: 1 },
          ],
          hint: EMPTY_RESULT_HINT,
        },
      ],
      tools: {},
    });
    // A caller who sees no deferred tool gets no bridge at all.
    expect(p.beforeSearch({ allowed: mask([1, 0, 1, 0, 0, 0, 0]) })).toEqual({ eager: ['bash', 'read_file'], metaTools: [], advertisement: '' });
    expect(p.assembly({ allowed: mask([1, 0, 1, 0, 0, 0, 0]) })).toMatchObject({ activated: false, tier: 0, deferredCount: 0 });
  });

  it('degrades the listing with the context window, and turns off', async () => {
    const small = createHermesProfile('hermes', { contextWindow: 1000 }); // budget 50 tokens: even the summaries do not fit
    await small.index(CAT);
    const b = small.beforeSearch({});
    expect(b.advertisement).toBe('');
    expect(b.metaTools[0]!.description).toBe(toolSearchDescription(5, 'none'));
    expect(small.assembly({})).toMatchObject({ tier: 2, listingForm: 'none', listingBudget: 50, listingTokens: 0 });
    const bare = createHermesProfile('hermes', { listing: 'off' });
    await bare.index(CAT);
    expect(bare.assembly({})).toMatchObject({ activated: true, listingForm: 'none', tier: 2 });
    const off = createHermesProfile('hermes', { enabled: 'off' });
    await off.index(CAT);
    expect(off.searcher()).toBeNull();
    expect(off.beforeSearch({ allowed: mask([1, 1, 0, 0, 0, 0, 1]) })).toEqual({
      eager: ['bash', 'mcp__mail__send_email', 'plugin__notes__send_note'],
      metaTools: [],
      advertisement: '',
    });
    const coreOnly = createHermesProfile('hermes');
    await coreOnly.index(catalogOf([BASH, READ]));
    expect(coreOnly.searcher()).toBeNull();
    expect(coreOnly.beforeSearch({}).eager).toEqual(['bash', 'read_file']);
  });

  it('frames the listing by form', () => {
    expect(toolSearchDescription(3, 'none')).not.toMatch(/\n/);
    expect(toolSearchDescription(3, 'groups')).toMatch(/search here FIRST/);
    expect(toolSearchDescription(3, 'mixed')).toMatch(/names not listed', the tools exist too/);
    expect(toolSearchDescription(3, 'names')).not.toMatch(/names not listed/);
  });

  it('cuts result records as upstream: description 500 chars + …, required ≤ 32 names of ≤ 64 chars', () => {
    const long = tool({
      id: 'mcp__s__big',
      source: 'mcp',
      server: 's',
      description: 'd'.repeat(501),
      required: [...Array.from({ length: 40 }, (_, i) => `p${i}`), 7, 'x'.repeat(70)],
    });
    const r = toolRecord(long);
    expect(r.description).toBe(`${'d'.repeat(500)}…`);
    expect(r.required).toEqual(Array.from({ length: 32 }, (_, i) => `p${i}`));
    expect(toolRecord(tool({ id: 'plugin__p__t', source: 'plugin', plugin: 'p', description: 'x', required: [1, 'y'.repeat(70)] }))).toEqual({
      source: 'plugin',
      source_name: 'p',
      description: 'x',
      required: ['y'.repeat(64)],
    });
    expect(clipDescription('d'.repeat(500))).toBe('d'.repeat(500));
    expect(searchResultText('q', [], [{ name: 'x', tool_count: 0 }])).toBe(
      '{"queries": ["q"], "total_available": 0, "results": [{"query": "q", "matches": []}], "tools": {}}',
    );
  });

  it('the search result written piece by piece is the whole object through pyJson, repeated tools, odd ids and sources included', () => {
    const a = tool({ id: 'mcp__s__a', source: 'mcp', server: 's', description: 'Quote " and \\ and ünï 🙂 \n line.', required: ['x'] });
    const b = tool({ id: 'plugin__p__b"q', source: 'plugin', plugin: 'p', description: 'd'.repeat(600) });
    const numeric = tool({ id: '42', source: 'core', description: 'A core tool named by a number.' });
    const proto = tool({ id: '__proto__', source: 'core', description: 'x' });
    const sources = [
      { name: 'zeta', tool_count: 3 },
      { name: 'Alpha', tool_count: 0 },
      { name: '\u{1F600} emoji', tool_count: 1 },
      { name: '\uFFFD replacement', tool_count: 2 },
      { name: 'alpha', tool_count: 5 },
    ];
    const cases: [string, Tool[], typeof sources][] = [
      ['find "it"', [a, b, a], sources],
      ['nothing', [], sources],
      ['nothing, nowhere', [], [{ name: 'x', tool_count: 0 }]],
      ['q', [b, numeric, a], sources],
      ['q', [proto, a], sources],
      ['', [a], []],
    ];
    for (const [q, hits, src] of cases) {
      // twice: the second reads the per-tool and per-sources texts kept by the first
      expect(searchResultText(q, hits, src)).toBe(searchResultObjectText(q, hits, src));
      expect(searchResultText(q, hits, src)).toBe(searchResultObjectText(q, hits, src));
    }
    // sorted by code point: the emoji (a surrogate pair) after U+FFFD
    expect(searchResultText('nothing', [], sources)).toContain(
      '"available_sources": [{"name": "alpha", "tool_count": 5}, {"name": "zeta", "tool_count": 3}, {"name": "\uFFFD replacement"',
    );
    // an id that is an array index comes first in the object, and `__proto__` is not an own key
    expect(searchResultText('q', [b, numeric, a], sources)).toMatch(/"tools": \{"42": /);
    expect(searchResultText('q', [proto, a], sources)).toMatch(/"tools": \{"mcp__s__a": /);
  });
});

/** Two billing tools, for the retry tests. */
const BILLING: Catalog = {
  tools: [
    makeTool({
      source: 'mcp',
      server: 'billing',
      name: 'refund_invoice',
      summary: 'Refund an invoice.',
      description: 'Refund a paid invoice to the customer.',
    }),
    makeTool({ source: 'mcp', server: 'billing', name: 'list_invoices', summary: 'List invoices.', description: 'List the invoices of a customer.' }),
  ],
  skills: [],
  servers: [],
  plugins: [],
};

describe('the emulated retry with known words', () => {
  const catalog = BILLING;
  const request = 'please refund the zyxwv invoice';

  it('hermes-raw: an unknown word is the rarest token and admits nothing', async () => {
    const raw = hermesSearcher('hermes-raw');
    await raw.index(catalog);
    expect(await raw.search(request, { k: 5 })).toEqual([]);
  });

  it('hermes: retries once with the words the catalog knows', async () => {
    const s = hermesSearcher('hermes', { retryKnownWords: true });
    await s.index(catalog);
    const hits = await s.search(request, { k: 5 });
    // known words: refund, the, invoice; minus the stop word "the" → "refund invoice": gate refund (df 1), only refund_invoice.
    expect(hits.map((h) => h.id)).toEqual(['mcp__billing__refund_invoice']);
    expect(s.stats()).toEqual({ retries: 1 });
    // a request the engine answers directly is not retried
    await s.search('refund invoice', { k: 5 });
    expect(s.stats()).toEqual({ retries: 1 });
  });
});

describe('hermes, hermes-raw, hermes-retry: query style and the retry as model calls', () => {
  const catalog = BILLING;
  const unanswered = 'please refund the zyxwv invoice';
  const answered = 'refund invoice';

  /** Search as the evaluation does (through the profile's searcher, same mask object), then afterSearch. */
  async function run(name: string, request: string, allowed?: Uint8Array) {
    const p = createProfile(name);
    await p.index(catalog);
    const hits = await p.searcher()!.search(request, { k: p.searchLimit, ...(allowed ? { allowed } : {}) });
    return { p, hits, added: p.afterSearch(hits, allowed ? { allowed } : {}, request) };
  }

  it('declare their query style, the three-call protocol, and the retry only on hermes-retry', () => {
    for (const [name, style, retry] of [
      ['hermes', 'keywords', false],
      ['hermes-raw', 'raw', false],
      ['hermes-retry', 'raw', true],
    ] as const) {
      const p = createProfile(name) as HermesProfile;
      expect(p.queryStyle, name).toBe(style);
      expect(p.retryKnownWords, name).toBe(retry);
      expect(p.calls).toEqual({ search: 1, perFoundTool: 1, call: 'each' });
    }
    expect(() => createHermesProfile('x', { queryStyle: 'loud' as never })).toThrow(RangeError);
  });

  it('hermes and hermes-raw never retry: an unknown word admits nothing, one search', async () => {
    for (const name of ['hermes', 'hermes-raw']) {
      const { hits, added } = await run(name, unanswered);
      expect(hits, name).toEqual([]);
      expect(added.searches, name).toBeUndefined(); // the default: 1
    }
  });

  it('hermes-retry: the retried search is two model calls, a directly answered one is one', async () => {
    const retried = await run('hermes-retry', unanswered);
    expect(retried.hits.map((h) => h.id)).toEqual(['mcp__billing__refund_invoice']);
    expect(retried.added.searches).toBe(2);
    const direct = await run('hermes-retry', answered);
    expect(direct.hits.map((h) => h.id)).toEqual(['mcp__billing__refund_invoice']);
    expect(direct.added.searches).toBe(1);
    // under a caller mask too (the evaluation hands the searcher and afterSearch the same mask object)
    expect((await run('hermes-retry', unanswered, Uint8Array.from([1, 1]))).added.searches).toBe(2);
    // a mask that hides the only answer: the retry finds nothing either, still two searches
    const hidden = await run('hermes-retry', unanswered, Uint8Array.from([0, 1]));
    expect(hidden.hits).toEqual([]);
    expect(hidden.added.searches).toBe(2);
  });

  it('describes the query style and the retry', async () => {
    expect((await run('hermes', answered)).p.describe()).toMatchObject({ query: expect.stringMatching(/^keywords/), retry: 'none' });
    expect((await run('hermes-retry', answered)).p.describe()).toMatchObject({
      query: expect.stringMatching(/^raw/),
      retry: expect.stringMatching(/2 model calls/),
    });
  });
});

/** A mask that counts how many of its entries are read (to prove per-mask work is done once, not per request). */
function countingMask(bits: number[]): { mask: Uint8Array; reads: () => number } {
  const base = Uint8Array.from(bits);
  let reads = 0;
  const proxy = new Proxy(base, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { mask: proxy, reads: () => reads };
}

describe('hermes: review fixes', () => {
  const P = tool({ id: 'plugin__notes__send_note', source: 'plugin', plugin: 'notes', description: 'Send a note.' });
  const CAT = catalogOf([...HAND, P]); // 0 bash, 1 T1, 2 read_file, 3 T2, 4 T3, 5 T4, 6 P

  it('an exact-name hit is a non-empty answer: the emulated retry does not fire (upstream returns the exact tool alone)', async () => {
    const draft = tool({ id: 'mcp__mail__send_email_draft', source: 'mcp', server: 'mail', description: 'Send a draft email.' });
    const s = hermesSearcher('hermes', { retryKnownWords: true });
    await s.index(catalogOf([T1, draft]));
    // "mcp" is in no indexed text: BM25 admits nothing; upstream's answer is the exact name only.
    expect(await s.search('mcp__mail__send_email', { k: 5 })).toEqual([{ id: 'mcp__mail__send_email', score: EXACT_NAME_SCORE }]);
    expect(s.stats()).toEqual({ retries: 0 });
  });

  it('no bridge for the caller (enabled off, or no deferred tool visible): a search adds nothing', async () => {
    const off = createHermesProfile('hermes', { enabled: 'off' });
    await off.index(CAT);
    expect(off.afterSearch([], {}, 'send email')).toEqual({ form: 'metadata', loaded: [], text: '' });
    const p = createHermesProfile('hermes');
    await p.index(CAT);
    expect(p.afterSearch([], { allowed: mask([1, 0, 1, 0, 0, 0, 0]) }, 'send email')).toEqual({ form: 'metadata', loaded: [], text: '' });
    // A caller with the bridge still gets the empty-result answer.
    expect(JSON.parse(p.afterSearch([], { allowed: mask([1, 1, 0, 0, 0, 0, 0]) }, 'x').text)).toMatchObject({ total_available: 1 });
  });

  it('per-mask work (source counts, the sub-catalog mask) is done once per mask, not once per request', async () => {
    const p = createHermesProfile('hermes');
    await p.index(CAT);
    const a = countingMask([1, 1, 0, 1, 1, 0, 1]);
    const first = p.afterSearch([], { allowed: a.mask }, 'q').text;
    await p.searcher()!.search('send email', { k: 5, allowed: a.mask });
    const after = a.reads();
    expect(p.afterSearch([], { allowed: a.mask }, 'q').text).toBe(first);
    expect((await p.searcher()!.search('send email', { k: 5, allowed: a.mask })).map((h) => h.id)).toEqual([
      'mcp__mail__send_email',
      'plugin__notes__send_note',
    ]);
    expect(a.reads()).toBe(after);
    // Another mask object is computed afresh.
    expect(JSON.parse(p.afterSearch([], { allowed: mask([0, 0, 0, 0, 0, 1, 0]) }, 'q').text).total_available).toBe(1);
  });
});
