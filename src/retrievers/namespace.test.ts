import { describe, expect, it } from 'vitest';
import { CONTRACT_DATA, retrieverContract } from '../../test/contract/contract.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import type { Bm25Retriever } from './bm25/index.ts';
import { BM25_DEFAULT_OPTIONS, createBm25 } from './bm25/presets.ts';
import { createNamespace, isNamespaceRouting, namespaceDocuments, namespaceGroups, type NamespaceRetriever, NAMESPACE_DEFAULT_OPTIONS } from './namespace.ts';
import { rankStable } from './rank.ts';
import type { Hit } from './types.ts';

const mcp = (server: string, name: string, summary: string, description = summary) => makeTool({ source: 'mcp', server, name, summary, description });

/*
 * Four namespaces. Note the trap: jira's description says "Issue tracking … bugs", while the tool
 * that creates an *issue* is github's.
 */
const CAT: Catalog = {
  tools: [
    mcp('github', 'create_issue', 'Create an issue in a repository.'),
    mcp('github', 'list_pull_requests', 'List the pull requests of a repository.'),
    mcp('github', 'search_code', 'Search code across repositories.'),
    mcp('jira', 'create_ticket', 'Create a ticket in a project.', 'Create a ticket in a project; use it to report a bug.'),
    mcp('jira', 'list_sprints', 'List the sprints of a board.'),
    mcp('calendar', 'create_event', 'Create a calendar event.'),
    mcp('calendar', 'list_events', 'List upcoming events.'),
    makeTool({ source: 'plugin', plugin: 'notes', name: 'add_note', summary: 'Add a note.', description: 'Add a note to the notebook.' }),
  ],
  skills: [],
  servers: [
    {
      name: 'github',
      source: 'mcp',
      description: 'Source code hosting: repositories, pull requests and code review.',
      instructions: 'Every tool takes owner and repo.',
    },
    {
      name: 'jira',
      source: 'mcp',
      description: 'Issue tracking for agile teams: bugs, tickets, sprints and boards.',
      instructions: 'Tickets are keyed PROJ-123.',
    },
    { name: 'calendar', source: 'mcp', description: 'Meetings and events scheduling.', instructions: '' },
  ],
  plugins: [{ name: 'notes', description: 'Personal notebook.' }],
};
const ID = Object.fromEntries(CAT.tools.map((t) => [t.name, t.id])) as Record<
  'create_issue' | 'list_pull_requests' | 'search_code' | 'create_ticket' | 'list_sprints' | 'create_event' | 'list_events' | 'add_note',
  string
>;
const positionsOf = (namespaces: string[]): Uint8Array => Uint8Array.from(CAT.tools, (t) => (namespaces.includes(t.namespace) ? 1 : 0));

async function routed(m: number, catalog: Catalog = CAT): Promise<NamespaceRetriever> {
  const r = createNamespace('namespace', { m });
  await r.index(catalog);
  return r;
}

/** The tool-level reference: Backpack's bm25 over the whole catalog. */
async function flat(catalog: Catalog = CAT): Promise<Bm25Retriever> {
  const r = createBm25('bm25');
  await r.index(catalog);
  return r;
}

const recall = (hits: readonly Hit[], gold: readonly string[]): number => gold.filter((g) => hits.some((h) => h.id === g)).length / gold.length;

describe('namespace documents', () => {
  it('holds the namespace name, server/plugin descriptions, instructions and one line per tool', () => {
    const groups = namespaceGroups(CAT);
    expect(groups).toEqual([
      { name: 'github', positions: [0, 1, 2] },
      { name: 'jira', positions: [3, 4] },
      { name: 'calendar', positions: [5, 6] },
      { name: 'notes', positions: [7] },
    ]);
    const docs = namespaceDocuments(CAT);
    expect(docs.map((d) => [d.id, d.name, d.summary, d.description, d.examples])).toEqual([
      [
        'github',
        'github',
        'Source code hosting: repositories, pull requests and code review.',
        'Every tool takes owner and repo.',
        [
          'create_issue — Create an issue in a repository.',
          'list_pull_requests — List the pull requests of a repository.',
          'search_code — Search code across repositories.',
        ],
      ],
      [
        'jira',
        'jira',
        'Issue tracking for agile teams: bugs, tickets, sprints and boards.',
        'Tickets are keyed PROJ-123.',
        ['create_ticket — Create a ticket in a project.', 'list_sprints — List the sprints of a board.'],
      ],
      ['calendar', 'calendar', 'Meetings and events scheduling.', '', ['create_event — Create a calendar event.', 'list_events — List upcoming events.']],
      ['notes', 'notes', 'Personal notebook.', '', ['add_note — Add a note.']],
    ]);
  });
});

describe('NamespaceRetriever routing', () => {
  it('opens the best namespace and returns only its tools', async () => {
    const r = await routed(1);
    const hits = await r.search('list pull requests', { k: 5 });
    expect(r.lastRoute()).toEqual(['github']);
    expect(r.lastNamespaceRanking().map((h) => h.id)).toEqual(['github', 'calendar', 'jira']);
    // Flat BM25 would also return list_events and list_sprints ("list"); their namespaces are closed.
    expect((await (await flat()).search('list pull requests', { k: 5 })).map((h) => h.id)).toEqual([ID.list_pull_requests, ID.list_events, ID.list_sprints]);
    expect(hits.map((h) => h.id)).toEqual([ID.list_pull_requests]);
  });

  it('scores a tool by its tool-level BM25 score, restricted to the opened namespaces', async () => {
    const reference = await flat();
    for (const [m, q, route] of [
      [1, 'create', ['calendar']],
      [2, 'create', ['calendar', 'jira']],
      [3, 'create', ['calendar', 'jira', 'github']],
      [3, 'create a ticket for the bug', ['jira', 'calendar', 'github']],
    ] as const) {
      const r = await routed(m);
      const hits = await r.search(q, { k: 10 });
      expect(r.lastRoute(), `${m} ${q}`).toEqual(route);
      expect(hits, `${m} ${q}`).toEqual(await reference.search(q, { k: 10, allowed: positionsOf([...route]) }));
    }
    // Exact orders: create_event first (the shortest document), then by score.
    const r = await routed(3);
    expect((await r.search('create', { k: 10 })).map((h) => h.id)).toEqual([ID.create_event, ID.create_issue, ID.create_ticket]);
    // Equal tool scores are ordered by id.
    const cal = await (await routed(1)).search('schedule a meeting event', { k: 10 });
    expect(cal.map((h) => h.id)).toEqual([ID.create_event, ID.list_events]);
    expect(cal[0]!.score).toBe(cal[1]!.score);
    expect(cal).toEqual(rankStable(cal));
  });

  it('makes a wrong-namespace choice visible: the gold tool is never scored, tool recall 0', async () => {
    // The user wants a GitHub issue; "issue" and "bug" are in jira's description, so jira routes first.
    const request = 'file an issue about the bug';
    const gold = [ID.create_issue];
    const reference = await flat();
    expect(recall(await reference.search(request, { k: 1 }), gold)).toBe(1); // the flat ranking has it at rank 1

    const one = await routed(1);
    const hits = await one.search(request, { k: 5 });
    expect(one.lastRoute()).toEqual(['jira']);
    expect(one.lastNamespaceRanking().map((h) => h.id)).toEqual(['jira', 'github']);
    expect(hits.map((h) => h.id)).toEqual([ID.create_ticket]);
    expect(recall(hits, gold)).toBe(0);
    expect(one.lastRoute()).not.toContain('github'); // namespace recall 0 as well: a routing failure, not a ranking one

    const two = await routed(2);
    const wider = await two.search(request, { k: 5 });
    expect(two.lastRoute()).toEqual(['jira', 'github']);
    expect(wider.map((h) => h.id)).toEqual([ID.create_issue, ID.create_ticket]);
    expect(recall(wider, gold)).toBe(1);
  });

  it('routes only to namespaces with an allowed tool and scores only allowed tools', async () => {
    const r = await routed(1);
    // No jira tool allowed: jira is not ranked even though the request names its words.
    const noJira = Uint8Array.from(CAT.tools, (t) => (t.namespace === 'jira' ? 0 : 1));
    const hits = await r.search('create a ticket for the bug', { k: 5, allowed: noJira });
    expect(r.lastNamespaceRanking().map((h) => h.id)).toEqual(['calendar', 'github']);
    expect(r.lastRoute()).toEqual(['calendar']);
    expect(hits.map((h) => h.id)).toEqual([ID.create_event]);

    // github opened, but list_pull_requests is not allowed: it never appears.
    const partial = Uint8Array.from(CAT.tools, (t) => (t.id === ID.list_pull_requests ? 0 : 1));
    const q = 'list pull requests and search code of the repository';
    const out = await r.search(q, { k: 5, allowed: partial });
    expect(r.lastRoute()).toEqual(['github']);
    expect(out.map((h) => h.id)).toEqual([ID.search_code, ID.create_issue]);
    const both = new Uint8Array(partial.length).map((_, i) => partial[i]! & positionsOf(['github'])[i]!);
    expect(out).toEqual(await (await flat()).search(q, { k: 5, allowed: both }));

    expect(await r.search(q, { k: 5, allowed: new Uint8Array(CAT.tools.length) })).toEqual([]);
    expect(r.lastRoute()).toEqual([]);
  });

  it('truncates to k; returns nothing for k ≤ 0 or a request matching no namespace', async () => {
    const r = await routed(3);
    expect((await r.search('create', { k: 2 })).map((h) => h.id)).toEqual([ID.create_event, ID.create_issue]);
    expect(await r.search('create', { k: 0 })).toEqual([]);
    expect(r.lastRoute()).toEqual([]);
    expect(await r.search('zzz qqq', { k: 5 })).toEqual([]);
    expect(r.lastRoute()).toEqual([]);
    expect(r.lastNamespaceRanking()).toEqual([]);
  });

  it('with one namespace per tool (MetaTool), returns at most m tools', async () => {
    const perTool: Catalog = {
      tools: ['weather', 'news', 'stocks', 'movies'].map((n) =>
        makeTool({ source: 'plugin', plugin: n, name: n, summary: `${n} today.`, description: `Get ${n} today.` }),
      ),
      skills: [],
      servers: [],
      plugins: [],
    };
    const r = await routed(2, perTool);
    const hits = await r.search('today', { k: 5 });
    expect(hits).toHaveLength(2);
    expect(hits.map((h) => h.id)).toEqual(r.lastRoute().map((ns) => `plugin__${ns}__${ns}`));
  });

  it('refuses to search before index and a mask of the wrong length', async () => {
    const r = createNamespace('namespace');
    await expect(r.search('q', { k: 1 })).rejects.toThrow(/before index/);
    await r.index(CAT);
    await expect(r.search('q', { k: 1, allowed: new Uint8Array(3) })).rejects.toThrow(RangeError);
  });

  it('validates its options and describes them as plain JSON', () => {
    for (const m of [0, -1, 1.5, Number.NaN]) expect(() => createNamespace('namespace', { m }), String(m)).toThrow(RangeError);
    expect(() => createNamespace('namespace', { tools: { params: { k1: -1 } } })).toThrow(RangeError);
    const r = createNamespace('namespace', { m: 5, namespaces: { params: { k1: 0.9 } } });
    const d = r.describe();
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(d).toMatchObject({ retriever: 'namespace', name: 'namespace', m: 5 });
    expect((d.namespaces as { params: unknown; fields: unknown }).params).toEqual({ k1: 0.9, b: BM25_DEFAULT_OPTIONS.params.b }); // k1 overridden, b the bm25 preset's
    expect((d.namespaces as { fields: unknown }).fields).toEqual(NAMESPACE_DEFAULT_OPTIONS.namespaces.fields);
    expect(d.tools as { params: unknown; fields: unknown; tokenizer: unknown }).toMatchObject({
      params: BM25_DEFAULT_OPTIONS.params,
      fields: BM25_DEFAULT_OPTIONS.fields,
      tokenizer: BM25_DEFAULT_OPTIONS.tokenizer,
    });
    expect(createNamespace('namespace').describe()).toMatchObject({ m: 3 });
    expect(isNamespaceRouting(r)).toBe(true);
    expect(isNamespaceRouting(createBm25('bm25'))).toBe(false);
  });
});

/* The shared retriever contract, on variants the registry does not list, and the routing rule. */
describe.each([1, 3])('contract: namespace m = %i', (m) => {
  retrieverContract(() => createNamespace('namespace', { m }));

  it('never returns a tool outside the opened namespaces', async () => {
    const { catalog, requests } = CONTRACT_DATA;
    const r = createNamespace('namespace', { m });
    await r.index(catalog);
    const pos = new Map(catalog.tools.map((t, i) => [t.id, i]));
    for (const q of requests) {
      const out = await r.search(q, { k: 20 });
      const route = r.lastRoute();
      expect(route.length).toBeLessThanOrEqual(m);
      for (const h of out) expect(route, `${q} → ${h.id}`).toContain(catalog.tools[pos.get(h.id)!]!.namespace);
    }
  });
});
