import { describe, expect, it } from 'vitest';
import { CONTRACT_DATA, retrieverContract } from '../../test/contract/contract.ts';
import { catalogWith } from '../../test/profile-catalog.ts';
import { makeTool } from '../catalog/model.ts';
import type { RoleMap } from '../catalog/roles.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { rankStable } from '../retrievers/rank.ts';
import {
  admitNamespaces,
  ClaudeCodeToolSearch,
  createClaudeCodeProfile,
  cut2k,
  definitionTokens,
  deferredToolsBlock,
  loadedDefinition,
  nameParts,
  parseQuery,
  serverInstructionsBlock,
  TOOL_SEARCH_TOOL,
  toolReferenceText,
  toolSearchActive,
  KEYWORD_WEIGHTS,
  termPattern,
  type KeywordWeights,
} from './claude-code/index.ts';

// ─── The reference kernel (a test oracle: the searcher computes the same sums from inverted maps) ───

/** The distinct maximal `\w` runs (`[a-z0-9_]`) of an already lowercased text: what `\bterm\b` can match whole. */
function descriptionWords(lowered: string): string[] {
  return [...new Set(lowered.match(/[a-z0-9_]+/g) ?? [])];
}

/** One tool as the keyword scoring sees it. */
interface ScoringTool {
  /** nameParts of its id */
  parts: readonly string[];
  /** MCP weights: every non-core tool */
  isMcp: boolean;
  /** lowercased description (cut at 2 KB) */
  description: string;
  /** lowercased curated `searchHint`; our catalogs have none */
  searchHint?: string;
}

/**
 * The keyword score of one tool. Per term: +10 (+12 MCP) if a name part equals it, else +5 (+6 MCP)
 * if a part contains it; +4 if `\bterm\b` matches the search hint; +2 if it matches the description.
 * Duplicate terms count twice, as upstream iterates the term list.
 */
function keywordScore(tool: ScoringTool, terms: readonly string[], w: KeywordWeights = KEYWORD_WEIGHTS): number {
  let score = 0;
  for (const term of terms) {
    if (tool.parts.includes(term)) score += tool.isMcp ? w.partExactMcp : w.partExact;
    else if (tool.parts.some((p) => p.includes(term))) score += tool.isMcp ? w.partContainsMcp : w.partContains;
    const pattern = termPattern(term);
    if (tool.searchHint && pattern.test(tool.searchHint)) score += w.searchHint;
    if (pattern.test(tool.description)) score += w.description;
  }
  return score;
}

const mcp = (server: string, name: string, description: string, extra: Partial<Tool> = {}): Tool =>
  makeTool({ source: 'mcp', server, name, summary: description, description, ...extra });

/** A hand catalog: one core tool, github (3), slack (2), a plugin tool. */
function handCatalog(): Catalog {
  return catalogWith(
    [
      makeTool({ source: 'core', name: 'bash', summary: 'Run a shell command.', description: 'Run a shell command.' }),
      mcp('github', 'create_issue', 'Create an issue in a GitHub repository.'),
      mcp('github', 'list_issues', 'List issues of a repository.'),
      mcp('github', 'create_pull_request', 'Open a pull request.'),
      mcp('slack', 'send_message', 'Send a message to a Slack channel (slack-channel id).'),
      mcp('slack', 'list_channels', 'List channels in the workspace.'),
      makeTool({ source: 'plugin', plugin: 'notes', name: 'createNote', summary: 'notes', description: 'Create a note; notes can reference a GitHub issue.' }),
    ],
    { github: ['GitHub', 'Use owner/repo names.'], slack: ['Slack', 'Channels are #names.'], quiet: ['no tools', 'never shown'] },
    [{ name: 'notes', description: 'Notes' }],
  );
}

describe('name parts, queries, the keyword kernel', () => {
  it('splits ids into parts', () => {
    expect(nameParts('mcp__github__createPullRequest')).toEqual(['github', 'create', 'pull', 'request']);
    expect(nameParts('plugin__slack-power-tools__send_message')).toEqual(['plugin', 'slack', 'power', 'tools', 'send', 'message']);
    expect(nameParts('read_file')).toEqual(['read', 'file']);
    expect(nameParts('mcp__aws__getS3Object')).toEqual(['aws', 'get', 's3', 'object']);
    expect(nameParts('HTTPServer')).toEqual(['http', 'server']);
    expect(nameParts('mcp__files__read_files_read')).toEqual(['files', 'read']);
  });

  it('finds the words \\bterm\\b can match whole', () => {
    expect(descriptionWords('create_issue, an issue-tracker (v2) é')).toEqual(['create_issue', 'an', 'issue', 'tracker', 'v2']);
  });

  it('parses queries', () => {
    expect(parseQuery('   ')).toEqual({ kind: 'empty' });
    expect(parseQuery('  Select:A, b ,,C ')).toEqual({ kind: 'select', names: ['a', 'b', 'c'] });
    expect(parseQuery('+Slack send  +x')).toEqual({ kind: 'keywords', text: '+slack send  +x', terms: ['slack', 'x', 'send'], required: ['slack', 'x'] });
    expect(parseQuery('+ a')).toEqual({ kind: 'keywords', text: '+ a', terms: ['+', 'a'], required: [] });
    expect(parseQuery('select:')).toEqual({ kind: 'keywords', text: 'select:', terms: ['select:'], required: [] });
  });

  it('scores by hand', () => {
    const t: ScoringTool = { parts: ['github', 'create', 'issue'], isMcp: true, description: 'create an issue in a github repository. issues are tracked.' };
    expect(keywordScore(t, ['issue'])).toBe(12 + 2);
    expect(keywordScore(t, ['iss'])).toBe(6);
    expect(keywordScore(t, ['repo'])).toBe(0);
    expect(keywordScore(t, ['issues'])).toBe(2);
    expect(keywordScore(t, ['create', 'issue'])).toBe(28);
    expect(keywordScore(t, ['issue', 'issue'])).toBe(28);
    const core = { ...t, isMcp: false };
    expect(keywordScore(core, ['issue'])).toBe(10 + 2);
    expect(keywordScore(core, ['iss'])).toBe(5);
    expect(keywordScore({ ...t, searchHint: 'tickets bugs' }, ['bugs'])).toBe(4);
    expect(keywordScore(t, ['repository.'])).toBe(0); // \brepository\.\b needs a word character after the dot
    expect(keywordScore(t, ['github'])).toBe(14);
  });
});

describe('the searcher', () => {
  const catalog = handCatalog();
  const ids = catalog.tools.map((t) => t.id);
  const make = async (options = {}) => {
    const s = new ClaudeCodeToolSearch('claude-code', options);
    await s.index(catalog);
    return s;
  };

  it('keyword scoring, by hand', async () => {
    const s = await make();
    expect(await s.search('create issue', { k: 10 })).toEqual([
      { id: 'mcp__github__create_issue', score: 28 },
      { id: 'plugin__notes__createNote', score: 16 },
      { id: 'mcp__github__create_pull_request', score: 12 },
      { id: 'mcp__github__list_issues', score: 6 },
    ]);
    expect(await s.search('create issue', { k: 2 })).toEqual([
      { id: 'mcp__github__create_issue', score: 28 },
      { id: 'plugin__notes__createNote', score: 16 },
    ]);
    expect(await s.search('+issue create', { k: 10 })).toEqual([
      { id: 'mcp__github__create_issue', score: 28 },
      { id: 'mcp__github__list_issues', score: 6 },
    ]);
    expect(await s.search('channel', { k: 10 })).toEqual([
      { id: 'mcp__slack__list_channels', score: 6 },
      { id: 'mcp__slack__send_message', score: 2 },
    ]);
    expect(await s.search('slack-channel', { k: 10 })).toEqual([{ id: 'mcp__slack__send_message', score: 2 }]);
    expect(await s.search('+zzz create', { k: 10 })).toEqual([]);
    expect(await s.search('run shell', { k: 10 })).toEqual([]); // core tools are not searched
  });

  it('fast paths: exact id or name, select:, mcp__ prefix', async () => {
    const s = await make();
    expect(await s.search('  MCP__GITHUB__CREATE_ISSUE ', { k: 5 })).toEqual([{ id: 'mcp__github__create_issue', score: 1 }]);
    expect(await s.search('send_message', { k: 5 })).toEqual([{ id: 'mcp__slack__send_message', score: 1 }]);
    expect(await s.search('bash', { k: 5 })).toEqual([{ id: 'bash', score: 1 }]);
    expect(await s.search('select:mcp__slack__send_message, createNote,nope', { k: 5 })).toEqual([
      { id: 'mcp__slack__send_message', score: 2 },
      { id: 'plugin__notes__createNote', score: 1 },
    ]);
    expect(await s.search('select:nope', { k: 5 })).toEqual([]);
    expect(await s.search('mcp__slack', { k: 5 })).toEqual([
      { id: 'mcp__slack__list_channels', score: 1 },
      { id: 'mcp__slack__send_message', score: 1 },
    ]);
    expect(await s.search('mcp__slack', { k: 1 })).toEqual([{ id: 'mcp__slack__list_channels', score: 1 }]);
  });

  it('honours the scope mask on every path', async () => {
    const s = await make();
    const allowed = Uint8Array.from(ids, (id) => (id === 'mcp__github__create_issue' || id === 'bash' ? 0 : 1));
    expect((await s.search('create issue', { k: 10, allowed })).map((h) => h.id)).toEqual([
      'plugin__notes__createNote',
      'mcp__github__create_pull_request',
      'mcp__github__list_issues',
    ]);
    expect(await s.search('mcp__github__create_issue', { k: 10, allowed })).toEqual([]);
    expect(await s.search('select:mcp__github__create_issue,bash', { k: 10, allowed })).toEqual([]);
    expect(await s.search('bash', { k: 10, allowed })).toEqual([]);
  });

  it('alwaysLoad tools are eager: not searched by keywords, still found by exact name', async () => {
    const s = await make({ alwaysLoad: ['slack'] });
    expect(await s.search('channel', { k: 10 })).toEqual([]);
    expect(await s.search('mcp__slack__send_message', { k: 10 })).toEqual([{ id: 'mcp__slack__send_message', score: 1 }]);
  });

  it('equals the reference kernel on a generated catalog', async () => {
    const { catalog: tiny, requests } = CONTRACT_DATA;
    const s = new ClaudeCodeToolSearch('claude-code');
    await s.index(tiny);
    const deferred = tiny.tools.filter((t) => t.source !== 'core');
    const scoring = deferred.map((t) => ({ id: t.id, tool: { parts: nameParts(t.id), isMcp: true, description: cut2k(t.description).toLowerCase() } }));
    const queries = [...requests, 'list +contacts', '+crm get', 'deal-stage update', 'c++ (x)', '+ -'];
    let compared = 0;
    for (const q of queries) {
      const parsed = parseQuery(q);
      if (parsed.kind !== 'keywords' || tiny.tools.some((t) => t.id.toLowerCase() === parsed.text || t.name.toLowerCase() === parsed.text)) continue;
      const expected = rankStable(
        scoring
          .filter(({ tool }) => parsed.required.every((r) => tool.parts.some((p) => p.includes(r))))
          .map(({ id, tool }) => ({ id, score: keywordScore(tool, parsed.terms) }))
          .filter((h) => h.score > 0),
      ).slice(0, 10);
      expect(await s.search(q, { k: 10 }), q).toEqual(expected);
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
  });
});

describe('the 10,000-tool ceiling prefilter (ceiling 5)', () => {
  // Namespaces a (3 tools), b (2), c (2) in catalog order, plus a core tool: 7 deferrable.
  const catalog: Catalog = catalogWith(
    [
      makeTool({ source: 'core', name: 'bash', summary: 'shell', description: 'Run a shell command.' }),
      mcp('alpha', 'one', 'First alpha tool.'),
      mcp('alpha', 'two', 'Second alpha tool.'),
      mcp('alpha', 'three', 'Third alpha tool.'),
      mcp('github', 'create_issue', 'Create a GitHub issue.'),
      mcp('github', 'list_issues', 'List GitHub issues.'),
      mcp('slack', 'send_message', 'Send a Slack message.'),
      mcp('slack', 'list_channels', 'List Slack channels.'),
    ],
    {
      alpha: ['Alpha tools', ''],
      github: ['GitHub code hosting', 'GitHub issues and pull requests.'],
      slack: ['Slack messaging', 'Slack channels and messages.'],
    },
  );
  const roles: RoleMap = { schemaVersion: 1, always: ['slack'], roles: { dev: { description: '', namespaces: ['github'] } } };
  const ids = catalog.tools.map((t) => t.id);

  it.each([
    { counts: { x: 3, y: 3, z: 1 }, admitted: ['x', 'z'] },
    { counts: { x: 3, y: 2, z: 1 }, admitted: ['x', 'y'] },
    { counts: { x: 0, y: 2, z: 3 }, admitted: ['y', 'z'] },
    { counts: { x: 6 }, admitted: [] },
  ])('admits whole namespaces in order, each that still fits (first fit): $counts', ({ counts, admitted }) => {
    const namespaces = Object.entries(counts).map(([name, count]) => ({ name, count }));
    expect(admitNamespaces(namespaces, 5)).toEqual(admitted);
  });

  it('role first: the role namespaces plus always', async () => {
    const s = new ClaudeCodeToolSearch('claude-code', { ceiling: 5, roles });
    await s.index(catalog);
    expect((await s.search('alpha tool', { k: 10, role: 'dev' })).map((h) => h.id)).toEqual([]);
    expect(s.lastPrefilter()).toEqual({ visible: 7, applied: true, byRole: true, byNamespace: false, namespaces: [], admitted: 4 });
    expect((await s.search('list', { k: 10, role: 'dev' })).map((h) => h.id)).toEqual(['mcp__github__list_issues', 'mcp__slack__list_channels']);
  });

  it('role first with tool patterns: only the tools the role sees, counted per namespace', async () => {
    const partial: RoleMap = {
      schemaVersion: 1,
      always: [],
      roles: { triage: { description: '', namespaces: [], tools: ['mcp__github__list_*', 'mcp__slack__send_message'] } },
    };
    const s = new ClaudeCodeToolSearch('claude-code', { ceiling: 5, roles: partial });
    await s.index(catalog);
    expect((await s.search('issue', { k: 10, role: 'triage' })).map((h) => h.id)).toEqual(['mcp__github__list_issues']);
    expect(s.lastPrefilter()).toEqual({ visible: 7, applied: true, byRole: true, byNamespace: false, namespaces: [], admitted: 2 });
    // under the ceiling no prefilter applies: the role does not limit the search
    const wide = new ClaudeCodeToolSearch('claude-code', { ceiling: 100, roles: partial });
    await wide.index(catalog);
    expect((await wide.search('issue', { k: 10, role: 'triage' })).map((h) => h.id)).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    // over the ceiling even after the role step, whole namespaces of the role's part are admitted in
    // catalog order, whatever the request: github (1 tool) fits, slack would overflow
    const tight = new ClaudeCodeToolSearch('claude-code', { ceiling: 1, roles: partial });
    await tight.index(catalog);
    expect((await tight.search('slack message', { k: 10, role: 'triage' })).map((h) => h.id)).toEqual([]);
    expect(tight.lastPrefilter()).toEqual({ visible: 7, applied: true, byRole: true, byNamespace: true, namespaces: ['github'], admitted: 1 });
    expect((await tight.search('issue', { k: 10, role: 'triage' })).map((h) => h.id)).toEqual(['mcp__github__list_issues']);
  });

  it('then whole namespaces in catalog order, the same for every request', async () => {
    const s = new ClaudeCodeToolSearch('claude-code', { ceiling: 5, roles });
    await s.index(catalog);
    // alpha (3) + github (2) = 5; slack would overflow: a Slack request finds nothing.
    expect(await s.search('slack message', { k: 10 })).toEqual([]);
    expect(s.lastPrefilter()).toEqual({ visible: 7, applied: true, byRole: false, byNamespace: true, namespaces: ['alpha', 'github'], admitted: 5 });
    expect((await s.search('list', { k: 10 })).map((h) => h.id)).toEqual(['mcp__github__list_issues']);
    expect(s.lastPrefilter().namespaces).toEqual(['alpha', 'github']);
    // An unknown role skips the role step.
    expect((await s.search('issue', { k: 10, role: 'nobody' })).map((h) => h.id)).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    expect(s.lastPrefilter().namespaces).toEqual(['alpha', 'github']);
    // A mask that leaves ≤ 5 visible needs no prefilter.
    const allowed = Uint8Array.from(ids, (id) => (id.startsWith('mcp__alpha') ? 0 : 1));
    expect((await s.search('list', { k: 10, allowed })).map((h) => h.id)).toEqual(['mcp__github__list_issues', 'mcp__slack__list_channels']);
    expect(s.lastPrefilter()).toEqual({ visible: 4, applied: false, byRole: false, byNamespace: false, namespaces: [], admitted: 4 });
  });

  it('a planted gold tool: advertised, searchable and on the wire for the caller whose role admits it, none of the three for the others', async () => {
    const p = createClaudeCodeProfile('claude-code', { ceiling: 5, roles });
    await p.index(catalog);
    const gold = 'mcp__slack__send_message';
    const request = 'send a slack message';
    const roleless = p.beforeSearch({});
    expect(roleless.advertisement).not.toContain(gold);
    expect(roleless.wire).not.toContain(gold);
    expect((await p.searcher()!.search(request, { k: 5 })).map((h) => h.id)).not.toContain(gold);
    expect(await p.searcher()!.search(`select:${gold}`, { k: 5 })).toEqual([]);
    const dev = p.beforeSearch({ role: 'dev' }); // roles.always holds slack
    expect(dev.advertisement).toContain(gold);
    expect(dev.wire).toContain(gold);
    expect((await p.searcher()!.search(request, { k: 5, role: 'dev' }))[0]?.id).toBe(gold);
  });

  it('the advertisement: role step, then namespaces in catalog order; the wire carries the same tools', async () => {
    const p = createClaudeCodeProfile('claude-code', { ceiling: 5, roles });
    await p.index(catalog);
    const named = (b: { advertisement: string }) => b.advertisement.split('\n').filter((l) => l.startsWith('mcp__'));
    expect(named(p.beforeSearch({}))).toEqual(ids.slice(1, 6));
    expect(p.beforeSearch({}).wire).toEqual(ids.slice(1, 6));
    expect(named(p.beforeSearch({ role: 'dev' }))).toEqual(ids.slice(4));
    expect(p.beforeSearch({ role: 'dev' }).wire).toEqual(ids.slice(4));
  });
});

describe('above the ceiling: one admitted set is advertised, searched and sent', () => {
  const { catalog, roles } = CONTRACT_DATA;
  const ids = catalog.tools.map((t) => t.id);
  const deferrable = catalog.tools.filter((t) => t.source !== 'core').map((t) => t.id);
  const namespaces = [...new Set(catalog.tools.map((t) => t.namespace))];
  const callers: { allowed?: Uint8Array; role?: string }[] = [
    {},
    ...Object.keys(roles!.roles).map((role) => ({ role })),
    { role: 'no-such-role' },
    { allowed: Uint8Array.from(catalog.tools, (t) => (t.namespace === namespaces[1] ? 0 : 1)) },
    { allowed: Uint8Array.from(ids, (_, i) => (i % 3 === 0 ? 0 : 1)), role: Object.keys(roles!.roles)[0]! },
  ];

  it.each([40, 100, 1_000_000])(
    'ceiling %i: a deferrable tool is advertised iff a search can reach it iff it is on the wire, and the wire stays inside the caller mask',
    async (ceiling) => {
      const p = createClaudeCodeProfile('claude-code', { ceiling, roles });
      await p.index(catalog);
      const s = p.searcher()!;
      let applied = 0;
      for (const caller of callers) {
        const before = p.beforeSearch(caller);
        const advertised = new Set(before.advertisement.split('\n').filter((l) => deferrable.includes(l)));
        expect(before.wire, JSON.stringify(caller.role)).toEqual([...advertised]);
        expect(before.wire!.length).toBeLessThanOrEqual(ceiling);
        for (const id of before.wire!) expect(caller.allowed === undefined || caller.allowed[ids.indexOf(id)] === 1).toBe(true);
        for (const id of deferrable) {
          const found = (await s.search(`select:${id}`, { k: 1, ...caller })).map((h) => h.id);
          expect(found, `${id} for ${JSON.stringify(caller.role)}`).toEqual(advertised.has(id) ? [id] : []);
        }
        // keyword searches reach nothing else
        for (const request of CONTRACT_DATA.requests.slice(0, 20)) {
          for (const h of await s.search(request, { k: 5, ...caller })) expect(advertised.has(h.id)).toBe(true);
        }
        if ((s as ClaudeCodeToolSearch).lastPrefilter().applied) applied++;
      }
      if (ceiling < 100) expect(applied).toBeGreaterThan(0);
      else if (ceiling === 1_000_000) expect(applied).toBe(0);
    },
  );
});

describe('activation', () => {
  const tool = mcp('s', 'x', 'd');
  const catalog: Catalog = {
    tools: [makeTool({ source: 'core', name: 'bash', summary: 's', description: 'Run.' }), tool, mcp('s', 'y', 'd')],
    skills: [],
    servers: [],
    plugins: [],
  };

  it('counts chars/4 of the definition JSON', () => {
    // {"name":"mcp__s__x","description":"d","input_schema":{"type":"object","properties":{}}} = 87 chars
    expect(definitionTokens(tool)).toBe(22);
    expect(toolSearchActive({ auto: 10 }, 22, 220)).toBe(true);
    expect(toolSearchActive({ auto: 10 }, 22, 221)).toBe(false);
    expect(toolSearchActive('on', 0)).toBe(true);
    expect(toolSearchActive('off', 1e9)).toBe(false);
  });

  it('auto: on at the threshold, everything eager below it', async () => {
    // 2 deferrable tools × 22 = 44 tokens; 10% of 440 = 44.
    const on = createClaudeCodeProfile('claude-code-auto', { toolSearch: { auto: 10 }, contextWindow: 440 });
    await on.index(catalog);
    expect(on.searcher()).not.toBeNull();
    expect(on.beforeSearch({}).eager).toEqual(['bash']);
    expect(on.describe()).toMatchObject({ activation: { deferrableTokens: 44, thresholdTokens: 44, active: true } });

    const off = createClaudeCodeProfile('claude-code-auto', { toolSearch: { auto: 10 }, contextWindow: 441 });
    await off.index(catalog);
    expect(off.searcher()).toBeNull();
    expect(off.beforeSearch({})).toEqual({ eager: ['bash', 'mcp__s__x', 'mcp__s__y'], metaTools: [], advertisement: '' });
  });

  it('off: everything eager; bad options are refused', async () => {
    const p = createClaudeCodeProfile('x', { toolSearch: 'off' });
    await p.index(catalog);
    expect(p.searcher()).toBeNull();
    expect(() => createClaudeCodeProfile('x', { toolSearch: { auto: 101 } })).toThrow(RangeError);
    expect(() => createClaudeCodeProfile('x', { ceiling: 0 })).toThrow(RangeError);
  });

  it('claude-code-auto on the contract catalog is active (deferrable tokens ≥ 20,000)', async () => {
    const p = createClaudeCodeProfile('claude-code-auto', { toolSearch: { auto: 10 } });
    await p.index(CONTRACT_DATA.catalog);
    expect(p.searcher()).not.toBeNull();
  });
});

describe('exposure', () => {
  const catalog = handCatalog();
  const ids = catalog.tools.map((t) => t.id);

  it('before search: core eager, ToolSearch, deferred names and server instructions', async () => {
    const p = createClaudeCodeProfile('claude-code');
    await p.index(catalog);
    const before = p.beforeSearch({});
    expect(before.eager).toEqual(['bash']);
    expect(before.metaTools).toEqual([TOOL_SEARCH_TOOL]);
    expect(before.advertisement).toBe(
      '<available-deferred-tools>\n' +
        'mcp__github__create_issue\nmcp__github__list_issues\nmcp__github__create_pull_request\nmcp__slack__send_message\nmcp__slack__list_channels\nplugin__notes__createNote\n' +
        '</available-deferred-tools>\n\n' +
        '# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n' +
        '## github\nUse owner/repo names.\n\n## slack\nChannels are #names.',
    );
    // below the ceiling every deferred definition crosses the wire (defer_loading: true)
    expect(before.wire).toEqual(ids.filter((id) => id !== 'bash'));
  });

  it('the scope mask hides names and the instructions of servers with nothing visible', async () => {
    const p = createClaudeCodeProfile('claude-code', { alwaysLoad: ['plugin__notes__createNote'] });
    await p.index(catalog);
    const allowed = Uint8Array.from(ids, (id) => (id.startsWith('mcp__slack') || id === 'mcp__github__list_issues' ? 0 : 1));
    const before = p.beforeSearch({ allowed });
    expect(before.eager).toEqual(['bash', 'plugin__notes__createNote']);
    expect(before.advertisement).toBe(
      '<available-deferred-tools>\nmcp__github__create_issue\nmcp__github__create_pull_request\n</available-deferred-tools>\n\n' +
        '# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n## github\nUse owner/repo names.',
    );
    expect(before.wire).toEqual(['mcp__github__create_issue', 'mcp__github__create_pull_request']);
    expect(p.beforeSearch({ allowed: new Uint8Array(ids.length) })).toEqual({ eager: [], metaTools: [TOOL_SEARCH_TOOL], wire: [], advertisement: '' });
  });

  it('after search: tool_reference blocks', async () => {
    const p = createClaudeCodeProfile('claude-code');
    await p.index(catalog);
    const hits = await p.searcher()!.search('create issue', { k: p.searchLimit });
    const added = p.afterSearch(hits.slice(0, 2), {});
    expect(added).toEqual({
      form: 'references',
      loaded: ['mcp__github__create_issue', 'plugin__notes__createNote'],
      text: '[{"type":"tool_reference","tool_name":"mcp__github__create_issue"},{"type":"tool_reference","tool_name":"plugin__notes__createNote"}]',
      // the provider expands the references into the definitions (descriptions cut at 2 KB)
      definitions: hits.slice(0, 2).map((h) => loadedDefinition(catalog.tools.find((t) => t.id === h.id)!)),
    });
    expect(p.afterSearch([], {}).text).toBe('No matching deferred tools found');
    expect(toolReferenceText([])).toBe('No matching deferred tools found');
    expect(p.searchLimit).toBe(5);
  });

  it('cuts descriptions and instructions at 2 KB (UTF-8, character boundary)', () => {
    const long = mcp('s', 'x', 'a'.repeat(3000));
    expect(loadedDefinition(long).description).toBe('a'.repeat(2048));
    expect(cut2k('é'.repeat(1500))).toBe('é'.repeat(1024));
    expect(cut2k('x' + '😀'.repeat(600))).toBe('x' + '😀'.repeat(511));
    expect(serverInstructionsBlock([{ name: 's', instructions: 'é'.repeat(1500) }]).endsWith(`## s\n${'é'.repeat(1024)}`)).toBe(true);
    expect(deferredToolsBlock([])).toBe('');
  });

  it('describes itself as plain JSON', async () => {
    const p = createClaudeCodeProfile('claude-code', { roles: CONTRACT_DATA.roles });
    await p.index(catalog);
    expect(JSON.parse(JSON.stringify(p.describe()))).toEqual(p.describe());
  });
});

describe('retriever contract: ToolSearch', () => {
  retrieverContract(() => new ClaudeCodeToolSearch('claude-code', { roles: CONTRACT_DATA.roles }), 'claude-code');
});

describe('retriever contract: ToolSearch under a ceiling of 100', () => {
  retrieverContract(() => new ClaudeCodeToolSearch('claude-code', { roles: CONTRACT_DATA.roles, ceiling: 100 }), 'claude-code');
});

describe('review fixes', () => {
  it('tool search off (or auto below the threshold): no ToolSearch, so a search adds nothing', async () => {
    const p = createClaudeCodeProfile('claude-code', { toolSearch: 'off' });
    await p.index(handCatalog());
    expect(p.afterSearch([], {})).toEqual({ form: 'references', loaded: [], text: '' });
    const on = createClaudeCodeProfile('claude-code');
    await on.index(handCatalog());
    expect(on.afterSearch([], {}).text).toBe('No matching deferred tools found');
  });
});

describe('query style and model calls', () => {
  it.each([
    ['claude-code', {}],
    ['claude-code-auto', { toolSearch: { auto: 10 } }],
  ] as const)('%s: the model writes the ToolSearch query (keywords); search, then the exact call', async (name, options) => {
    const p = createClaudeCodeProfile(name, options);
    expect(p.queryStyle).toBe('keywords');
    expect(p.calls).toEqual({ search: 1, perFoundTool: 0, call: 'each' });
    await p.index(CONTRACT_DATA.catalog);
    expect(p.describe()).toMatchObject({ query: expect.stringMatching(/^keywords/) });
  });
});
