import { describe, expect, it } from 'vitest';
import { floorInDesign, profileCapabilities, profileNames } from '../profiles/registry.ts';
import { retrieverNames } from '../retrievers/registry.ts';
import { parseFloors, profileDefaultFloors } from './calibration.ts';

describe('parseFloors: a floor for every strategy reaches only the designs that have one', () => {
  const strategies = ['bm25', 'hybrid', 'codex', 'claude-code', 'hermes', 'deferred', 'semantic-retrieval'];

  it('auto and a score go to retrievers and to profiles declaring floorInDesign; harness profiles keep none', () => {
    const auto = parseFloors('auto:0.1', strategies);
    for (const name of ['bm25', 'hybrid', 'semantic-retrieval']) expect(auto[name], name).toMatchObject({ mode: 'auto', target: 0.1 });
    for (const name of ['codex', 'claude-code', 'hermes', 'deferred']) expect(auto[name], name).toBeNull();
    const fixed = parseFloors('2.5', strategies);
    expect(fixed.bm25).toBe(2.5);
    expect(fixed.codex).toBeNull();
  });

  it('a named floor reaches any strategy (a what-if for a harness profile); none is none', () => {
    const f = parseFloors('bm25=auto,codex=auto:0.2,hermes=3', strategies);
    expect(f.codex).toMatchObject({ mode: 'auto', target: 0.2 });
    expect(f.hermes).toBe(3);
    expect(f['claude-code']).toBeNull();
    expect(parseFloors('none', strategies, { 'semantic-retrieval': 0.7 })['semantic-retrieval']).toBeNull();
  });

  it('the designs with a floor are exactly the profiles with a default floor, declared on the registry entry', () => {
    const withDefault = profileNames().filter((n) => Object.keys(profileDefaultFloors([n])).length > 0);
    expect(profileNames().filter((n) => profileCapabilities(n).floorInDesign === true)).toEqual(withDefault);
    expect(withDefault).toEqual(['semantic-retrieval', 'gated-sticky-deferred', 'routed-deferred']);
    for (const r of retrieverNames()) expect(floorInDesign(r), r).toBe(true);
    expect(floorInDesign('codex')).toBe(false);
  });
});
