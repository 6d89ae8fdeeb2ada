/**
 * Corrupt caches end to end (issue 18, items 2 and 7): `backpack eval` (vector and token-count
 * caches) and `backpack diff` (rankings and near-duplicate caches) through `main`, in this process,
 * with Backpack's cache folder (`BACKPACK_CACHE_DIR`) empty, clean, damaged and then repaired. The
 * outputs are byte-identical, timings aside; a damaged run says once per file how many records were
 * bad, and a stale lock is taken over with a warning; the run after it has nothing to say.
 *
 * Before checksums, the damaged vector and count records were served (other rankings, other token
 * figures, exit 0, not a word), and a damaged ranking too.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { makeTool } from '../src/catalog/model.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { appendPartial, corruptLine, flipBytes, warningsOfAsync } from './cache-damage.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir('cache-corruption');
const cacheRoot = join(tmp, 'cache');
// CACHE_ROOT is read when src/util/version.ts is first imported: set it before importing the CLI.
const before = process.env.BACKPACK_CACHE_DIR;
process.env.BACKPACK_CACHE_DIR = cacheRoot;
afterAll(() => {
  if (before === undefined) delete process.env.BACKPACK_CACHE_DIR;
  else process.env.BACKPACK_CACHE_DIR = before;
});
const { main } = await import('../src/cli/main.ts');
const { CACHE_ROOT } = await import('../src/util/version.ts');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string; warnings: string[] }> {
  let out = '';
  let err = '';
  const { value: code, warnings } = await warningsOfAsync(() => main(argv, { out: (s) => (out += s), err: (s) => (err += s) }));
  return { code, out, err, warnings };
}

/** Every file of an eval's output folder, timings removed: `latency` and `timings` in results.json, `ms` in details. */
function outputs(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else files[r] = readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  const results = JSON.parse(files['results.json']!) as Record<string, unknown>;
  delete results.timings;
  for (const group of ['retrievers', 'profiles'])
    for (const s of Object.values((results[group] ?? {}) as Record<string, Record<string, unknown>>)) delete s.latency;
  files['results.json'] = JSON.stringify(results, null, 2);
  for (const [name, text] of Object.entries(files)) {
    if (name.startsWith('details/')) files[name] = text.replace(/,"ms":[0-9.e+-]+/g, '');
  }
  return files;
}

/** The one file under `folder` (recursively) whose name ends with `suffix`. */
function only(folder: string, suffix: string): string {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(suffix)) found.push(join(d, e.name));
    }
  };
  walk(folder);
  expect(found, `${suffix} under ${folder}`).toHaveLength(1);
  return found[0]!;
}

const g = generate(resolveParams('tiny', 5));
const oldDir = join(tmp, 'old');
writeDataset(oldDir, g.dataset, g.manifest);

// Budget: 120 s a test (measured 2026-12-07 on 2 cores: at most 7.3 s quiet — four evaluations with
// the embedding model — and 62 s at load 12–17).
describe('corrupt caches, end to end', { timeout: 120_000 }, () => {
  it('uses the cache folder of BACKPACK_CACHE_DIR', () => {
    expect(CACHE_ROOT).toBe(cacheRoot);
  });

  it('backpack eval: the same output with an empty, a clean and a corrupted vector and token-count cache', async () => {
    rmSync(cacheRoot, { recursive: true, force: true });
    let n = 0;
    const evaluate = async () => {
      const out = join(tmp, `eval-${n++}`);
      const r = await run('eval', '--dataset', oldDir, '--out', out, '--quiet', '--retrievers', 'embed,bm25', '--profiles', 'codex');
      expect(r.code, r.err).toBe(0);
      return { files: outputs(out), warnings: r.warnings };
    };
    const empty = await evaluate();
    const clean = await evaluate();
    expect(clean.files).toEqual(empty.files);
    expect([empty.warnings, clean.warnings]).toEqual([[], []]);

    const vectors = only(join(cacheRoot, 'embeddings'), 'vectors.bin');
    const counts = only(join(cacheRoot, 'tokens'), 'counts.bin');
    const dims = JSON.parse(readFileSync(join(vectors, '..', 'meta.json'), 'utf8')).dims as number;
    const V = 36 + 4 * dims;
    const C = 24;
    expect(statSync(vectors).size % V).toBe(0);
    expect(statSync(counts).size % C).toBe(0);
    // The sign-and-exponent byte of a float in three vectors, the low byte of five counts, and a
    // partial record at the end of each log; and the lock of a writer that died.
    flipBytes(
      vectors,
      [3, 50, 200].map((r) => r * V + 32 + 4 * 7 + 3),
    );
    flipBytes(
      counts,
      [5, 10, 15, 20, 25].map((r) => r * C + 16),
    );
    appendPartial(vectors, 100);
    appendPartial(counts, 10);
    writeFileSync(`${vectors}.lock`, '99999999\n');

    const corrupted = await evaluate();
    expect(corrupted.files).toEqual(empty.files);
    expect(corrupted.warnings.sort()).toEqual(
      [corruptLine(4, vectors), corruptLine(6, counts), `warning: taking over the stale lock ${vectors}.lock (process 99999999 is gone)`].sort(),
    );
    expect(existsSync(`${vectors}.lock`)).toBe(false);
    expect(statSync(vectors).size % V).toBe(0);
    expect(statSync(counts).size % C).toBe(0);

    const repaired = await evaluate();
    expect(repaired).toEqual({ files: empty.files, warnings: [] });
  });

  it('backpack diff: the same report with an empty, a clean and a corrupted rankings and near-duplicate cache', async () => {
    rmSync(cacheRoot, { recursive: true, force: true });
    const tools = [...g.dataset.catalog.tools];
    tools[5] = makeTool({ ...tools[5]!, description: `${tools[5]!.description} Also archives the record.` });
    const newDir = join(tmp, 'new');
    writeDataset(newDir, { ...g.dataset, catalog: { ...g.dataset.catalog, tools } }, g.manifest);
    const diff = async () => {
      const r = await run('diff', '--old', oldDir, '--new', newDir, '--quiet', '--json');
      expect([0, 100], r.err).toContain(r.code);
      return { out: r.out, code: r.code, warnings: r.warnings };
    };
    const empty = await diff();
    const clean = await diff();
    expect(clean).toEqual(empty);

    const rankingsDir = join(cacheRoot, 'rankings');
    const pairs = only(join(rankingsDir, 'near-duplicates'), '.json');
    mkdirSync(rankingsDir, { recursive: true });
    const rankingFiles = readdirSync(rankingsDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(rankingsDir, f));
    expect(rankingFiles.length).toBeGreaterThan(0);
    // A flipped byte in a tool id of the first ranking of each rankings file, and one in the pairs file.
    for (const f of rankingFiles) {
      const text = readFileSync(f, 'utf8');
      flipBytes(f, [text.indexOf('[["') + 5]);
    }
    const pairText = readFileSync(pairs, 'utf8');
    flipBytes(pairs, [pairText.indexOf('"words":[') + 12]);

    const corrupted = await diff();
    expect({ out: corrupted.out, code: corrupted.code }).toEqual({ out: empty.out, code: empty.code });
    expect(corrupted.warnings.sort()).toEqual([...rankingFiles.map((f) => corruptLine(1, f)), corruptLine(1, pairs)].sort());
    expect(await diff()).toEqual(empty);
  });
});
