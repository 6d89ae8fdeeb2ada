import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog, Tool } from '../catalog/types.ts';
import type { Ranking } from './cache.ts';
import { catalogChanges, statusMap } from './changes.ts';
import { movement } from './movement.ts';

const tool = (server: string, name: string): Tool => makeTool({ name, source: 'mcp', server, summary: name, description: name });
const [a, b, c, d] = [tool('crm', 'a'), tool('crm', 'b'), tool('crm', 'c'), tool('wiki', 'd')];
const x = tool('crm', 'a_v2');
const cat = (tools: Tool[]): Catalog => ({ tools, skills: [], servers: [], plugins: [] });
const oldCat = cat([a, b, c, d]);
const newCat = cat([a, b, c, d, x]);
const kase = (id: string, gold: Tool[]): Case => ({ id, request: `request ${id}`, expectedTools: gold.map((t) => t.id), slices: [] });
const r = (...tools: Tool[]): Ranking => tools.map((t, i) => [t.id, 10 - i]);

describe('movement', () => {
  const cases = [kase('c1', [a]), kase('c2', [a]), kase('c3', [b]), kase('c4', [d]), kase('c5', [])];
  const before = [r(a, b, c), r(a, c, b), r(b, a, c), r(d, c), r(c)];
  const after = [r(x, a, b), r(x, a, c), r(b, a, x), r(d, c), r(c)];
  const status = statusMap(catalogChanges(oldCat, newCat), newCat);
  const m = movement(cases, before, after, { old: oldCat, new: newCat }, status, 2);

  it('attributes each top-1 change to the (winner, displaced) pair, with gold counts and examples', () => {
    expect(m.cases).toBe(5);
    expect(m.top1Changed).toBe(2);
    expect(m.topKChanged).toBe(2); // c1: b out, x in; c2: c out, x in; c3 keeps {b, a}
    expect(m.takeovers).toEqual([
      {
        winner: x.id,
        winnerStatus: 'added',
        displaced: a.id,
        displacedStatus: 'unchanged',
        cases: 2,
        goldLost: 2,
        goldGained: 0,
        examples: [
          { id: 'c1', request: 'request c1' },
          { id: 'c2', request: 'request c2' },
        ],
      },
    ]);
    expect(m.lostTop1).toEqual([{ tool: a.id, status: 'unchanged', lostTop1: 2, goldLost: 2 }]);
  });

  it('lists top-k dropouts with who pushed them out, tools that no longer surface, namespaces that lost recall', () => {
    expect(m.dropouts.map((dr) => [dr.tool, dr.cases, dr.pushedOutBy])).toEqual([
      [b.id, 1, [{ tool: x.id, cases: 1 }]],
      [c.id, 1, [{ tool: x.id, cases: 1 }]],
    ]);
    expect(m.neverSurfaceNow).toEqual([]);
    expect(m.overall.old).toEqual({ top1: 1, recallAtK: 1, graded: 4 });
    expect(m.overall.new).toEqual({ top1: 0.5, recallAtK: 1, graded: 4 });
    expect(m.namespaces).toEqual([]);
    const m1 = movement(cases, before, after, { old: oldCat, new: newCat }, status, 1);
    expect(m1.namespaces).toEqual(
      [{ namespace: 'crm', cases: 3, old: 1, new: 1 / 3, delta: -0.666667 }].map((n) => ({ ...n, new: Math.round(n.new * 1e6) / 1e6 })),
    );
    expect(m1.neverSurfaceNow).toEqual([a.id]); // top-1 of c1 and c2 before, second everywhere now
  });

  it('finds nothing when nothing moved', () => {
    const same = movement(cases, before, before, { old: oldCat, new: oldCat }, statusMap(catalogChanges(oldCat, oldCat), oldCat), 2);
    expect(same).toMatchObject({ top1Changed: 0, topKChanged: 0, takeovers: [], dropouts: [], lostTop1: [], moved: [] });
  });
});

describe('what counts as a labelled answer lost (the review rule)', () => {
  it('a wrong answer losing top-1, or a gold tool losing it to another gold tool, is not a labelled answer lost', () => {
    const cases = [kase('w1', [b]), kase('w2', [b]), kase('m1', [a, b]), kase('g1', [a])];
    // w1, w2: c (wrong) was top-1, the gold b is now; m1: a → b, both gold; g1: a (gold) → c (not)
    const before = [r(c, b), r(c, b), r(a, b), r(a, c)];
    const after = [r(b, c), r(b, c), r(b, a), r(c, a)];
    const status = statusMap(catalogChanges(oldCat, oldCat), oldCat);
    const mv = movement(cases, before, after, { old: oldCat, new: oldCat }, status, 2);
    // (labelled answers lost first)
    expect(mv.lostTop1).toEqual([
      { tool: a.id, status: 'unchanged', lostTop1: 2, goldLost: 1 },
      { tool: c.id, status: 'unchanged', lostTop1: 2, goldLost: 0 },
    ]);
  });
});
