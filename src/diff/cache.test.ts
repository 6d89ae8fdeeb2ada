/**
 * The rankings cache's checksums (issue 18): a damaged entry, a garbage entry or a file that is not
 * JSON is searched again, reported once with its count, and the file is rewritten; the rankings
 * are those of a clean and of an empty cache. Before checksums a damaged entry was served as the
 * case's ranking, and nothing was said.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corruptLine, warningsOfAsync } from '../../test/cache-damage.ts';
import { tempDir } from '../../test/helpers.ts';
import { catalogHash } from '../catalog/manifest.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { generate, resolveParams } from '../generate/index.ts';
import { rankingChecksum, RankingCache, type Ranking } from './cache.ts';
import { catalogChanges } from './changes.ts';
import { rankBoth, type Side } from './rankings.ts';

const { dataset } = generate(resolveParams('tiny', 5));
const old = dataset.catalog;
const cases = dataset.cases;
const changedIdx = old.tools.findIndex((t) => t.id === 'mcp__clickup__get_task');
const next: Catalog = {
  ...old,
  tools: old.tools.map((t, i) => (i === changedIdx ? makeTool({ ...t, description: `${t.description} Also returns the task's subtasks.` }) : t)),
};
const side = (catalog: Catalog): Side => ({ catalog, catalogSha256: catalogHash(catalog) });
const changes = catalogChanges(old, next);
const rank = (cacheDir: string | null) => rankBoth(side(old), side(next), cases, changes, { retriever: 'bm25', depth: 10, cacheDir });

/** The cache file of a catalog in `cacheDir`. */
function fileOf(cacheDir: string, catalog: Catalog): string {
  const sha = catalogHash(catalog);
  return readdirSync(cacheDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(cacheDir, f))
    .find((f) => JSON.parse(readFileSync(f, 'utf8')).key.catalogSha256 === sha)!;
}

/** Every entry of a cache file checks out. */
function sound(file: string): boolean {
  const cases = JSON.parse(readFileSync(file, 'utf8')).cases as Record<string, { r: Ranking; c: number }>;
  return Object.entries(cases).every(([k, e]) => e.c === rankingChecksum(k, e.r));
}

describe('rankings cache: corrupt entries', () => {
  it('ranks the same with a clean, an empty and a damaged cache; says so once; rewrites the file', async () => {
    const cacheDir = tempDir('rankings');
    const clean = await rank(cacheDir);
    const empty = await rank(null);
    expect(empty.old.rankings).toEqual(clean.old.rankings);
    expect(empty.new.rankings).toEqual(clean.new.rankings);
    const total = clean.old.stats.cases;

    // The old side: one entry's first tool id changed (a flipped byte), one entry replaced by garbage.
    const oldFile = fileOf(cacheDir, old);
    let text = readFileSync(oldFile, 'utf8');
    const keys = [...text.matchAll(/"([0-9a-f]{32})":(?:\{"r":)?\[\["/g)];
    const at = keys[3]!.index + keys[3]![0].length;
    text = `${text.slice(0, at)}X${text.slice(at + 1)}`;
    text = text.replace(new RegExp(`"${keys[8]![1]}":(\\{"r":)?\\[.*?\\]\\](,"c":\\d+\\})?`), `"${keys[8]![1]}":"garbage"`);
    writeFileSync(oldFile, text);
    // The new side: a torn file, not JSON at all.
    const newFile = fileOf(cacheDir, next);
    writeFileSync(newFile, readFileSync(newFile, 'utf8').slice(0, 500));

    const { value: again, warnings } = await warningsOfAsync(() => rank(cacheDir));
    expect(again.old.rankings).toEqual(clean.old.rankings);
    expect(again.new.rankings).toEqual(clean.new.rankings);
    expect(again.old.stats).toMatchObject({ fromCache: total - 2, searched: 2 });
    expect(warnings).toEqual([corruptLine(2, oldFile), corruptLine(1, newFile)]);

    // Repaired: every entry checks out, and the next diff reads them all without a word.
    expect(sound(oldFile) && sound(newFile)).toBe(true);
    const { value: third, warnings: none } = await warningsOfAsync(() => rank(cacheDir));
    expect(none).toEqual([]);
    expect(third.old.stats).toMatchObject({ fromCache: total, searched: 0 });
    expect(third.new.rankings).toEqual(clean.new.rankings);
  });

  it('rewrites a file that had a bad entry even when nothing else changes', async () => {
    const cacheDir = tempDir('rankings');
    const key = { retriever: 'bm25', config: {}, catalogSha256: 'x', roles: null, depth: 10 };
    const a = new RankingCache(cacheDir, key);
    a.set('k1', [['t1', 1.5]]);
    a.set('k2', [['t2', 0.25]]);
    a.save();
    writeFileSync(a.file, readFileSync(a.file, 'utf8').replace('1.5', '2.5'));
    const { value: b, warnings } = await warningsOfAsync(async () => new RankingCache(cacheDir, key));
    expect(warnings).toEqual([corruptLine(1, a.file)]);
    expect([b.get('k1'), b.get('k2')]).toEqual([undefined, [['t2', 0.25]]]);
    b.save();
    expect(sound(a.file)).toBe(true);
    expect(JSON.parse(readFileSync(a.file, 'utf8')).cases).toEqual({ k2: { r: [['t2', 0.25]], c: rankingChecksum('k2', [['t2', 0.25]]) } });
  });
});
