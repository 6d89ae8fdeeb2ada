import { describe, expect, it } from 'vitest';
import { CONTRACT_DATA, retrieverContract } from '../../test/contract/contract.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog, Server, Tool } from '../catalog/types.ts';
import type { Retriever } from '../retrievers/types.ts';
import {
  CodexToolSearch,
  codexNamespaceOf,
  codexSearchText,
  createCodexProfile,
  directSchemaBytes,
  namespaceDescriptionOf,
  namespaceRowTruncation,
  normalizeNamespaceDescription,
  renderNamespaceFragment,
  shouldDefer,
  toolSearchDefinition,
  toolSearchOutput,
  truncateNamespaceRows,
  type CodexOptions,
  type NamespaceRow,
} from './codex/index.ts';
import { utf8Bytes } from '../util/unicode.ts';

const HEAD = '<tools>\nDeferred tool namespaces:\n';
const TAIL = '</tools>';
/** Bytes of the tags, the leading newline and the heading: the entry budget is `budget − 42`. */
const FIXED = utf8Bytes(HEAD) + utf8Bytes(TAIL);

const rows = (...pairs: [string, string][]): NamespaceRow[] => pairs.map(([name, description]) => ({ name, description }));

describe('normalizeNamespaceDescription (ToolsState::new)', () => {
  it('keeps the first line, trimmed; cuts over 250 characters to 247 + "..."', () => {
    expect(normalizeNamespaceDescription('  first line  \nsecond line')).toBe('first line');
    expect(normalizeNamespaceDescription('abc\r\nx')).toBe('abc');
    expect(normalizeNamespaceDescription('\nonly later lines')).toBe('');
    expect(normalizeNamespaceDescription('a'.repeat(250))).toBe('a'.repeat(250));
    expect(normalizeNamespaceDescription('a'.repeat(251))).toBe(`${'a'.repeat(247)}...`);
    // Characters are code points: 251 crabs (4 bytes each) → 247 crabs + "...".
    expect(normalizeNamespaceDescription('🦀'.repeat(251))).toBe(`${'🦀'.repeat(247)}...`);
  });
});

describe('namespaceRowTruncation (calculate_namespace_row_truncation)', () => {
  it('shares description bytes one character at a time, round-robin (upstream cases)', () => {
    // Each row is named "n" ("- n\n" = 4 bytes); the budget is the description budget + 4 per row.
    const cases: [string[], number, number[]][] = [
      [[], 9, []],
      [['', ''], 9, [0, 0]],
      [['', 'ab', ''], 4, [0, 2, 0]], // ": ab" = 4 fits whole
      [['a', '🦀'], 0, [0, 0]],
      [['a', '🦀'], 2, [0, 0]], // ": a" needs 3
      [['é€🦀', 'xy'], 20, [9, 2]], // all fits: 2+9 + 2+2 = 15
      [['é€🦀', 'xy'], 12, [5, 2]], // é (2+2) x (3) € (3) y (1) → 12−11 = 1 left, 🦀 needs 4
      [['ab', 'cd'], 7, [2, 1]], // a 3, c 3, b 1 → 0 left
      [['a', 'bcdef'], 9, [1, 4]], // a 3, b 3, c 1, d 1, e 1
      [['a🦀x', 'bcdef'], 9, [1, 4]], // a 3, b 3, 🦀 4 > 3 → row 0 leaves; c d e
      [['🦀x', 'abc'], 5, [0, 3]], // 🦀 6 > 5 → leaves; a 3, b 1, c 1
      [['🦀🦀x', '€🦀y'], 18, [9, 3]], // 🦀 6, € 5, 🦀 4 → 3 left; 🦀 4 > 3 → row 1 leaves; x 1
      [['🦀🦀x', '€🦀y'], 19, [8, 7]], // 🦀 6, € 5, 🦀 4, 🦀 4 → 0 left
    ];
    for (const [descriptions, descBudget, expected] of cases) {
      const r = descriptions.map((d) => ({ name: 'n', description: d }));
      expect(namespaceRowTruncation(r, descBudget + 4 * r.length, 64), `${JSON.stringify(descriptions)} @${descBudget}`).toEqual(expected);
    }
  });

  it('reserves names first, and charges the omission reserve only when names overflow (upstream cases)', () => {
    expect(namespaceRowTruncation(rows(['a', 'abcd'], ['b', 'x']), 11, 64)).toEqual([1, 0]);
    expect(namespaceRowTruncation(rows(['a', ''], ['b', '']), 8, 64)).toEqual([0, 0]);
    // Names take 7 + 7 + 4 = 18 > 15: keep names within 15 − 3 = 12; "bbbb" is skipped, "c" still fits.
    expect(namespaceRowTruncation(rows(['aaaa', 'x'], ['bbbb', 'x'], ['c', 'x']), 15, 3)).toEqual([0, null, 0]);
    expect(namespaceRowTruncation(rows(['oversized_name_aaa', 'x'], ['a', 'x'], ['b', 'x']), 14, 2)).toEqual([null, 0, 0]);
    expect(namespaceRowTruncation(rows(['ab', 'x'], ['c', '']), 0, 2)).toEqual([null, null]);
    expect(namespaceRowTruncation(rows(['a', 'x'], ['b', 'x']), 6, 64)).toEqual([null, null]);
  });
});

describe('truncateNamespaceRows (truncate_namespace_rows)', () => {
  it('pays "..." from the kept bytes and cuts at a character boundary (upstream cases)', () => {
    const cases: [string, number, string][] = [
      ['abcdef', 4, '- n\n'],
      ['abcdef', 7, '- n\n'],
      ['abcdef', 8, '- n\n'],
      ['abcdef', 9, '- n: ...\n'],
      ['abcdef', 10, '- n: a...\n'],
      ['abcdef', 12, '- n: abcdef\n'],
      ['ab', 8, '- n: ab\n'],
      ['🦀abcdef', 10, '- n: ...\n'], // keeps 🦀a (5 bytes) → prefix of 2 bytes → "" (inside 🦀)
      ['🦀abcdef', 13, '- n: 🦀...\n'],
      ['éabcdef', 11, '- n: é...\n'],
    ];
    for (const [description, budget, expected] of cases) {
      const out = truncateNamespaceRows([{ name: 'n', description }], budget, 64);
      expect(out, `${description} @${budget}`).toEqual([expected]);
      expect(utf8Bytes(out.join(''))).toBeLessThanOrEqual(budget);
    }
  });

  it('multi-byte names and descriptions across rows (upstream case, groups flattened)', () => {
    const r = rows(['&', '🦀&y'], ['🦀', '&🦀x'], ['b', 'x<&']);
    expect(truncateNamespaceRows(r, 36, 64)).toEqual(['- &: 🦀&y\n', '- 🦀: &🦀x\n', '- b: x<&\n']);
    expect(truncateNamespaceRows(r, 32, 64)).toEqual(['- &: ...\n', '- 🦀: &...\n', '- b\n']);
    expect(truncateNamespaceRows(r, 15, 64)).toEqual(['- &\n', '- 🦀\n', '- b\n']);
    expect(truncateNamespaceRows(r, 14, 6)).toEqual(['- &\n', null, '- b\n']);
  });
});

describe('renderNamespaceFragment', () => {
  it('sorts by name, de-duplicates (first non-blank description wins), keeps first lines', () => {
    const out = renderNamespaceFragment(rows(['b', 'Bee server\nmore'], ['a', '  Alpha  '], ['b', 'other'], ['c', ''], ['c', 'Sea']));
    expect(out).toBe(`${HEAD}- a: Alpha\n- b: Bee server\n- c: Sea\n${TAIL}`);
    expect(renderNamespaceFragment([])).toBe('');
  });

  it('round-robin on a small budget, with a multi-byte description (hand-computed)', () => {
    // Names: "- a\n" 4 + "- é\n" 5 = 9. Descriptions ": abc" 5 + ": x€y" 7 = 12.
    const r = rows(['é', 'x€y'], ['a', 'abc']);
    expect(renderNamespaceFragment(r, FIXED + 21)).toBe(`${HEAD}- a: abc\n- é: x€y\n${TAIL}`);
    // Entry budget 20 → 11 for descriptions: a(3) x(3) b(1) €(3) c(1) → 0 left, y does not fit.
    // é kept 4 bytes "x€" → "..." takes 3 → prefix "x".
    const at20 = `${HEAD}- a: abc\n- é: x...\n${TAIL}`;
    expect(renderNamespaceFragment(r, FIXED + 20)).toBe(at20);
    expect(utf8Bytes(at20)).toBe(FIXED + 20);
    // Entry budget 19 → 10: a(3) x(3) b(1) €(3) → 0 left; a kept 2 bytes < 3 for "...": name only.
    expect(renderNamespaceFragment(r, FIXED + 19)).toBe(`${HEAD}- a\n- é: x...\n${TAIL}`);
  });

  it('names that overflow: keep names within budget − 64, count the rest', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((x) => x.repeat(30)) as [string, string, string];
    // Each name row is 33 bytes, 99 in all > entry budget 98 → names kept within 98 − 64 = 34: only a.
    expect(renderNamespaceFragment(rows([c, 'x'], [a, 'x'], [b, 'x']), FIXED + 98)).toBe(`${HEAD}- ${a}\n... 2 additional namespaces omitted.\n${TAIL}`);
    // 99 fits: names only (no byte left for any description).
    expect(renderNamespaceFragment(rows([c, 'x'], [a, 'x'], [b, 'x']), FIXED + 99)).toBe(`${HEAD}- ${a}\n- ${b}\n- ${c}\n${TAIL}`);
  });

  it('cuts long descriptions to 250 characters before budgeting; sorts by code point like BTreeMap', () => {
    expect(renderNamespaceFragment(rows(['n', 'd'.repeat(300)]))).toBe(`${HEAD}- n: ${'d'.repeat(247)}...\n${TAIL}`);
    expect(renderNamespaceFragment(rows(['😀', ''], ['\uFF21', '']))).toBe(`${HEAD}- \uFF21\n- 😀\n${TAIL}`);
  });
});

// A small catalog: servers "gh" (with instructions) and "s" (no record), a plugin "clickup" named like an MCP server.
const SERVERS: Server[] = [
  { name: 'gh', source: 'mcp', description: 'GitHub access.', instructions: 'GitHub MCP server: repositories and issues.\nSecond line.' },
  { name: 'clickup', source: 'mcp', description: 'ClickUp MCP.', instructions: '' },
];
const PLUGINS = [{ name: 'clickup', description: 'Native ClickUp plugin.' }];

function mcp(server: string, name: string, description: string, props: string[] = [], title?: string): Tool {
  return makeTool({
    source: 'mcp',
    server,
    name,
    summary: description,
    description,
    ...(title ? { title } : {}),
    inputSchema: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) },
  });
}
const core = (name: string, description: string): Tool => makeTool({ source: 'core', name, summary: description, description });
const plugin = (pl: string, name: string, description: string): Tool => makeTool({ source: 'plugin', plugin: pl, name, summary: description, description });
const catalogOf = (tools: Tool[]): Catalog => ({ tools, skills: [], servers: SERVERS, plugins: PLUGINS });

describe('search text (build_mcp_search_text)', () => {
  it('flat name, name (each also with underscores as spaces), server, title, description, namespace description, plugin, sorted top-level keys', () => {
    const t = mcp('gh', 'create_issue', '  Opens an issue.  ', ['title', 'body', 'Assignees'], 'Create Issue');
    const c = catalogOf([t]);
    expect(namespaceDescriptionOf(t, c)).toBe('GitHub MCP server: repositories and issues.\nSecond line.');
    expect(codexSearchText(t, namespaceDescriptionOf(t, c))).toBe(
      'mcp__gh__create_issue mcp gh create issue create_issue create issue gh Create Issue Opens an issue. GitHub MCP server: repositories and issues.\nSecond line. Assignees body title',
    );
  });

  it('plugin tools: server name and display name are the plugin; a plugin named like an MCP server keeps its own description', () => {
    const p = plugin('clickup', 'create_task', 'Creates a task.');
    const c = catalogOf([p]);
    expect(namespaceDescriptionOf(p, c)).toBe('Native ClickUp plugin.');
    expect(codexSearchText(p, namespaceDescriptionOf(p, c))).toBe(
      'plugin__clickup__create_task plugin clickup create task create_task create task clickup Creates a task. Native ClickUp plugin. clickup',
    );
    expect(codexNamespaceOf(p)).toBe('plugin__clickup');
    // The MCP server "clickup" has blank instructions: its description stands in.
    const m = mcp('clickup', 'list', 'Lists.');
    expect(namespaceDescriptionOf(m, c)).toBe('ClickUp MCP.');
    expect(codexNamespaceOf(m)).toBe('mcp__clickup');
    expect(namespaceDescriptionOf(mcp('s', 'x', 'y'), c)).toBe('');
  });
});

describe('CodexToolSearch (BM25 over the deferred tools)', () => {
  // Search texts: "mcp__s__x_y mcp s x y x_y x y s alpha beta" → 7 tokens ("s" and "y" are NLTK stop words);
  //               "mcp__s__z mcp s z z z s alpha" → 6 tokens. avgdl 6.5 over the 2 deferred tools only.
  const tools = [core('alpha_core', 'alpha alpha'), mcp('s', 'x_y', 'alpha beta'), mcp('s', 'z', 'alpha')];
  const w = (dl: number): number => 2.2 / (1 + 1.2 * (0.25 + (0.75 * dl) / 6.5));

  it('scores with k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5)/(n + 0.5)) over the deferred corpus (hand-computed)', async () => {
    const s = new CodexToolSearch('codex');
    await s.index(catalogOf(tools));
    expect(s.stats()).toMatchObject({ tools: 2, avgdl: 6.5 });
    const alpha = await s.search('alpha', { k: 10 });
    expect(alpha.map((h) => h.id)).toEqual(['mcp__s__z', 'mcp__s__x_y']); // shorter document first; core tool not searchable
    expect(alpha[0]!.score).toBeCloseTo(Math.log(1.2) * w(6), 12);
    expect(alpha[1]!.score).toBeCloseTo(Math.log(1.2) * w(7), 12);
    const beta = await s.search('beta', { k: 10 });
    expect(beta).toEqual([{ id: 'mcp__s__x_y', score: expect.closeTo(Math.log(2) * w(7), 12) }]);
    // Every query token occurrence counts.
    expect((await s.search('beta beta', { k: 10 }))[0]!.score).toBeCloseTo(2 * Math.log(2) * w(7), 12);
    expect(await s.search('gamma', { k: 10 })).toEqual([]);
    expect(await s.search('   ', { k: 10 })).toEqual([]);
  });

  it('honours the full-catalog mask exactly and returns at most min(k, limit)', async () => {
    const s = new CodexToolSearch('codex', 1);
    await s.index(catalogOf(tools));
    expect((await s.search('alpha', { k: 10 })).map((h) => h.id)).toEqual(['mcp__s__z']);
    expect((await s.search('alpha', { k: 10, allowed: Uint8Array.from([1, 1, 0]) })).map((h) => h.id)).toEqual(['mcp__s__x_y']);
    expect(await s.search('alpha', { k: 10, allowed: Uint8Array.from([1, 0, 0]) })).toEqual([]);
    await expect(s.search('alpha', { k: 1, allowed: new Uint8Array(2) })).rejects.toThrow(/mask/);
    await expect(new CodexToolSearch('x').search('a', { k: 1 })).rejects.toThrow(/before index/);
    expect(() => new CodexToolSearch('x', 0)).toThrow(RangeError);
  });

  it('underscores become spaces: "rollout history" finds get_rollout_history by its name', async () => {
    const s = new CodexToolSearch('codex');
    await s.index(
      catalogOf([mcp('k8s', 'get_rollout_history', 'Returns the revisions of a deployment.'), mcp('k8s', 'list_pods', 'Lists the pods of a namespace.')]),
    );
    expect((await s.search('rollout history', { k: 8 })).map((h) => h.id)).toEqual(['mcp__k8s__get_rollout_history']);
  });

  it('create_issue is also one UAX#29 word: the exact identifier still matches, and "create issue" reaches the name', async () => {
    const s = new CodexToolSearch('codex');
    await s.index(catalogOf([mcp('s', 'create_issue', 'Opens a ticket.'), mcp('s', 'add_comment', 'Create a comment on an issue.')]));
    expect((await s.search('create issue', { k: 8 })).map((h) => h.id)).toEqual(['mcp__s__create_issue', 'mcp__s__add_comment']);
    expect((await s.search('create_issue', { k: 8 })).map((h) => h.id)).toEqual(['mcp__s__create_issue']);
  });
});

/** A retriever whose index builds a codex profile on the catalog and searches with its searcher. */
function profileSearcher(options: CodexOptions = {}): Retriever {
  const profile = createCodexProfile('codex', options);
  let searcher: Retriever | null = null;
  return {
    name: 'codex',
    async index(catalog) {
      await profile.index(catalog);
      searcher = profile.searcher();
      if (searcher === null) throw new Error('no searcher: nothing deferred');
    },
    search: (request, context) => searcher!.search(request, context),
  };
}

describe('codex searcher: the retriever contract (tiny company: 360 MCP + 32 plugin tools, ≥ 100: deferred)', () => {
  retrieverContract(() => profileSearcher(), 'codex');
});

describe('codex searcher: the retriever contract, standalone', () => {
  retrieverContract(() => new CodexToolSearch('codex'), 'codex');
});

describe('deferral rule (mcp_tool_exposure.rs)', () => {
  const mcps = (n: number): Tool[] => Array.from({ length: n }, (_, i) => mcp(i % 2 ? 'gh' : 'other', `t${String(i).padStart(3, '0')}`, `tool number ${i}`));
  const cores = [core('bash', 'Run a shell command.'), core('read_file', 'Read a file.')];

  it('99 MCP tools: nothing deferred, everything eager, no search, no advertisement', async () => {
    const p = createCodexProfile('codex');
    const c = catalogOf([...cores, ...mcps(99)]);
    await p.index(c);
    expect(p.searcher()).toBeNull();
    expect(p.beforeSearch({})).toEqual({ eager: c.tools.map((t) => t.id), metaTools: [], advertisement: '' });
  });

  it('100 MCP/plugin tools: all deferred, core stays eager, tool_search and the fragment appear', async () => {
    const p = createCodexProfile('codex');
    const tools = [...cores, ...mcps(99), plugin('clickup', 'create_task', 'Creates a task.')];
    await p.index(catalogOf(tools));
    expect(p.searcher()).not.toBeNull();
    const before = p.beforeSearch({});
    expect(before.eager).toEqual(['bash', 'read_file']);
    expect(before.metaTools).toEqual([toolSearchDefinition(8)]);
    expect(before.advertisement).toBe(
      `${HEAD}- mcp__gh: GitHub MCP server: repositories and issues.\n- mcp__other\n- plugin__clickup: Native ClickUp plugin.\n${TAIL}`,
    );
    expect((await p.searcher()!.search('create task', { k: 20 })).map((h) => h.id)).toEqual(['plugin__clickup__create_task']);
  });

  it("the 'tokens' rule compares serialized direct schemas with threshold × 4 bytes; 'always' needs ≥ 1 tool", () => {
    const t = [mcp('s', 'a', 'b'), mcp('s', 'a', 'b')];
    // {"type":"function","name":"a","description":"b","strict":false,"parameters":{"type":"object","properties":{}}} = 110 bytes each.
    expect(directSchemaBytes(t)).toBe(220);
    expect(shouldDefer({ kind: 'tokens', threshold: 55 }, t)).toBe(true);
    expect(shouldDefer({ kind: 'tokens', threshold: 56 }, t)).toBe(false);
    expect(shouldDefer({ kind: 'count', threshold: 2 }, t)).toBe(true);
    expect(shouldDefer({ kind: 'count', threshold: 3 }, t)).toBe(false);
    expect(shouldDefer({ kind: 'always' }, t)).toBe(true);
    expect(shouldDefer({ kind: 'always' }, [])).toBe(false);
    expect(() => createCodexProfile('codex', { deferral: { kind: 'count', threshold: -1 } })).toThrow(RangeError);
    expect(() => createCodexProfile('codex', { limit: 0 })).toThrow(RangeError);
  });
});

describe('exposure model', () => {
  const tools = [
    core('bash', 'Run a shell command.'),
    mcp('gh', 'create_issue', 'Opens an issue.', ['title']),
    mcp('other', 'ping', 'Ping a host.'),
    mcp('gh', 'list_issues', 'Lists issues.'),
    plugin('clickup', 'create_task', 'Creates a task.'),
  ];
  const make = async (): Promise<ReturnType<typeof createCodexProfile>> => {
    const p = createCodexProfile('codex', { deferral: { kind: 'always' } });
    await p.index(catalogOf(tools));
    return p;
  };

  it('the scope mask is honoured by beforeSearch (no namespace of an unseen tool) and by search', async () => {
    const p = await make();
    const allowed = Uint8Array.from([0, 1, 0, 1, 0]); // only the gh tools
    expect(p.beforeSearch({ allowed })).toEqual({
      eager: [],
      metaTools: [toolSearchDefinition()],
      advertisement: `${HEAD}- mcp__gh: GitHub MCP server: repositories and issues.\n${TAIL}`,
    });
    expect((await p.searcher()!.search('ping task issue', { k: 8, allowed })).map((h) => h.id).sort()).toEqual([
      'mcp__gh__create_issue',
      'mcp__gh__list_issues',
    ]);
    // A caller who sees no deferred tool gets no tool_search and no fragment.
    expect(p.beforeSearch({ allowed: Uint8Array.from([1, 0, 0, 0, 0]) })).toEqual({ eager: ['bash'], metaTools: [], advertisement: '' });
    expect(() => p.beforeSearch({ allowed: new Uint8Array(2) })).toThrow(/mask/);
  });

  it('afterSearch: the tool_search_output, hits coalesced by namespace in first-hit order, defer_loading true', async () => {
    const p = await make();
    const hits = [
      { id: 'mcp__gh__list_issues', score: 3 },
      { id: 'mcp__other__ping', score: 2 },
      { id: 'mcp__gh__create_issue', score: 1 },
    ];
    const add = p.afterSearch(hits, {}, 'q');
    expect(add.form).toBe('schemas');
    expect(add.loaded).toEqual(['mcp__gh__list_issues', 'mcp__other__ping', 'mcp__gh__create_issue']);
    expect(add.text).toBe(
      '{"type":"tool_search_output","status":"completed","execution":"client","tools":[' +
        '{"type":"namespace","name":"mcp__gh","description":"GitHub MCP server: repositories and issues.\\nSecond line.","tools":[' +
        '{"type":"function","name":"list_issues","description":"Lists issues.","strict":false,"defer_loading":true,"parameters":{"type":"object","properties":{}}},' +
        '{"type":"function","name":"create_issue","description":"Opens an issue.","strict":false,"defer_loading":true,"parameters":{"type":"object","properties":{"title":{"type":"string"}}}}]},' +
        '{"type":"namespace","name":"mcp__other","description":"","tools":[' +
        '{"type":"function","name":"ping","description":"Ping a host.","strict":false,"defer_loading":true,"parameters":{"type":"object","properties":{}}}]}]}',
    );
    expect(toolSearchOutput([], () => '')).toBe('{"type":"tool_search_output","status":"completed","execution":"client","tools":[]}');
    expect(() => p.afterSearch([{ id: 'nope', score: 1 }], {}, 'q')).toThrow(/unknown tool/);
  });

  it('tool_search: Omit-variant description, {query (required), limit?}, no extra properties', () => {
    const d = toolSearchDefinition();
    expect(d.name).toBe('tool_search');
    expect(
      d.description.startsWith(
        '# Tool discovery\n\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.\n\nSome of the tools',
      ),
    ).toBe(true);
    expect(d.inputSchema).toEqual({
      type: 'object',
      properties: {
        limit: { type: 'number', description: 'Maximum number of tools to return. Defaults to 8.' },
        query: { type: 'string', description: 'Search query for deferred tools.' },
      },
      required: ['query'],
      additionalProperties: false,
    });
  });

  it('describes every knob as plain JSON; refuses use before index', async () => {
    const fresh = createCodexProfile('codex');
    expect(() => fresh.beforeSearch({})).toThrow(/before index/);
    const p = await make();
    const d = p.describe();
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(d).toMatchObject({ profile: 'codex', searchLimit: 8, deferral: { rule: { kind: 'always' }, deferredTools: 4, deferrableTools: 4 } });
    expect(p.searchLimit).toBe(8);
  });
});

describe('review fixes', () => {
  const tools = [core('bash', 'Run a shell command.'), mcp('gh', 'create_issue', 'Opens an issue.'), mcp('other', 'ping', 'Ping a host.')];

  it('no tool_search (nothing deferred, or none visible to the caller): a search adds nothing', async () => {
    const below = createCodexProfile('codex');
    await below.index(catalogOf(tools));
    expect(below.searcher()).toBeNull();
    expect(below.afterSearch([], {}, 'q')).toEqual({ form: 'schemas', loaded: [], text: '' });
    const p = createCodexProfile('codex', { deferral: { kind: 'always' } });
    await p.index(catalogOf(tools));
    expect(p.afterSearch([], { allowed: Uint8Array.from([1, 0, 0]) }, 'q')).toEqual({ form: 'schemas', loaded: [], text: '' });
    expect(p.afterSearch([], { allowed: Uint8Array.from([1, 1, 0]) }, 'q').text).toBe(
      '{"type":"tool_search_output","status":"completed","execution":"client","tools":[]}',
    );
  });

  it('maps a caller mask onto the deferred index once per mask object, not once per request', async () => {
    const s = new CodexToolSearch('codex');
    await s.index(catalogOf(tools));
    let reads = 0;
    const base = Uint8Array.from([1, 0, 1]);
    const allowed = new Proxy(base, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        const v = Reflect.get(target, key, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    expect((await s.search('ping issue', { k: 8, allowed })).map((h) => h.id)).toEqual(['mcp__other__ping']);
    const once = reads;
    expect((await s.search('ping issue', { k: 8, allowed })).map((h) => h.id)).toEqual(['mcp__other__ping']);
    expect(reads).toBe(once);
    expect((await s.search('ping issue', { k: 8, allowed: Uint8Array.from([0, 1, 0]) })).map((h) => h.id)).toEqual(['mcp__gh__create_issue']);
  });
});

describe('query style and model calls', () => {
  it('the model writes the tool_search query: keywords; search, then the exact call', async () => {
    const p = createCodexProfile('codex');
    expect(p.queryStyle).toBe('keywords');
    expect(p.calls).toEqual({ search: 1, perFoundTool: 0, call: 'each' });
    await p.index(CONTRACT_DATA.catalog);
    expect(p.describe()).toMatchObject({ query: expect.stringMatching(/^keywords/) });
  });
});
