/**
 * The fixed list of malformed-input kinds (kinds.ts), each run through the command that reads it:
 * every one must exit 0 or 2 (or a documented verdict), with no stack trace and no partial output
 * (harness.ts). Prints the counts: kinds tried, exit 0, exit 2, verdicts, crashes, by category.
 * `BACKPACK_FUZZ_REPORT=FILE` also writes every kind's outcome there as JSON (BACKPACK_FUZZ_LOG=FILE
 * appends each as it finishes); BACKPACK_FUZZ_ONLY=TEXT runs only the kinds whose name contains TEXT.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBases, type Bases } from './bases.ts';
import { cleanup, firstError, freshRoot, loadMain, runCase, type Main } from './harness.ts';
import { allKinds, group } from './kinds.ts';

/**
 * `npm run fuzz` (npm sets npm_lifecycle_event) or BACKPACK_FUZZ_FULL=1: the full sweep, every
 * field × every wrong value and every slow kind (3,000+ kinds), not only the fixed list.
 */
const FULL = process.env.BACKPACK_FUZZ_FULL === '1' || (process.env.npm_lifecycle_event === 'fuzz' && process.env.BACKPACK_FUZZ_FULL !== '0');
const root = freshRoot('kinds');
let main: Main;
let bases: Bases;

// Budget: 30 s a kind (measured 2026-12-07 on 2 cores: at most 1.0 s quiet, 10.4 s at load 12–17,
// the 10,000-level YAML of a SKILL.md), 120 s for the good inputs they start from (7.6 s quiet,
// 26 s at load 10–13).
const KIND_BUDGET = 30_000;
beforeAll(async () => {
  main = await loadMain(root);
  bases = await buildBases(main, root);
}, 120_000);
afterAll(() => cleanup(root));

interface Row {
  kind: string;
  category: string;
  code: number | null;
  problems: string[];
  message: string;
  ms: number;
}

const kinds = allKinds({ full: FULL })
  .map((kind, i) => ({ kind, i }))
  .filter(({ kind }) => process.env.BACKPACK_FUZZ_ONLY === undefined || kind.name.includes(process.env.BACKPACK_FUZZ_ONLY));
const rows: Row[] = [];

// One test per kind: each has its budget to itself, so a loaded machine slows the sweep without
// failing it (a single test over the whole list missed the global timeout at load 10–35).
describe('every kind of malformed input exits 0 or 2, with a message and no stack trace, and leaves no partial output', { timeout: KIND_BUDGET }, () => {
  for (const { kind, i } of kinds)
    it(`${kind.category}: ${kind.name}`, async () => {
      const dir = join(root, 'cases', String(i));
      mkdirSync(dir, { recursive: true });
      let argv: string[];
      try {
        argv = kind.build(dir, bases);
      } catch (err) {
        rows.push({
          kind: kind.name,
          category: kind.category,
          code: null,
          problems: [`the test could not build the case: ${(err as Error).message}`],
          message: '',
          ms: 0,
        });
        throw err;
      }
      const o = await runCase(main, argv, dir, kind.verdicts);
      const row = { kind: kind.name, category: kind.category, code: o.code, problems: o.problems, message: firstError(o.err), ms: Math.round(o.ms) };
      rows.push(row);
      if (process.env.BACKPACK_FUZZ_LOG) appendFileSync(process.env.BACKPACK_FUZZ_LOG, `${JSON.stringify(row)}\n`);
      rmSync(dir, { recursive: true, force: true });
      expect(o.problems, `${kind.name}${row.message ? ` — ${row.message}` : ''}`).toEqual([]);
    });
});

// The counts: kinds tried, exit 0, exit 2, verdicts, crashes, by category.
afterAll(() => {
  const crashed = rows.filter((r) => r.problems.length > 0);
  const count = (f: (r: Row) => boolean) => rows.filter(f).length;
  const byGroup = new Map<string, { kinds: number; crashed: number }>();
  for (const r of rows) {
    const g = byGroup.get(group(r.category)) ?? { kinds: 0, crashed: 0 };
    g.kinds++;
    if (r.problems.length) g.crashed++;
    byGroup.set(group(r.category), g);
  }
  const summary = [
    `fuzz kinds (${FULL ? 'full sweep' : 'fixed list'}): ${rows.length} tried; exit 0: ${count((r) => r.code === 0)}; exit 2: ${count((r) => r.code === 2)}; documented verdicts (gate/diff 100, snapshot 1 or 3): ${count((r) => r.code !== null && r.code !== 0 && r.code !== 2 && r.problems.length === 0)}; crashed: ${crashed.length}`,
    `  by input: ${[...byGroup].map(([g, c]) => `${g} ${c.kinds}${c.crashed ? ` (${c.crashed} crashed)` : ''}`).join(', ')}`,
    ...crashed.slice(0, 40).map((r) => `  CRASH ${r.kind}: ${r.problems.join('; ')}${r.message ? ` — ${r.message}` : ''}`),
  ];
  console.log(summary.join('\n'));
  if (process.env.BACKPACK_FUZZ_REPORT) writeFileSync(process.env.BACKPACK_FUZZ_REPORT, `${JSON.stringify(rows, null, 1)}\n`);
});
