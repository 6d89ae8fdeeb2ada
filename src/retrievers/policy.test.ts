import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { permits, Policy } from './policy.ts';
import { rankStable } from './rank.ts';
import type { Hit, Retriever, SearchContext } from './types.ts';

const catalog: Catalog = {
  tools: [
    makeTool({ name: 'list_pods', source: 'mcp', server: 'k8s', summary: '', description: 'list pods', scopes: ['k8s:read'] }),
    makeTool({ name: 'delete_pod', source: 'mcp', server: 'k8s', summary: '', description: 'delete a pod', scopes: ['k8s:admin'] }),
    makeTool({ name: 'search_logs', source: 'mcp', server: 'dd', summary: '', description: 'search logs', scopes: ['dd:read'] }),
    makeTool({ name: 'finish', source: 'core', summary: '', description: 'finish', pinned: true }),
    makeTool({ name: 'escalate', source: 'core', summary: '', description: 'escalate', pinned: true, scopes: ['support:write'] }),
  ],
  skills: [],
  servers: [],
  plugins: [],
};

/** A retriever with fixed scores that records the context it was given. */
class Fixed implements Retriever {
  readonly name = 'fixed';
  seen: SearchContext[] = [];
  constructor(
    private readonly scores: Record<string, number>,
    private readonly honourMask = true,
  ) {}
  async index(): Promise<void> {}
  async search(_request: string, ctx: SearchContext): Promise<Hit[]> {
    this.seen.push(ctx);
    const hits = catalog.tools
      .map((t, i) => ({ id: t.id, score: this.scores[t.id] ?? 0, i }))
      .filter((h) => h.score > 0 && (!this.honourMask || !ctx.allowed || ctx.allowed[h.i] === 1))
      .map(({ id, score }) => ({ id, score }));
    return rankStable(hits).slice(0, ctx.k);
  }
}

const scores = { mcp__k8s__delete_pod: 9, mcp__k8s__list_pods: 5, mcp__dd__search_logs: 1 };

describe('Policy', () => {
  it('filters by scope before ranking: the retriever receives the mask and never sees forbidden tools', async () => {
    const r = new Fixed(scores);
    const p = new Policy(catalog);
    const e = await p.expose(r, 'delete the pod', { callerScopes: ['k8s:read', 'dd:read'] }, { depth: 10 });
    expect([...r.seen[0]!.allowed!]).toEqual([1, 0, 1, 1, 0]);
    expect(e.ranked.map((h) => h.id)).toEqual(['mcp__k8s__list_pods', 'mcp__dd__search_logs']);
    expect(e.leaks).toEqual([]);
    // pinned tools are appended, but only those the caller may use
    expect(e.pinned).toEqual(['finish']);
  });

  it('passes no mask for an unrestricted caller and caches masks per scope set', async () => {
    const p = new Policy(catalog);
    expect(p.allowedMask(undefined)).toBeUndefined();
    expect(p.allowedMask(['dd:read', 'k8s:read'])).toBe(p.allowedMask(['k8s:read', 'dd:read']));
  });

  it('applies the floor and then k', async () => {
    const p = new Policy(catalog);
    const r = new Fixed(scores);
    expect((await p.expose(r, 'x', {}, { depth: 10, floor: 5 })).ranked.map((h) => h.score)).toEqual([9, 5]);
    expect((await p.expose(r, 'x', {}, { depth: 1 })).ranked.map((h) => h.id)).toEqual(['mcp__k8s__delete_pod']);
    // an off-topic request under a high floor exposes only the pinned tools
    const off = await p.expose(r, 'weather?', {}, { depth: 10, floor: 100 });
    expect(off.ranked).toEqual([]);
    expect(off.pinned).toEqual(['finish', 'escalate']);
  });

  it('keeps the hits a floor drops aside, so ranked + belowFloor is the unfloored ranking cut at depth', async () => {
    const p = new Policy(catalog);
    const r = new Fixed(scores);
    const all = (await p.expose(r, 'x', {}, { depth: 3 })).ranked;
    const floored = await p.expose(r, 'x', {}, { depth: 3, floor: 5 });
    expect(floored.ranked.map((h) => h.score)).toEqual([9, 5]);
    expect([...floored.ranked, ...(floored.belowFloor ?? [])]).toEqual(all);
    expect(floored.belowFloor!.every((h) => h.score < 5)).toBe(true);
    // no floor, or nothing below it: no belowFloor
    expect((await p.expose(r, 'x', {}, { depth: 3 })).belowFloor).toBeUndefined();
    expect((await p.expose(r, 'x', {}, { depth: 1, floor: 5 })).belowFloor).toBeUndefined();
  });

  it('counts and withholds what a leaky retriever returns outside the scopes', async () => {
    const p = new Policy(catalog);
    const e = await p.expose(new Fixed(scores, false), 'delete the pod', { callerScopes: ['k8s:read'] }, { depth: 10 });
    expect(e.leaks).toEqual(['mcp__k8s__delete_pod', 'mcp__dd__search_logs']);
    expect(e.ranked.map((h) => h.id)).toEqual(['mcp__k8s__list_pods']);
  });

  it('rejects a tool id that is not in the catalog', async () => {
    const bogus: Retriever = { name: 'bogus', index: async () => {}, search: async () => [{ id: 'nope', score: 1 }] };
    await expect(new Policy(catalog).expose(bogus, 'x', {}, { depth: 5 })).rejects.toThrow(/"nope", which is not in the catalog/);
  });

  it('permits() needs every scope of the tool', () => {
    expect(permits(undefined, catalog.tools[1]!)).toBe(true);
    expect(permits(['k8s:read'], catalog.tools[1]!)).toBe(false);
    expect(permits([], catalog.tools[3]!)).toBe(true);
  });
});

describe('sticky retrieval', () => {
  /** Scores tools by how many of the request's words appear in the tool's description. */
  class Words implements Retriever {
    readonly name = 'words';
    async index(): Promise<void> {}
    async search(request: string, ctx: SearchContext): Promise<Hit[]> {
      const words = request.toLowerCase().split(/\s+/);
      const hits = catalog.tools
        .map((t, i) => ({ id: t.id, score: words.filter((w) => t.description.split(' ').includes(w)).length, i }))
        .filter((h) => h.score > 0 && (!ctx.allowed || ctx.allowed[h.i] === 1))
        .map(({ id, score }) => ({ id, score }));
      return rankStable(hits).slice(0, ctx.k);
    }
  }

  it('keeps the session set while a request matches one of its tools, and re-retrieves when none does', async () => {
    const p = new Policy(catalog);
    const r = new Words();
    const session = { id: 's1', turn: 0 };
    const first = await p.expose(r, 'list pods', { session }, { depth: 2, sticky: true });
    expect(first.kept).toBeUndefined();
    expect(first.ranked.map((h) => h.id)).toEqual(['mcp__k8s__list_pods']);
    // "delete a pod" matches nothing carried ("list pods" has no "delete", "a" or "pod"), so it re-retrieves
    const second = await p.expose(r, 'delete a pod', { session: { id: 's1', turn: 1 } }, { depth: 2, sticky: true });
    expect(second.kept).toBeUndefined();
    expect(second.ranked.map((h) => h.id)).toEqual(['mcp__k8s__delete_pod']);
    // "pod again" matches the carried delete_pod: the set is kept, even though search_logs would not be found
    const third = await p.expose(r, 'pod logs', { session: { id: 's1', turn: 2 } }, { depth: 2, sticky: true });
    expect(third.kept).toBe(true);
    expect(third.ranked.map((h) => h.id)).toEqual(['mcp__k8s__delete_pod']);
    // another session is independent, and without sticky nothing is kept
    expect((await p.expose(r, 'pod logs', { session: { id: 's2', turn: 0 } }, { depth: 2, sticky: true })).kept).toBeUndefined();
    expect((await p.expose(r, 'pod logs', { session: { id: 's1', turn: 3 } }, { depth: 2 })).kept).toBeUndefined();
  });

  it('counts leaks on a kept turn too, and passes the role to the retriever', async () => {
    const p = new Policy(catalog);
    const seen: SearchContext[] = [];
    // ignores every mask (and k): a leaky retriever
    const leaky: Retriever = {
      name: 'leaky',
      index: async () => {},
      search: async (_q, ctx) => {
        seen.push(ctx);
        return rankStable([
          { id: 'mcp__k8s__list_pods', score: 3 },
          { id: 'mcp__k8s__delete_pod', score: 2 },
        ]); // ignores k too
      },
    };
    const caller = { callerScopes: ['k8s:read'], role: 'sre', session: { id: 's', turn: 0 } };
    const first = await p.expose(leaky, 'pods', caller, { depth: 5, sticky: true });
    expect(first.leaks).toEqual(['mcp__k8s__delete_pod']);
    const kept = await p.expose(leaky, 'pods again', { ...caller, session: { id: 's', turn: 1 } }, { depth: 5, sticky: true });
    expect(kept.kept).toBe(true);
    expect(kept.leaks).toEqual(['mcp__k8s__delete_pod']);
    expect(kept.ranked.map((h) => h.id)).toEqual(['mcp__k8s__list_pods']);
    expect(seen[1]!.role).toBe('sre');
  });

  it('re-retrieves when the caller changes (a new role or other scopes): a set gated for one caller never reaches another', async () => {
    const p = new Policy(catalog);
    const r = new Words();
    await p.expose(r, 'list pods', { role: 'plan', session: { id: 's', turn: 0 } }, { depth: 2, sticky: true });
    // same words, same session, another role: not kept
    const otherRole = await p.expose(r, 'list pods', { role: 'dev', session: { id: 's', turn: 1 } }, { depth: 2, sticky: true });
    expect(otherRole.kept).toBeUndefined();
    // the set now belongs to dev: dev keeps it, a caller with other scopes does not
    expect((await p.expose(r, 'list pods', { role: 'dev', session: { id: 's', turn: 2 } }, { depth: 2, sticky: true })).kept).toBe(true);
    expect(
      (await p.expose(r, 'list pods', { role: 'dev', callerScopes: ['k8s:read'], session: { id: 's', turn: 3 } }, { depth: 2, sticky: true })).kept,
    ).toBeUndefined();
  });

  it('a turn with no search keeps the carried set in a sticky session (for the same caller only), and shows nothing otherwise', async () => {
    const p = new Policy(catalog);
    const r = new Words();
    await p.expose(r, 'list pods', { role: 'sre', session: { id: 's', turn: 0 } }, { depth: 2, sticky: true });
    const kept = p.unsearched({ role: 'sre', session: { id: 's', turn: 1 } }, { sticky: true });
    expect(kept.kept).toBe(true);
    expect(kept.ranked).toEqual([{ id: 'mcp__k8s__list_pods', score: 0 }]);
    expect(p.unsearched({ role: 'dev', session: { id: 's', turn: 1 } }, { sticky: true }).ranked).toEqual([]);
    expect(p.unsearched({ role: 'sre', session: { id: 's', turn: 1 } }, {}).ranked).toEqual([]);
    expect(p.unsearched({ role: 'sre', session: { id: 'other', turn: 0 } }, { sticky: true }).kept).toBeUndefined();
  });

  it('re-retrieves when the best carried match is below the floor', async () => {
    const p = new Policy(catalog);
    const r = new Words();
    await p.expose(r, 'list pods', { session: { id: 's', turn: 0 } }, { depth: 2, sticky: true, floor: 1 });
    const kept = await p.expose(r, 'list things', { session: { id: 's', turn: 1 } }, { depth: 2, sticky: true, floor: 1 });
    expect(kept.kept).toBe(true);
    const again = await p.expose(r, 'list things', { session: { id: 's', turn: 2 } }, { depth: 2, sticky: true, floor: 2 });
    expect(again.kept).toBeUndefined();
  });
});
