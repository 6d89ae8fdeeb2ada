/**
 * The test run's own cache folder: every worker inherits `BACKPACK_CACHE_DIR` pointing at a fresh
 * temporary folder, so the suite never reads (or grows) the user's caches, whose size (vectors and
 * token counts of every catalog ever evaluated on the machine) would otherwise make each in-process
 * eval slower and the results depend on what ran before. Removed after the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'backpack-test-cache-'));
  process.env.BACKPACK_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
