import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogHash } from '../catalog/manifest.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { generate, resolveParams } from '../generate/index.ts';
import { createEmbed } from '../retrievers/embed/index.ts';
import { createRetriever } from '../retrievers/registry.ts';
import { catalogChanges } from './changes.ts';
import { DERIVE_SLACK, rankBoth, type Side } from './rankings.ts';

const dir = mkdtempSync(join(tmpdir(), 'backpack-diff-rank-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { dataset } = generate(resolveParams('tiny', 5));
const old = dataset.catalog;
const cases = dataset.cases;
// One tool added (a near copy of a gold tool), one description changed, one tool removed.
const target = old.tools.find((t) => t.id === 'mcp__clickup__list_tasks')!;
const { hash: _h, id: _i, ...rest } = target;
const added = makeTool({ ...rest, name: `${target.name}_v2`, description: `${target.description} Lists every task, to-do and work item.` });
const changedIdx = old.tools.findIndex((t) => t.id === 'mcp__clickup__get_task');
const removedId = 'mcp__clickup__search_tasks';
const next: Catalog = {
  ...old,
  tools: [
    ...old.tools
      .map((t, i) => (i === changedIdx ? makeTool({ ...t, description: `${t.description} Also returns the task's subtasks and checklist.` }) : t))
      .filter((t) => t.id !== removedId),
    added,
  ],
};
const side = (catalog: Catalog): Side => ({ catalog, catalogSha256: catalogHash(catalog) });
const changes = catalogChanges(old, next);
let vectorCache = 0;
const embed = () => {
  const cacheDir = join(dir, `vectors-${vectorCache++}`);
  return () => createEmbed('embed', { recipe: 'source+intent', cacheDir });
};

describe('rankBoth', () => {
  it('ranks a tool-local retriever (embed) from the old ranking exactly as a full search does, re-embedding only the changed tools', async () => {
    const make = embed();
    const full = await rankBoth(side(old), side(next), cases, changes, { retriever: 'embed', depth: 10, cacheDir: null, create: make, toolLocal: false });
    const quick = await rankBoth(side(old), side(next), cases, changes, { retriever: 'embed', depth: 10, cacheDir: null, create: make });
    expect(quick.toolLocal).toBe(true);
    expect(quick.new.rankings).toEqual(full.new.rankings);
    expect(quick.old.rankings).toEqual(full.old.rankings);
    const s = quick.new.stats;
    expect(s.deltaTools).toBe(2);
    // Every case derived: the old side is ranked DERIVE_SLACK deeper, so losing two tools leaves 10.
    expect(s.derived).toBe(s.cases);
    expect(s.searched).toBe(0);
    // The first run filled the vector cache with the old catalog and the new texts: nothing is embedded again.
    expect(s.deltaIndex).toMatchObject({ tools: 2, embedded: 0, cacheHits: 2 });
  });

  it('embeds only the added and changed tools for the new side', async () => {
    const make = embed();
    const r = await rankBoth(side(old), side(next), cases, changes, { retriever: 'embed', depth: 10, cacheDir: null, create: make });
    expect(r.old.stats.index).toMatchObject({ tools: old.tools.length, embedded: old.tools.length });
    expect(r.new.stats.deltaIndex).toMatchObject({ tools: 2, embedded: 2, cacheHits: 0 });
    // The new catalog's full index is never built.
    expect(r.new.stats.index).toBeUndefined();
  });

  it('serves a derived ranking from the cache as the old side of the next diff, still equal to a full search', async () => {
    const make = embed();
    const cacheDir = join(dir, 'rankings-embed');
    await rankBoth(side(old), side(next), cases, changes, { retriever: 'embed', depth: 10, cacheDir, create: make });
    // The next change, on top of the last one: its old side is the cache's derived rankings.
    const t = next.tools.find((x) => x.id === 'mcp__clickup__create_task')!;
    const { hash: _hh, ...r2 } = t;
    const third: Catalog = {
      ...next,
      tools: next.tools.map((x) => (x.id === t.id ? makeTool({ ...r2, description: `${t.description} Assigns it to whoever is on call.` }) : x)),
    };
    const ch = catalogChanges(next, third);
    const cached = await rankBoth(side(next), side(third), cases, ch, { retriever: 'embed', depth: 10, cacheDir, create: make });
    const full = await rankBoth(side(next), side(third), cases, ch, { retriever: 'embed', depth: 10, cacheDir: null, create: make, toolLocal: false });
    expect(cached.old.stats.fromCache).toBeGreaterThan(0);
    expect(cached.old.rankings).toEqual(full.old.rankings);
    expect(cached.new.rankings).toEqual(full.new.rankings);
  });

  it('searches again, on the full new index, the cases that lost more of their old ranking than it holds in reserve', async () => {
    const make = embed();
    // A whole namespace removed: a case about it loses more than DERIVE_SLACK of its top 20.
    const gone = new Set(old.tools.filter((t) => t.namespace === 'clickup').map((t) => t.id));
    expect(gone.size).toBeGreaterThan(DERIVE_SLACK);
    const smaller: Catalog = { ...next, tools: next.tools.filter((t) => !gone.has(t.id)) };
    const ch = catalogChanges(old, smaller);
    const full = await rankBoth(side(old), side(smaller), cases, ch, { retriever: 'embed', depth: 10, cacheDir: null, create: make, toolLocal: false });
    const quick = await rankBoth(side(old), side(smaller), cases, ch, { retriever: 'embed', depth: 10, cacheDir: null, create: make });
    expect(quick.new.rankings).toEqual(full.new.rankings);
    expect(quick.new.stats.searched).toBeGreaterThan(0);
    expect(quick.new.stats.derived).toBeGreaterThan(0);
    expect(quick.new.stats.derived + quick.new.stats.searched).toBe(quick.new.stats.cases);
  });

  it('reads both sides from the rankings cache the second time, with the same rankings', async () => {
    const cacheDir = join(dir, 'rankings');
    const first = await rankBoth(side(old), side(next), cases, changes, { retriever: 'bm25', depth: 10, cacheDir });
    const second = await rankBoth(side(old), side(next), cases, changes, { retriever: 'bm25', depth: 10, cacheDir });
    expect(first.old.stats.fromCache).toBe(0);
    expect(second.old.stats).toMatchObject({ fromCache: first.old.stats.cases, searched: 0 });
    expect(second.new.stats).toMatchObject({ fromCache: first.new.stats.cases, searched: 0 });
    expect(second.new.rankings).toEqual(first.new.rankings);
    expect(second.old.rankings).toEqual(first.old.rankings);
    // Another depth is another key: nothing cached.
    const deeper = await rankBoth(side(old), side(old), cases, changes, { retriever: 'bm25', depth: 12, cacheDir });
    expect(deeper.old.stats.fromCache).toBe(0);
  });

  it('does not rank identical catalogs twice, and ranks through the policy layer (no scope leaks)', async () => {
    const r = await rankBoth(side(old), side(old), cases, catalogChanges(old, old), {
      retriever: 'bm25',
      depth: 10,
      cacheDir: null,
      create: (n) => createRetriever(n),
    });
    expect(r.new.stats.sameAsOld).toBe(true);
    expect(r.new.rankings).toEqual(r.old.rankings);
    const byId = new Map(old.tools.map((t) => [t.id, t]));
    cases.forEach((c, i) => {
      if (c.expectedTools === undefined) expect(r.old.rankings[i]).toBeNull();
      else if (c.callerScopes) for (const [id] of r.old.rankings[i]!) expect(byId.get(id)!.scopes.every((s) => c.callerScopes!.includes(s))).toBe(true);
    });
  });
});
