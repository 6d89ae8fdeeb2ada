import { describe, expect, it } from 'vitest';
import { generate, resolveParams, RNG_LABEL } from './index.ts';
import { answerableBy, noToolCatalog, noToolDataProblems, noToolRequest, sessionAside, type NoToolRequest } from './no-tool.ts';
import { Rng } from '../util/rng.ts';
import { coreTools, planServers, pluginTools, serverTools, type ToolMeta } from './tools.ts';
import { ARCHETYPES } from './vocab/archetypes.ts';
import { SERVERS } from './vocab/servers.ts';
import data from './data/no-tool.json' with { type: 'json' };

/**
 * The no-tool slice of a preset, replayed with the kinds the generator does not write out: the
 * catalog index and the `cases:no-tool` stream exactly as `generate` and `generateCases` draw them.
 */
function replay(preset: string, seed: number): { requests: NoToolRequest[]; generated: ReturnType<typeof generate> } {
  const params = resolveParams(preset, seed);
  const generated = generate(params);
  const rng = new Rng(params.seed, RNG_LABEL);
  const plans = planServers(params.servers, params.mcpTools, rng.fork('servers'));
  const metas: ToolMeta[] = [...coreTools(params.coreTools), ...pluginTools(params.plugins).tools];
  for (const plan of plans) metas.push(...serverTools(plan, rng.fork('tools')));
  const catalog = noToolCatalog(metas, plans);
  const r = rng.fork('cases').fork('cases:no-tool');
  const quota = Math.round(params.cases * 0.16);
  const requests = Array.from({ length: quota }, () => noToolRequest(r, catalog));
  for (const q of requests) if (q.claim) expect(answerableBy(q.claim, catalog), `${q.kind}: ${q.request}`).toEqual([]);
  return { requests, generated };
}

describe('no-tool requests (monster, seed 7)', () => {
  const { requests, generated } = replay('monster', 7);
  const slice = generated.dataset.cases.filter((c) => c.slices.includes('no-tool'));

  it('replays the generated slice exactly (same requests as the dataset)', () => {
    const own = slice
      .filter((c) => !c.sessionId)
      .map((c) => c.request)
      .sort();
    expect(own).toEqual(requests.map((q) => q.request).sort());
  });

  it('are at least 90% distinct, session asides included', () => {
    const distinct = new Set(slice.map((c) => c.request)).size;
    expect(distinct / slice.length).toBeGreaterThanOrEqual(0.9);
  });

  it('are near misses for at least a third of the slice, every kind present', () => {
    const near = requests.filter((q) => q.kind !== 'chit-chat');
    expect(near.length / slice.length).toBeGreaterThanOrEqual(1 / 3);
    for (const kind of ['missing-op', 'opinion', 'beyond', 'knowledge'])
      expect(
        near.some((q) => q.kind === kind),
        kind,
      ).toBe(true);
  });

  it('near misses name a product, object or kind of system of the catalog, and no placeholder is left', () => {
    for (const q of requests) {
      expect(q.request).not.toMatch(/\{\w+\}/);
      expect(q.request).not.toMatch(/\b(a|an) (a|an)\b|\s{2}/i);
    }
    // Each names the product (or one of its aliases), an object of its kind or its kind of system.
    const mentions = (q: NoToolRequest): boolean => {
      const spec = SERVERS.find((s) => s.display === q.claim!.product)!;
      const text = q.request.toLowerCase();
      const objects = ARCHETYPES.flatMap((a) => a.objects).filter((o) => o.key === q.claim!.object);
      const domain = ARCHETYPES.find((a) => a.key === spec.archetype)!.domain.replace(/\s*\(.*\)/, '');
      const words = [spec.display, ...spec.aliases, domain, ...objects.flatMap((o) => [o.key, o.plural, ...o.casual].map((w) => w.replace(/_/g, ' ')))];
      return words.some((w) => text.includes(w.toLowerCase()));
    };
    const near = requests.filter((q) => q.claim);
    expect(near.filter(mentions).length / near.length).toBeGreaterThan(0.99);
  });
});

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
