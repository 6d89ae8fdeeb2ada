import { describe, expect, it } from 'vitest';
import { catalogWith } from '../../test/profile-catalog.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { Policy } from '../retrievers/policy.ts';
import { rankStable } from '../retrievers/rank.ts';
import type { Hit, Retriever, SearchContext } from '../retrievers/types.ts';
import { unavailableAnswer } from './seed/index.ts';
import { createProfile } from './registry.ts';
import {
  createGatedStickyDeferred,
  createNamespaceFiltered,
  createNamespaceRouting,
  createRoutedDeferred,
  createSemanticRetrieval,
  namespaceList,
  SEMANTIC_DEFAULT_FLOOR,
} from './seed/index.ts';
import { toolDefinition } from './text.ts';
import type { Caller, Profile } from './types.ts';

const tool = (server: string, name: string, description: string, scopes: string[] = []) =>
  makeTool({ source: 'mcp', server, name, summary: `${description}.`, description, scopes });
const tools: Tool[] = [
  makeTool({ source: 'core', name: 'finish', summary: 'Finish the task.', description: 'finish the task', pinned: true }),
  tool('github', 'create_issue', 'open an issue in a repository', ['github:write']),
  tool('github', 'list_issues', 'list the issues of a repository', ['github:read']),
  tool('github', 'close_issue', 'close an issue of a repository', ['github:write']),
  tool('slack', 'post_message', 'post a message to a channel', ['slack:write']),
  tool('slack', 'list_channels', 'list the channels of a workspace', ['slack:read']),
  tool('k8s', 'list_pods', 'list the pods of a cluster', ['k8s:read']),
  tool('k8s', 'delete_pod', 'delete a pod of a cluster', ['k8s:admin']),
];
const catalog: Catalog = catalogWith(tools, {
  github: ['GitHub issues and repositories, for code hosting.', ''],
  slack: ['Slack messages and channels.', ''],
  k8s: ['Kubernetes pods and clusters.', ''],
});
const ids = (hits: readonly Hit[] | readonly string[]) => hits.map((h) => (typeof h === 'string' ? h : h.id));
const position = new Map(tools.map((t, i) => [t.id, i]));
const mask = (...allowed: string[]) => Uint8Array.from(tools, (t) => (allowed.includes(t.id) ? 1 : 0));
const roles = { schemaVersion: 1, always: [], roles: { dev: { description: '', namespaces: ['github'] } } };

/**
 * A stand-in for embed with hand-checkable scores: the cosine of binary bag-of-words vectors of the
 * request and the tool's description (stop words kept); every allowed tool is returned, like embed.
 */
class WordCosine implements Retriever {
  readonly name = 'word-cosine';
  private docs: Array<{ id: string; words: Set<string> }> = [];
  async index(c: Catalog): Promise<void> {
    this.docs = c.tools.map((t) => ({ id: t.id, words: new Set(t.description.split(' ')) }));
  }
  async search(request: string, ctx: SearchContext): Promise<Hit[]> {
    const q = new Set(request.split(' '));
    const hits = this.docs
      .filter((_, i) => !ctx.allowed || ctx.allowed[i] === 1)
      .map((d) => ({ id: d.id, score: [...q].filter((w) => d.words.has(w)).length / Math.sqrt(q.size * d.words.size) }));
    return rankStable(hits).slice(0, ctx.k);
  }
}

async function indexed<P extends Profile>(p: P): Promise<P> {
  await p.index(catalog);
  return p;
}

describe('semantic-retrieval', () => {
  it('is the seed configuration: embed, top 8, sticky, the calibrated default floor, in full', async () => {
    const p = createProfile('semantic-retrieval');
    expect(p.searchLimit).toBe(8);
    expect(p.sticky).toBe(true);
    expect(p.defaultFloor).toBe(SEMANTIC_DEFAULT_FLOOR);
    expect(SEMANTIC_DEFAULT_FLOOR).toBeGreaterThan(0);
    expect(SEMANTIC_DEFAULT_FLOOR).toBeLessThan(1);
    expect(p.calls).toEqual({ search: 0, perFoundTool: 0, call: 'each' });
    expect(p.queryStyle).toBe('raw');
    const d = JSON.stringify(p.describe());
    expect(d).toContain('small preset, seed 11');
    expect(d).toContain('"defaultFloor":0.7028');
  });

  it('keeps the set on a follow-up and re-retrieves on a topic change (Policy, sticky, floor)', async () => {
    const p = await indexed(createSemanticRetrieval('semantic-retrieval', {}, new WordCosine()));
    const policy = new Policy(catalog);
    const floor = 0.5;
    const turn = (request: string, n: number) =>
      policy.expose(p.searcher(), request, { session: { id: 's', turn: n } }, { depth: p.searchLimit, floor, sticky: p.sticky === true });
    // turn 0: list_pods' own description (cosine 1); list_issues and list_channels share 4 of 6 words
    // (0.67), delete_pod 3 of its 5 (0.55); the rest is below the floor
    const t0 = await turn('list the pods of a cluster', 0);
    expect(t0.kept).toBeUndefined();
    expect(ids(t0.ranked)).toEqual(['mcp__k8s__list_pods', 'mcp__github__list_issues', 'mcp__slack__list_channels', 'mcp__k8s__delete_pod']);
    // turn 1, a follow-up: "delete a pod" matches the carried delete_pod at 3/√(3·5) ≈ 0.77 ≥ 0.5: kept, no re-retrieval
    const t1 = await turn('delete a pod', 1);
    expect(t1.kept).toBe(true);
    expect(new Set(ids(t1.ranked))).toEqual(new Set(ids(t0.ranked)));
    expect(t1.ranked[0]!.id).toBe('mcp__k8s__delete_pod');
    // turn 2, a new topic: "post message channel" scores < 0.5 against every carried tool: re-retrieved
    const t2 = await turn('post message channel', 2);
    expect(t2.kept).toBeUndefined();
    expect(t2.ranked[0]!.id).toBe('mcp__slack__post_message');
    expect(ids(t2.ranked)).not.toContain('mcp__k8s__list_pods');
    // the new set is carried from now on
    expect((await turn('post a message', 3)).kept).toBe(true);
  });

  it('adds the hits in full, pinned tools eager and not loaded twice; an off-topic request leaves only the pinned tools', async () => {
    const p = await indexed(createSemanticRetrieval('semantic-retrieval', {}, new WordCosine()));
    expect(p.beforeSearch({}).eager).toEqual(['finish']);
    const added = p.afterSearch(
      [
        { id: 'mcp__slack__post_message', score: 1 },
        { id: 'finish', score: 0.9 },
      ],
      {},
      'post a message',
    );
    expect(added.loaded).toEqual(['mcp__slack__post_message', 'finish']);
    expect(added.definitions).toEqual([toolDefinition(tools[4]!)]);
    const off = await new Policy(catalog).expose(p.searcher(), 'what is the weather', {}, { depth: 8, floor: 0.5 });
    expect(off.ranked).toEqual([]);
    expect(off.pinned).toEqual(['finish']);
  });
});

describe('namespace-routing', () => {
  it('advertises the namespaces and open_namespace; pinned tools eager', async () => {
    const p = await indexed(createNamespaceRouting('namespace-routing'));
    const b = p.beforeSearch({ allowed: mask('finish', 'mcp__slack__post_message', 'mcp__k8s__list_pods') });
    expect(b.eager).toEqual(['finish']);
    expect(b.metaTools.map((t) => t.name)).toEqual(['open_namespace']);
    expect(b.advertisement).toBe('Tool namespaces:\n- k8s: Kubernetes pods and clusters.\n- slack: Slack messages and channels.\n');
    expect(p.calls).toEqual({ search: 0, perFoundTool: 0, perNamespace: 1, call: 'each' });
    expect(p.queryStyle).toBe('raw');
  });

  it('opens the best namespace and expands all of its tools the caller may use, and only those', async () => {
    const p = await indexed(createNamespaceRouting('namespace-routing'));
    const caller: Caller = { allowed: mask('finish', 'mcp__github__create_issue', 'mcp__github__list_issues', 'mcp__slack__post_message') };
    const q = 'open an issue in the github repository';
    const hits = await p.searcher().search(q, { k: p.searchLimit, allowed: caller.allowed });
    // ranked: the opened namespace's allowed tools, the matching one first (close_issue is masked out)
    expect(ids(hits)).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    expect(p.searcher().lastRoute()).toEqual(['github']);
    const added = p.afterSearch(hits.slice(0, 1), caller, q);
    expect(added.loaded).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    expect(added.definitions).toEqual([toolDefinition(tools[1]!), toolDefinition(tools[2]!)]);
    expect(added.namespacesOpened).toBe(1);
    expect(added.form).toBe('schemas');
  });

  it('ranks only the matching tools; with no tool of it matching (or none above the floor) the model opens nothing', async () => {
    const p = await indexed(createNamespaceRouting('namespace-routing'));
    // "hosting" is only in github's server description: the router picks github, but no tool matches
    const q = 'code hosting';
    const hits = await p.searcher().search(q, { k: 10 });
    expect(hits).toEqual([]);
    expect(p.searcher().lastRoute()).toEqual(['github']);
    expect(p.afterSearch(hits, {}, q)).toMatchObject({ loaded: [], namespacesOpened: 0, text: '' });
    // one matching tool is enough to open it: the whole namespace is expanded
    const one = await p.searcher().search('close an issue', { k: 10 });
    expect(ids(one)).toContain('mcp__github__close_issue');
    expect([...p.afterSearch(one, {}, 'close an issue').loaded].sort()).toEqual([
      'mcp__github__close_issue',
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]);
  });

  it('a request that matches no namespace opens none', async () => {
    const p = await indexed(createNamespaceRouting('namespace-routing'));
    const q = 'what a lovely morning';
    const hits = await p.searcher().search(q, { k: 10 });
    expect(hits).toEqual([]);
    expect(p.afterSearch(hits, {}, q)).toMatchObject({ loaded: [], namespacesOpened: 0 });
  });

  it('through the policy: the ranking stays inside the opened namespace and the scope mask', async () => {
    const p = await indexed(createNamespaceRouting('namespace-routing'));
    const policy = new Policy(catalog);
    const callerScopes = ['k8s:read', 'slack:write'];
    const e = await policy.expose(p.searcher(), 'list the pods of the kubernetes cluster', { callerScopes }, { depth: p.searchLimit });
    expect(ids(e.ranked)).toEqual(['mcp__k8s__list_pods']);
    const added = p.afterSearch(e.ranked, { allowed: policy.allowedMask(callerScopes)! }, 'list the pods of the kubernetes cluster');
    expect(added.loaded).toEqual(['mcp__k8s__list_pods']);
  });
});

describe('namespace-filtered (the former namespace-routing)', () => {
  it('is the harness-side filter: namespace retriever, 5 results in full, no model call', async () => {
    const p = await indexed(createNamespaceFiltered('namespace-filtered'));
    expect(p.searchLimit).toBe(5);
    expect(p.searcher().name).toBe('namespace');
    expect(p.calls).toEqual({ search: 0, perFoundTool: 0, call: 'each' });
    expect(p.beforeSearch({}).metaTools).toEqual([]);
    const added = p.afterSearch([{ id: 'mcp__github__create_issue', score: 2 }], {}, 'open an issue');
    expect(added).toEqual({ form: 'schemas', loaded: ['mcp__github__create_issue'], text: '', definitions: [toolDefinition(tools[1]!)] });
  });
});

describe('gated-sticky-deferred', () => {
  it('gates by role before ranking: a tool outside the role never appears, however well it matches', async () => {
    const p = await indexed(createGatedStickyDeferred('gated-sticky-deferred', { roles }, new WordCosine()));
    const policy = new Policy(catalog);
    const q = 'post a message to a channel';
    const dev = await policy.expose(p.searcher(), q, { role: 'dev' }, { depth: p.searchLimit });
    expect(dev.ranked.length).toBeGreaterThan(0);
    // the role sees github (and the pinned tools, which every role sees)
    for (const h of dev.ranked) expect(['github', 'core'], h.id).toContain(tools[position.get(h.id)!]!.namespace);
    expect(ids(dev.ranked)).not.toContain('mcp__slack__post_message');
    expect(ids(dev.ranked)).not.toContain('mcp__slack__list_channels');
    // not gated without a role: the slack tool is found first
    const anyone = await policy.expose(p.searcher(), q, {}, { depth: p.searchLimit });
    expect(anyone.ranked[0]!.id).toBe('mcp__slack__post_message');
  });

  it('shows the hits as deferred entries, loads the picked schema, pinned tools in full', async () => {
    const p = await indexed(createGatedStickyDeferred('gated-sticky-deferred', { roles }, new WordCosine()));
    expect(p.sticky).toBe(true);
    expect(p.searchLimit).toBe(8);
    expect(p.defaultFloor).toBe(SEMANTIC_DEFAULT_FLOOR);
    expect(p.calls).toEqual({ search: 0, perFoundTool: 1, call: 'each' });
    const b = p.beforeSearch({ role: 'dev' });
    expect(b).toEqual({ eager: ['finish'], metaTools: [expect.objectContaining({ name: 'load_tool_schema' })], advertisement: '' });
    const added = p.afterSearch(
      [
        { id: 'mcp__github__create_issue', score: 0.9 },
        { id: 'mcp__github__close_issue', score: 0.8 },
      ],
      { role: 'dev' },
      'open an issue',
    );
    expect(added).toEqual({
      form: 'metadata',
      loaded: ['mcp__github__create_issue', 'mcp__github__close_issue'],
      text: '- mcp__github__create_issue: open an issue in a repository.\n- mcp__github__close_issue: close an issue of a repository.',
      definitions: [toolDefinition(tools[1]!)],
    });
    // nothing retrieved (all below the floor): nothing shown, nothing loaded
    expect(p.afterSearch([], { role: 'dev' }, 'hello')).toEqual({ form: 'metadata', loaded: [], text: '' });
  });

  it('answers load_tool_schema for a tool outside the role like one that does not exist', async () => {
    const p = await indexed(createGatedStickyDeferred('gated-sticky-deferred', { roles }, new WordCosine()));
    expect(p.loadToolSchema('mcp__slack__post_message', { role: 'dev' })).toEqual({ found: false, answer: unavailableAnswer('mcp__slack__post_message') });
    expect(p.loadToolSchema('mcp__slack__nope', { role: 'dev' })).toEqual({ found: false, answer: unavailableAnswer('mcp__slack__nope') });
    expect(p.loadToolSchema('mcp__slack__post_message', {})).toMatchObject({ found: true });
    expect(p.loadToolSchema('mcp__github__list_issues', { role: 'dev', allowed: mask('finish') })).toMatchObject({ found: false });
  });

  it('is sticky per task through the policy: a follow-up keeps the gated set', async () => {
    const p = await indexed(createGatedStickyDeferred('gated-sticky-deferred', { roles }, new WordCosine()));
    const policy = new Policy(catalog);
    const turn = (request: string, n: number) =>
      policy.expose(p.searcher(), request, { role: 'dev', session: { id: 'g', turn: n } }, { depth: 8, floor: 0.5, sticky: true });
    const t0 = await turn('open an issue in a repository', 0);
    expect(t0.ranked[0]!.id).toBe('mcp__github__create_issue');
    expect((await turn('close an issue', 1)).kept).toBe(true);
  });
});

describe('routed-deferred', () => {
  it('opens the best namespace and shows its best tools as deferred entries', async () => {
    const p = await indexed(createRoutedDeferred('routed-deferred', {}, new WordCosine()));
    expect(p.calls).toEqual({ search: 0, perFoundTool: 1, perNamespace: 1, call: 'each' });
    expect(p.sticky).toBe(false);
    expect(p.searchLimit).toBe(8);
    const b = p.beforeSearch({});
    expect(b.eager).toEqual(['finish']);
    expect(b.metaTools.map((t) => t.name)).toEqual(['open_namespace', 'load_tool_schema']);
    expect(b.advertisement).toBe(namespaceList(catalog, tools));
    const q = 'list the slack channels';
    const e = await new Policy(catalog).expose(p.searcher(), q, {}, { depth: p.searchLimit });
    // only the slack namespace was opened: its two tools, ranked by the inner retriever
    expect(ids(e.ranked)).toEqual(['mcp__slack__list_channels', 'mcp__slack__post_message']);
    const added = p.afterSearch(e.ranked, {}, q);
    expect(added.form).toBe('metadata');
    expect(added.namespacesOpened).toBe(1);
    expect(added.text).toBe('- mcp__slack__list_channels: list the channels of a workspace.\n- mcp__slack__post_message: post a message to a channel.');
    expect(added.definitions).toEqual([toolDefinition(tools[5]!)]);
  });
});

describe('routed-deferred: the role gate first', () => {
  it("lists, opens and ranks only what the caller's role sees", async () => {
    const p = await indexed(createRoutedDeferred('routed-deferred', { roles }, new WordCosine()));
    expect(p.beforeSearch({ role: 'dev' }).advertisement).toBe('Tool namespaces:\n- github: GitHub issues and repositories, for code hosting.\n');
    const policy = new Policy(catalog);
    const q = 'post a message to a channel about the issue';
    const dev = await policy.expose(p.searcher(), q, { role: 'dev' }, { depth: p.searchLimit });
    expect(dev.ranked.length).toBeGreaterThan(0);
    for (const h of dev.ranked) expect(tools[position.get(h.id)!]!.namespace, h.id).toBe('github');
    expect(p.afterSearch(dev.ranked, { role: 'dev' }, q).namespacesOpened).toBe(1);
    // without a role the slack namespace opens
    const anyone = await policy.expose(p.searcher(), q, {}, { depth: p.searchLimit });
    expect(anyone.ranked[0]!.id).toBe('mcp__slack__post_message');
    expect(p.loadToolSchema('mcp__slack__post_message', { role: 'dev' })).toEqual({ found: false, answer: unavailableAnswer('mcp__slack__post_message') });
  });
});

describe("scope: nothing outside the caller's mask before or after a search", () => {
  const makers: Record<string, () => Profile> = {
    'deepseek-code': () => createProfile('deepseek-code'),
    'semantic-retrieval': () => createSemanticRetrieval('semantic-retrieval', {}, new WordCosine()),
    'namespace-routing': () => createNamespaceRouting('namespace-routing'),
    'namespace-filtered': () => createNamespaceFiltered('namespace-filtered'),
    'gated-sticky-deferred': () => createGatedStickyDeferred('gated-sticky-deferred', { roles }, new WordCosine()),
    'routed-deferred': () => createRoutedDeferred('routed-deferred', { roles }, new WordCosine()),
  };
  const requests = ['open an issue in a repository', 'list the pods of a cluster', 'post a message to a channel', 'delete a pod', 'list the issues'];
  const scopeSets = [['github:read', 'slack:write'], ['k8s:read'], ['github:write', 'k8s:admin', 'slack:read'], []];

  it.each(Object.keys(makers))('%s', async (name) => {
    const p = await indexed(makers[name]!());
    const policy = new Policy(catalog);
    for (const callerScopes of scopeSets) {
      const allowed = policy.allowedMask(callerScopes)!;
      const inMask = (id: string) => allowed[position.get(id)!] === 1;
      for (const role of [undefined, 'dev']) {
        const caller: Caller = { allowed, callerScopes, ...(role ? { role } : {}) };
        const b = p.beforeSearch(caller);
        for (const id of [...b.eager, ...(b.callable ?? [])]) expect(inMask(id), `${name} ${id}`).toBe(true);
        for (const t of tools) if (!inMask(t.id)) expect(b.advertisement, `${name} advertises ${t.id}`).not.toContain(t.id);
        // a listed namespace has a tool the caller may use
        for (const [, ns] of b.advertisement.matchAll(/^- ([a-z0-9]+)(?::|$)/gm))
          expect(
            tools.some((u) => u.namespace === ns && !u.pinned && inMask(u.id)),
            `${name} lists ${ns}`,
          ).toBe(true);
        const s = p.searcher();
        if (!s) continue;
        for (const q of requests) {
          const e = await policy.expose(s, q, { callerScopes, ...(role ? { role } : {}) }, { depth: p.searchLimit });
          expect(e.leaks).toEqual([]);
          const added = p.afterSearch(e.ranked, caller, q);
          for (const id of added.loaded) expect(inMask(id), `${name} loads ${id}`).toBe(true);
          for (const d of added.definitions ?? []) expect(inMask(d.name), `${name} defines ${d.name}`).toBe(true);
        }
      }
    }
  });
});
