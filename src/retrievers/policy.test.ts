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
  constructor(private readonly scores: Record<string, number>, private readonly honourMask = true) {}
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

const scores = { 'mcp__k8s__delete_pod': 9, 'mcp__k8s__list_pods': 5, 'mcp__dd__search_logs': 1 };

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
