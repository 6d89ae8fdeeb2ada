/**
 * The near-duplicate cache's checksum (issue 18): a damaged pair file (a flipped byte, a torn
 * write, garbage) is a miss reported once, the base is analysed again and the file rewritten; the
 * diff is the same as with a clean and with no cache. Before the checksum, a flipped digit in the
 * pairs or a word was read as the base catalog's analysis, silently.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corruptLine, flipBytes, warningsOfAsync } from '../../test/cache-damage.ts';
import { tempDir } from '../../test/helpers.ts';
import { catalogHash } from '../catalog/manifest.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { generate, resolveParams } from '../generate/index.ts';
import { diffCatalogs, diffJson } from './diff.ts';
import { readPairCache } from './pair-cache.ts';

const g = generate(resolveParams('tiny', 5));
const { catalog, cases } = g.dataset;
const target = catalog.tools[3]!;
const { hash: _h, id: _i, ...rest } = target;
// A near copy of a tool: a near-duplicate pair that involves the change.
const mirror: Tool = makeTool({ ...rest, name: `${target.name}_mirror`, description: target.description });
const next: Catalog = { ...catalog, tools: [...catalog.tools, mirror] };
const input = { old: { label: 'old', catalog }, new: { label: 'new', catalog: next }, cases, casesFrom: 'generated' };

async function diff(cacheDir: string | null): Promise<{ json: string; from: string }> {
  const r = await diffCatalogs(input, { cacheDir });
  return { json: diffJson(r.report), from: r.timings.nearDuplicatesFrom };
}

describe('pair cache: a corrupt file', () => {
  it('the diff is the same with a clean, an empty and a damaged cache; a damaged file is said once and rewritten', async () => {
    const cacheDir = tempDir('pairs');
    const empty = await diff(null);
    const first = await diff(cacheDir);
    expect(first).toEqual({ json: empty.json, from: 'base computed and cached' });
    expect(await diff(cacheDir)).toEqual({ json: empty.json, from: 'cached base' });
    const folder = join(cacheDir, 'near-duplicates');
    const [name] = readdirSync(folder).filter((f) => f.endsWith('.json'));
    const file = join(folder, name!);
    const sound = readFileSync(file, 'utf8');

    const damage: Array<[string, () => void]> = [
      // a digit of the pair list changed: still JSON, still the right shape
      [
        'a flipped digit',
        () =>
          writeFileSync(
            file,
            sound.replace(/("pairs":\[\d+,)(\d)/, (_, p: string, d: string) => `${p}${(Number(d) + 1) % 10}`),
          ),
      ],
      ['a flipped byte', () => flipBytes(file, [Math.floor(sound.length / 2)])],
      ['a torn write', () => writeFileSync(file, sound.slice(0, sound.length - 100))],
      ['garbage', () => writeFileSync(file, '\0\0\0\0')],
    ];
    for (const [what, act] of damage) {
      act();
      const { value, warnings } = await warningsOfAsync(() => diff(cacheDir));
      expect(value, what).toEqual({ json: empty.json, from: 'base computed and cached' });
      expect(warnings, what).toEqual([corruptLine(1, file)]);
      // rewritten: read back whole, without a word
      expect(readFileSync(file, 'utf8'), what).toBe(sound);
      expect((await warningsOfAsync(async () => readPairCache(cacheDir, catalogHash(catalog), 0.5))).warnings).toEqual([]);
      expect(await warningsOfAsync(() => diff(cacheDir))).toEqual({ value: { json: empty.json, from: 'cached base' }, warnings: [] });
    }
  });
});
