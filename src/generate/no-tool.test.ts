import { describe, expect, it } from 'vitest';
import { generate, resolveParams, RNG_LABEL } from './index.ts';
import { answerableBy, noToolCatalog, noToolDataProblems, sessionAside } from './no-tool.ts';
import { Rng } from '../util/rng.ts';
import { planServers, serverTools } from './tools.ts';
import data from './data/no-tool.json' with { type: 'json' };

describe('no-tool check', () => {
  it('finds the tool a claimed operation would use, and none for a claim without one', () => {
    const params = resolveParams('small', 3);
    const rng = new Rng(params.seed, RNG_LABEL);
    const plans = planServers(params.servers, params.mcpTools, rng.fork('servers'));
    const metas = plans.flatMap((p) => serverTools(p, rng.fork('tools')));
    const catalog = noToolCatalog(metas, plans);
    const m = metas.find((t) => t.server && !t.legacyOf && t.op!.key === 'delete')!;
    expect(answerableBy({ kind: 'missing-op', product: m.server!.spec.display, op: 'delete', object: m.object!.key }, catalog)).toContain(m);
    // Asking to archive is served by delete too.
    expect(answerableBy({ kind: 'missing-op', product: m.server!.spec.display, op: 'archive', object: m.object!.key }, catalog)).toContain(m);
    expect(answerableBy({ kind: 'opinion', product: m.server!.spec.display }, catalog)).toEqual([]);
  });
});

describe('determinism', () => {
  it('gives the same no-tool requests and asides for the same seed', () => {
    const a = generate(resolveParams('small', 11))
      .dataset.cases.filter((c) => c.slices.includes('no-tool'))
      .map((c) => c.request);
    const b = generate(resolveParams('small', 11))
      .dataset.cases.filter((c) => c.slices.includes('no-tool'))
      .map((c) => c.request);
    expect(a).toEqual(b);
    const asides = (seed: number) => Array.from({ length: 50 }, (_, i) => sessionAside(new Rng(seed, `aside${i}`)));
    expect(asides(1)).toEqual(asides(1));
  });

  it('session asides vary and say nothing of a task', () => {
    const r = new Rng(5, 'asides');
    const asides = Array.from({ length: 300 }, () => sessionAside(r));
    expect(new Set(asides).size / asides.length).toBeGreaterThan(0.85);
    for (const a of asides) expect(a).not.toMatch(/\{|\}/);
  });
});

describe('no-tool data file', () => {
  it('validates', () => {
    expect(noToolDataProblems(data)).toEqual([]);
  });

  it('a broken copy does not', () => {
    const copy = structuredClone(data) as Record<string, any>;
    delete copy.asides.follow;
    expect(noToolDataProblems(copy).join('\n')).toMatch(/follow/);
    const unknownSlot = structuredClone(data) as Record<string, any>;
    unknownSlot.chitchat.frames.push('tell me about {nothing}');
    expect(noToolDataProblems(unknownSlot).join('\n')).toMatch(/\{nothing\}/);
    const noCore = structuredClone(data) as Record<string, any>;
    noCore.nearMiss.missingOp.push('{product} is great');
    expect(noToolDataProblems(noCore).length).toBeGreaterThan(0);
    const empty = structuredClone(data) as Record<string, any>;
    empty.chitchat.slots.greeting = [];
    expect(noToolDataProblems(empty).length).toBeGreaterThan(0);
  });
});
