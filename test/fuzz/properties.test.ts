/**
 * Property-based fuzzing (fast-check, seeded): arbitrary JSON values in every field the fixed list
 * breaks, arbitrary text (and bytes) for every input file, JSON Lines, YAML, TSV and CSV built from
 * the tokens that matter, and arbitrary flag values, each run through the command that reads it.
 * Every run must keep the properties of harness.ts: exit 0 or 2 (or a documented verdict), no stack
 * trace, no partial output.
 *
 * `BACKPACK_FUZZ_RUNS=N` sets the runs per property (default 50; `npm run fuzz` runs 1,000),
 * `BACKPACK_FUZZ_SEED=S` the seed (default 20251202). Prints the counts of runs and exits.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBases, type Bases } from './bases.ts';
import { cleanup, firstError, freshRoot, loadMain, runCase, type Main, type Outcome } from './harness.ts';
import { MAX_NESTING } from '../../src/util/bounded.ts';
import { editField, editFieldRaw, nestedText, put, TARGETS, type Target } from './kinds.ts';

/** `npm run fuzz` (npm sets npm_lifecycle_event): the larger sweep. */
const SWEEP = process.env.npm_lifecycle_event === 'fuzz';
const RUNS = Number(process.env.BACKPACK_FUZZ_RUNS ?? (SWEEP ? 1000 : 50));
const SEED = Number(process.env.BACKPACK_FUZZ_SEED ?? 20251202);

const root = freshRoot('props');
let main: Main;
let bases: Bases;
let n = 0;
const tally = { runs: 0, exit0: 0, exit2: 0, verdicts: 0, crashed: 0 };
const crashes: string[] = [];

beforeAll(async () => {
  main = await loadMain(root);
  bases = await buildBases(main, root);
});
afterAll(() => {
  console.log(
    `fuzz properties (seed ${SEED}, ${RUNS} runs per property): ${tally.runs} runs; exit 0: ${tally.exit0}; exit 2: ${tally.exit2}; documented verdicts: ${tally.verdicts}; crashed: ${tally.crashed}`,
  );
  cleanup(root);
});

/** Run one generated case in a fresh folder: `setup` writes the inputs and returns the argv. */
async function check(label: string, setup: (dir: string) => { argv: string[]; verdicts?: readonly number[] }): Promise<Outcome> {
  const dir = join(root, 'cases', String(n++));
  mkdirSync(dir, { recursive: true });
  const { argv, verdicts } = setup(dir);
  const o = await runCase(main, argv, dir, verdicts);
  rmSync(dir, { recursive: true, force: true });
  tally.runs++;
  if (o.code === 0) tally.exit0++;
  else if (o.code === 2) tally.exit2++;
  else if (verdicts?.includes(o.code)) tally.verdicts++;
  if (o.problems.length) {
    tally.crashed++;
    crashes.push(`${label}: ${o.problems.join('; ')} — ${firstError(o.err)}`);
  }
  return o;
}

/** {@link check} on target `t`: its inputs in the case's folder, then `spoil` applied to the file it breaks. */
function checkTarget(t: Target, label: string, spoil: (file: string) => void): Promise<Outcome> {
  return check(`${t.category}: ${label}`, (dir) => {
    const { file, argv } = t.prepare(dir, bases);
    spoil(file);
    return { argv, ...(t.verdicts ? { verdicts: t.verdicts } : {}) };
  });
}

const params = { seed: SEED, numRuns: RUNS, endOnFailure: true } as const;
const ok = (o: Outcome) => o.problems.length === 0;

/** Targets whose file is a JSON value or JSON Lines with fields to break (not the slow model ones). */
const fielded = TARGETS.filter(
  (t) =>
    (t.format === 'json' || t.format === 'jsonl' || t.format === 'yaml' || t.format === 'md') &&
    (t.fields?.length ?? 0) > 0 &&
    !t.category.startsWith('static model'),
);
const byFormat = (...formats: Target['format'][]) => TARGETS.filter((t) => formats.includes(t.format) && !t.category.startsWith('static model'));

/** JSON-ish values, deeper and stranger than fast-check's default: long strings, odd numbers, nested lists. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -0,
    0.5,
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '*',
    '[]',
    '{}',
    'NaN',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom('type', 'properties', 'name', 'tools', 'items', 'required', '$ref', 'enum', '__proto__'), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 4,
  }),
);

describe('fuzz: generated inputs keep the exit-code, message and output properties', () => {
  it('an arbitrary value in any field of any structured input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: fielded.length - 1 }), fc.nat(), value, async (ti, fi, v) => {
        const t = fielded[ti]!;
        const path = t.fields![fi % t.fields!.length]!;
        return ok(await checkTarget(t, `${path.join('.')} = ${JSON.stringify(v)?.slice(0, 80)}`, (file) => editField(t, file, path, v)));
      }),
      params,
    );
  });

  it(`nesting around the limit (${MAX_NESTING} levels) and far past it, in any field`, async () => {
    const depth = fc.oneof(
      fc.integer({ min: MAX_NESTING - 8, max: MAX_NESTING + 8 }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1_000, max: 30_000 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: fielded.length - 1 }), fc.nat(), depth, fc.constantFrom('array' as const, 'object' as const), async (ti, fi, n, kind) => {
        const t = fielded[ti]!;
        const path = t.fields![fi % t.fields!.length]!;
        return ok(await checkTarget(t, `${path.join('.')} = ${n} levels of ${kind}s`, (file) => editFieldRaw(t, file, path, nestedText(n, kind))));
      }),
      params,
    );
  });

  it('arbitrary text or bytes in place of any input file', async () => {
    const targets = TARGETS.filter((t) => !t.category.startsWith('static model'));
    const content = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.json({ maxDepth: 5 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: targets.length - 1 }), content, async (ti, text) => {
        const t = targets[ti]!;
        return ok(await checkTarget(t, JSON.stringify(typeof text === 'string' ? text.slice(0, 60) : `${text.length} bytes`), (file) => put(file, text)));
      }),
      params,
    );
  });

  it('JSON Lines of arbitrary records, kept lines and broken ones', async () => {
    const targets = byFormat('jsonl');
    const line = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc
        .dictionary(
          fc.constantFrom(
            '_id',
            'id',
            'name',
            'text',
            'request',
            'caseId',
            'ranked',
            'expectedTools',
            'inputSchema',
            'source',
            'split',
            'ms',
            'query',
            'label',
          ),
          value,
          { maxKeys: 6 },
        )
        .map((o) => JSON.stringify(o)),
      fc.string({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: targets.length - 1 }), fc.array(line, { maxLength: 6 }), fc.boolean(), async (ti, lines, keep) => {
        const t = targets[ti]!;
        return ok(
          await checkTarget(t, JSON.stringify(lines).slice(0, 100), (file) => {
            // kept: the generated lines after the real ones (so the good records are still there)
            const before = keep ? readFileSync(file, 'utf8') : '';
            put(file, `${before}${lines.join('\n')}\n`);
          }),
        );
      }),
      params,
    );
  });

  it('YAML made of the tokens that matter (anchors, aliases, tags, flow and block nesting)', async () => {
    const targets = byFormat('yaml', 'md');
    const token = fc.constantFrom(
      'name:',
      'description:',
      'eval:',
      'k:',
      'strategies:',
      'bm25:',
      'figures:',
      'top1:',
      'schemaVersion:',
      'dataset:',
      'metadata:',
      'category:',
      ' ',
      '  ',
      '\n',
      '\n  ',
      '- ',
      '&a ',
      '*a',
      '&b ',
      '*b',
      '[',
      ']',
      '{',
      '}',
      ', ',
      '"',
      "'",
      '!!str ',
      '!!binary ',
      '!tag ',
      '# c',
      '---',
      '...',
      ': ',
      '? ',
      '|',
      '>',
      '1',
      '0.5',
      'true',
      'null',
      '~',
      'x',
      '<<: *a',
      '\t',
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: targets.length - 1 }), fc.array(token, { maxLength: 60 }), async (ti, tokens) => {
        const t = targets[ti]!;
        const yaml = tokens.join('');
        return ok(await checkTarget(t, JSON.stringify(yaml).slice(0, 100), (file) => put(file, t.format === 'md' ? `---\n${yaml}\n---\nbody\n` : yaml)));
      }),
      params,
    );
  });

  it('TSV and CSV rows of known ids, odd cells and odd separators', async () => {
    const targets = byFormat('tsv', 'csv');
    const cell = fc.oneof(
      fc.constantFrom(
        'q000001',
        'q000002',
        'bash',
        'read_file',
        'mcp__github__search',
        'e1',
        'e2',
        'WeatherTool',
        '1',
        '0',
        '-1',
        'NaN',
        '',
        '"',
        '""',
        'a|b',
        ' ',
        'query-id',
        'request',
        'expected_tools',
        'case_id',
        'called_tool',
        'Query',
        'Tool',
      ),
      fc.string({ maxLength: 12 }),
    );
    const row = fc.tuple(fc.array(cell, { minLength: 0, maxLength: 5 }), fc.constantFrom('\t', ',', ';', ' ')).map(([cells, sep]) => cells.join(sep));
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: targets.length - 1 }), fc.array(row, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), async (ti, rows, eol) => {
        const t = targets[ti]!;
        return ok(
          await checkTarget(t, JSON.stringify(rows).slice(0, 100), (file) => {
            const header = t.format === 'tsv' ? 'query-id\tcorpus-id\tscore' : readFileSync(file, 'utf8').split('\n')[0]!;
            put(file, [header, ...rows].join(eol) + eol);
          }),
        );
      }),
      params,
    );
  });

  it('arbitrary values for the flags of every command', async () => {
    const flagValue = fc.oneof(
      fc.constantFrom(
        '0',
        '-1',
        '1',
        '2/2',
        '3/2',
        '1e9',
        'NaN',
        'Infinity',
        '',
        ' ',
        'auto',
        'auto:2',
        'none',
        'bm25=x',
        'a,,b',
        'bm25',
        'deferred',
        'md',
        'nope',
        '99999999999999999999',
      ),
      fc.string({ maxLength: 12 }),
    );
    // Commands and the flags that take a value; run and generate are left out (a valid value would build a large dataset).
    const commands: Array<{ argv: (dir: string) => string[]; flags: string[]; verdicts?: number[] }> = [
      {
        argv: (d) => ['eval', '--dataset', bases.dataset, '--out', join(d, 'out'), '--quiet', '--retrievers', 'bm25'],
        flags: [
          '--k',
          '--floor',
          '--shard',
          '--split',
          '--calibrate-on',
          '--context-window',
          '--cache-write-ratio',
          '--cache-read-ratio',
          '--query-style',
          '--workers',
          '--examples-per-tool',
          '--profiles',
        ],
      },
      { argv: (d) => ['report', bases.results, '--out', join(d, 'rep')], flags: ['--format'] },
      { argv: () => ['gate', '--expect', bases.gateYaml, '--results', bases.results], flags: ['--baseline'], verdicts: [100] },
      { argv: (d) => ['bless', '--results', bases.results, '--expect', join(d, 'e.yaml'), '--reason', 'fuzz'], flags: ['--strategies', '--tolerance'] },
      {
        argv: () => ['diff', '--old', bases.bundle, '--new', bases.bundle, '--cases', bases.evalCases],
        flags: ['--k', '--threshold', '--similarity', '--retriever'],
        verdicts: [100],
      },
      { argv: () => ['inspect', '--catalog', bases.toolsList], flags: ['--server', '--format'] },
      { argv: (d) => ['snapshot', '--config', bases.mcpConfig, '--out', join(d, 'b.json')], flags: ['--timeout', '--server'] },
    ];
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: commands.length - 1 }), fc.array(fc.tuple(fc.nat(), flagValue), { minLength: 1, maxLength: 3 }), async (ci, flags) => {
        const c = commands[ci]!;
        const o = await check(`flags ${JSON.stringify(flags)}`, (dir) => ({
          argv: [...c.argv(dir), ...flags.flatMap(([fi, v]) => [c.flags[fi % c.flags.length]!, v])],
          ...(c.verdicts ? { verdicts: c.verdicts } : {}),
        }));
        return ok(o);
      }),
      params,
    );
  });

  it('no generated case crashed', () => {
    expect(crashes).toEqual([]);
  });
});
