/**
 * Once per test run:
 * - The run's own cache folder: every worker inherits `BACKPACK_CACHE_DIR` pointing at a fresh
 *   temporary folder, so the suite never reads (or grows) the user's caches, whose size (vectors and
 *   token counts of every catalog ever evaluated on the machine) would otherwise make each in-process
 *   eval slower and the results depend on what ran before.
 * - The `backpack` program the end-to-end tests start as a process (`BACKPACK_TEST_BIN`, read through
 *   `BACKPACK_BIN` in test/helpers.ts): this checkout's sources, compiled once (test/compiled-bin.ts).
 * Both are removed after the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCompiledBin } from './compiled-bin.ts';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'backpack-test-cache-'));
  process.env.BACKPACK_CACHE_DIR = dir;
  const compiled = mkdtempSync(join(tmpdir(), 'backpack-test-bin-'));
  process.env.BACKPACK_TEST_BIN = buildCompiledBin(fileURLToPath(new URL('..', import.meta.url)), compiled);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(compiled, { recursive: true, force: true });
  };
}
