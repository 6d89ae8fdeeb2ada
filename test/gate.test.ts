/**
 * The CI gate end to end on a generated catalog (tiny preset, seed 5): bless a run, gate runs
 * against it through the command line (`registerGateCommands` on a fresh commander program, with
 * main's exit-code mapping), and the exit codes, lines and log that CI relies on.
 */
import { Command, CommanderError } from 'commander';
import { XMLParser } from 'fast-xml-parser';
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { isInputError } from '../src/util/errors.ts';
import { GateFailed, registerGateCommands } from '../src/cli/gate.ts';
import { writeRunDir } from '../src/eval/files.ts';
import { loadEvalInput, type EvalInput } from '../src/eval/input.ts';
import { makeConfig, runEval, type EvalRun } from '../src/eval/run.ts';
import { parseRegression } from '../src/gate/file.ts';
import { schemaBlock } from '../src/gate/schema.ts';
import { num, signed } from '../src/gate/report.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir('gate');

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (s: string) => void (out += s), err: (s: string) => void (err += s) };
  const program = new Command().name('backpack').exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  registerGateCommands(program, io);
  // The mapping of src/cli/main.ts `main()`, with its GateFailed line.
  let code = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof GateFailed) code = e.exitCode;
    else if (e instanceof CommanderError) code = e.exitCode === 0 ? 0 : 2;
    else if (isInputError(e)) {
      io.err(`error: ${e.describe('cli')}\n`);
      code = 2;
    } else {
      io.err(`backpack failed: ${e instanceof Error ? e.stack : String(e)}\n`);
      code = 1;
    }
  }
  return { code, out, err };
}

/** The lines of `out` for one strategy and figure. */
function line(out: string, strategy: string, figure: string): string {
  const l = out.split('\n').find((x) => new RegExp(`^\\S.*?\\s${strategy.replace(/[-]/g, '\\-')}\\s+${figure.replace(/[@.]/g, '\\$&')}\\s`).test(x));
  if (!l) throw new Error(`no line for ${strategy} ${figure} in:\n${out}`);
  return l;
}

const LOG_LINE = /^\d{4}-\d{2}-\d{2} (-|[0-9a-f]{12}) [0-9a-f]{12} .+$/;
const logLines = (file: string): string[] =>
  readFileSync(`${file}.log.md`, 'utf8')
    .split('\n')
    .filter((l) => LOG_LINE.test(l));

let input: EvalInput;
let run: EvalRun;
const dirs = { a: join(tmp, 'run-a'), low: join(tmp, 'run-low'), leak: join(tmp, 'run-leak') };

/** Remove a results folder's case and tool records (as in folders written before they were kept). */
function withoutRecords(dir: string): void {
  rmSync(join(dir, 'cases.jsonl'));
  rmSync(join(dir, 'tools.jsonl'));
}

/** A copy of `run` whose `bm25` is bm25-plain's results: a lower top-1 under the same name. */
function lowered(r: EvalRun): EvalRun {
  return {
    results: { ...r.results, retrievers: { ...r.results.retrievers, bm25: r.results.retrievers['bm25-plain']! } },
    details: { ...r.details, bm25: r.details['bm25-plain']! },
  };
}

beforeAll(async () => {
  const g = generate(resolveParams('tiny', 5));
  const datasetDir = join(tmp, 'tiny-5');
  writeDataset(datasetDir, g.dataset, g.manifest);
  input = loadEvalInput({ kind: 'dataset', ref: datasetDir, split: null });
  run = await runEval(input, makeConfig(['bm25', 'bm25-plain'], [1, 5, 10], { bm25: null, 'bm25-plain': null, codex: null }, null, false, ['codex']));
  writeRunDir(dirs.a, run, input.cases, input.catalog);
  writeRunDir(dirs.low, lowered(run), input.cases, input.catalog);
  const leaky = structuredClone(run.results);
  leaky.retrievers.bm25!.metrics.overall.scopeLeakCount = 2;
  // a figure edited by hand: without the case and tool records (see variant below)
  writeRunDir(dirs.leak, { results: leaky, details: run.details }, input.cases, input.catalog);
  withoutRecords(dirs.leak);
}, 120_000);

describe('backpack bless then gate', () => {
  const file = join(tmp, 'expected.yaml');

  it('blesses a run into a new file and logs exactly one line', async () => {
    const r = await cli('bless', '--results', dirs.a, '--expect', file, '--reason', 'first figures');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      /^wrote .*expected\.yaml\n {2}bm25: \d+ figures \(top1, recall@1, recall@5, recall@10, mrr@10, ndcg@10, noToolFalsePositiveRate, scopeLeakCount, cases\)/,
    );
    expect(r.out).toMatch(/codex: .*visible.*tokens\.beforeSearch, tokens\.perSearch, tokens\.session12Uncached, tokens\.session12Cached\)/);
    const lines = logLines(file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`${new Date().toISOString().slice(0, 10)} - ${run.results.dataset.catalogSha256.slice(0, 12)} first figures`);
    const spec = parseDocument(readFileSync(file, 'utf8')).toJS();
    expect(spec.dataset).toEqual({
      name: run.results.dataset.name,
      catalogSha256: run.results.dataset.catalogSha256,
      casesSha256: run.results.dataset.casesSha256,
    });
    expect(run.results.dataset.casesSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(spec.strategies)).toEqual(['bm25', 'bm25-plain', 'codex']);
  });

  it('bless --tolerance with a value that is not a finite number ≥ 0 exits 2, writing nothing', async () => {
    const none = join(tmp, 'infinite.yaml');
    for (const value of ['top1=1e999', 'top1=-0.5']) {
      const r = await cli('bless', '--results', dirs.a, '--expect', none, '--reason', 'x', '--tolerance', value);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`--tolerance: "${value}": not a finite number ≥ 0`);
      expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(none)).toBe(false);
    }
  });

  it('gates the same run: exit 0, every figure OK', async () => {
    const r = await cli('gate', '--expect', file, '--results', dirs.a);
    expect(r.code, r.out + r.err).toBe(0);
    const figureLines = r.out.split('\n').filter((l) => /^(OK|OKISH|IMPROVED|FAIL|MISSING)\s/.test(l));
    expect(figureLines.length).toBeGreaterThan(20);
    expect(figureLines.every((l) => l.startsWith('OK '))).toBe(true);
    expect(line(r.out, 'bm25', 'top1')).toMatch(
      new RegExp(
        `expected ${num(run.results.retrievers.bm25!.metrics.overall.top1!)}\\s+actual ${num(run.results.retrievers.bm25!.metrics.overall.top1!)}\\s+delta 0\\s+tolerance ±0\\.005`,
      ),
    );
    expect(r.out).toMatch(/gate: \d+ figures: \d+ OK → passed\n$/);
    expect(r.err).toBe('');
  });

  it('fails a lowered top-1 with exit 100 and the line naming figure, expected, actual and delta', async () => {
    const r = await cli('gate', '--expect', file, '--results', dirs.low);
    expect(r.code).toBe(100);
    const want = run.results.retrievers.bm25!.metrics.overall.top1!;
    const got = run.results.retrievers['bm25-plain']!.metrics.overall.top1!;
    expect(line(r.out, 'bm25', 'top1')).toMatch(
      new RegExp(`^FAIL\\s+bm25\\s+top1\\s+expected ${num(want)}\\s+actual ${num(got)}\\s+delta ${signed(got - want).replace('+', '\\+')}\\s`),
    );
    expect(line(r.out, 'bm25-plain', 'top1')).toMatch(/^OK\s/);
    expect(r.out).toMatch(/FAIL → failed \(exit 100\)\n$/);
  });

  it('judges a change against a baseline by the rule the comparison report uses, and a drop within noise is OKISH by default', async () => {
    const r = await cli('gate', '--expect', file, '--results', dirs.low, '--baseline', dirs.a);
    expect(r.code).toBe(100);
    const top1 = line(r.out, 'bm25', 'top1');
    expect(top1).toMatch(new RegExp(`^FAIL .* p=0\\.\\d+ \\(${run.results.retrievers.bm25!.metrics.overall.gradedCases} paired cases\\): worse`));
    // the same run on both sides: no p-value to quote, no case changed
    expect(line(r.out, 'bm25-plain', 'top1')).toMatch(/no case changed \(\d+ paired cases\)/);
    expect(line(r.out, 'bm25-plain', 'top1')).not.toMatch(/p=/);
    expect(line(r.out, 'bm25', 'cases')).not.toMatch(/p=/); // counts are not per-case means

    // An alpha no p-value reaches: a drop the test must decide is within noise (OKISH), while one
    // over too few changed cases for any test at that alpha (2/2^m ≥ 1e-9 up to m = 30) is decided
    // by its cases: the false-positive rate rose on 11 named no-tool cases, still a FAIL.
    const lenient = join(tmp, 'lenient.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.set('significance', { require: true, alpha: 1e-9 });
    writeFileSync(lenient, doc.toString());
    const s = await cli('gate', '--expect', lenient, '--results', dirs.low, '--baseline', dirs.a);
    expect(line(s.out, 'bm25', 'top1')).toMatch(/^OKISH \(within noise, p=[^)]+\)\s+bm25\s+top1.*: within noise$/);
    expect(line(s.out, 'bm25', 'noToolFalsePositiveRate')).toMatch(/^FAIL\s.*changed cases: 11 lost \(q\d+, .*, … 6 more\): worse, too few for a test$/);
    expect(s.code).toBe(100);

    // With the usual alpha the drop is significant and still fails.
    doc.set('significance', { require: true, alpha: 0.05 });
    writeFileSync(lenient, doc.toString());
    expect((await cli('gate', '--expect', lenient, '--results', dirs.low, '--baseline', dirs.a)).code).toBe(100);
  });

  it('takes the baseline from the file (relative to it), and skips the test with a warning when it cannot run', async () => {
    const withBase = join(tmp, 'with-baseline.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.set('baseline', 'run-a');
    writeFileSync(withBase, doc.toString());
    const r = await cli('gate', '--expect', withBase, '--results', dirs.low);
    expect(r.code).toBe(100);
    expect(line(r.out, 'bm25', 'top1')).toMatch(/ p=0\.\d+ /);

    doc.set('baseline', 'no-such-run');
    writeFileSync(withBase, doc.toString());
    const missing = await cli('gate', '--expect', withBase, '--results', dirs.low);
    expect(missing.code).toBe(100);
    expect(missing.err).toMatch(/warning: significance skipped: the file's baseline .*no-such-run does not exist/);
    expect(missing.out).not.toMatch(/p=/);

    // The run's dataset cannot be found: no p-values, a FAIL stays a FAIL even under require.
    const lost = structuredClone(lowered(run));
    lost.results.dataset.source = { kind: 'dataset', ref: join(tmp, 'gone'), split: null };
    writeRunDir(join(tmp, 'run-lost'), lost, input.cases, input.catalog);
    doc.set('baseline', 'run-a');
    doc.set('significance', { require: true, alpha: 1e-9 });
    writeFileSync(withBase, doc.toString());
    // The results folder keeps its cases and tool facts: the paired test needs no dataset.
    const kept = await cli('gate', '--expect', withBase, '--results', join(tmp, 'run-lost'));
    expect(kept.err).not.toMatch(/significance skipped/);
    expect(line(kept.out, 'bm25', 'top1')).toMatch(/ p=0\.\d+ /);
    // A folder written before it kept them (no cases.jsonl, tools.jsonl) falls back to its dataset.
    for (const f of ['cases.jsonl', 'tools.jsonl']) rmSync(join(tmp, 'run-lost', f));
    const l = await cli('gate', '--expect', withBase, '--results', join(tmp, 'run-lost'));
    expect(l.code).toBe(100);
    expect(l.err).toMatch(/warning: significance skipped: the run's dataset .* could not be loaded/);
    expect(line(l.out, 'bm25', 'top1')).toMatch(/^FAIL /);
  });

  it("fails a hand-raised expected top-1 (+0.2) even against an identical baseline: the baseline is not at the file's figure", async () => {
    const raised = join(tmp, 'raised.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    const want = run.results.retrievers.bm25!.metrics.overall.top1!;
    doc.setIn(['strategies', 'bm25', 'figures', 'top1'], want + 0.2);
    writeFileSync(raised, doc.toString());
    const r = await cli('gate', '--expect', raised, '--results', dirs.a, '--baseline', dirs.a);
    expect(r.code).toBe(100);
    expect(line(r.out, 'bm25', 'top1')).toMatch(
      new RegExp(
        `^FAIL\\s+bm25\\s+top1\\s+expected ${num(want + 0.2)}\\s+actual ${num(want)}\\s+delta -0\\.2\\s+tolerance ±0\\.005\\s+no case changed \\(\\d+ paired cases\\)\\s+\\(within noise of the baseline, but the baseline's top1 \\(${num(want)}\\) is not the file's either: still a FAIL\\)`,
      ),
    );
  });

  it('reports an improvement as IMPROVED (exit 0) with a bless hint, and fails it under --strict', async () => {
    const low = join(tmp, 'low.yaml');
    expect((await cli('bless', '--results', dirs.low, '--expect', low, '--reason', 'figures of the plain variant')).code).toBe(0);
    const r = await cli('gate', '--expect', low, '--results', dirs.a);
    expect(r.code, r.out).toBe(0);
    const overall = (name: string) => run.results.retrievers[name]!.metrics.overall;
    const gain = overall('bm25').top1! - overall('bm25-plain').top1!;
    expect(gain).toBeGreaterThan(0.005); // beyond the tolerance, or this test tests nothing
    // The report prints deltas with 4 significant digits, trailing zeros dropped (+0.116, not +0.1160).
    const shown = (x: number) => String(Number(x.toPrecision(4))).replace('.', '\\.');
    expect(line(r.out, 'bm25', 'top1')).toMatch(new RegExp(`^IMPROVED\\s+bm25\\s+top1\\s.*delta \\+${shown(gain)}\\s`));
    const fpDrop = overall('bm25').noToolFalsePositiveRate! - overall('bm25-plain').noToolFalsePositiveRate!;
    expect(fpDrop).toBeLessThan(-0.005); // lower is better
    expect(line(r.out, 'bm25', 'noToolFalsePositiveRate')).toMatch(new RegExp(`^IMPROVED\\s.*delta ${shown(fpDrop)}\\s`));
    expect(r.out).toMatch(/hint: \d+ figures improved beyond tolerance: lock them in with backpack bless --results \S+ --expect \S+low\.yaml --reason/);
    const strict = await cli('gate', '--expect', low, '--results', dirs.a, '--strict');
    expect(strict.code).toBe(100);
    expect(strict.out).toMatch(/improved beyond tolerance, which fails under --strict/);
    // After blessing the better figures, --strict passes.
    expect((await cli('bless', '--results', dirs.a, '--expect', low, '--reason', 'bm25 is back')).code).toBe(0);
    expect((await cli('gate', '--expect', low, '--results', dirs.a, '--strict')).code).toBe(0);
  });

  it("warns when the catalog sha256 differs from the file's, without failing", async () => {
    const other = join(tmp, 'other-catalog.yaml');
    writeFileSync(other, readFileSync(file, 'utf8').replace(run.results.dataset.catalogSha256, 'f'.repeat(64)));
    const r = await cli('gate', '--expect', other, '--results', dirs.a);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^warning: the results' catalog sha256 [0-9a-f]{12}… differs from the file's ffffffffffff…/m);
  });

  it("passes on the run's own input warnings and a re-signed dataset as warnings, without failing", async () => {
    const warned = join(tmp, 'warned');
    cpSync(dirs.a, warned, { recursive: true });
    const resultsFile = join(warned, 'results.json');
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    results.dataset.reSigned = { added: [], removed: [], changed: ['roles.json'] };
    results.warnings = ['x.jsonl: 1 invalid UTF-8 byte sequence was replaced with U+FFFD (first on line 3)'];
    writeFileSync(resultsFile, JSON.stringify(results));
    const r = await cli('gate', '--expect', file, '--results', warned);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('warning: the results were scored on a re-signed dataset (eval --re-sign: 0 added, 0 removed, 1 changed files)');
    expect(r.err).toContain('warning: the run warned: x.jsonl: 1 invalid UTF-8 byte sequence was replaced with U+FFFD (first on line 3)');
  });

  it('refuses (exit 2) results scored on other cases than the file was blessed on, and names both hashes', async () => {
    const other = join(tmp, 'other-cases.yaml');
    writeFileSync(other, readFileSync(file, 'utf8').replace(run.results.dataset.casesSha256!, 'e'.repeat(64)));
    const r = await cli('gate', '--expect', other, '--results', dirs.a);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(
        `scored on other cases \\(cases sha256 ${run.results.dataset.casesSha256!.slice(0, 12)}…\\) than .*other-cases\\.yaml was blessed on \\(eeeeeeeeeeee…\\)`,
      ),
    );
    // a file blessed before cases were hashed still gates, and results without the hash only warn
    const old = join(tmp, 'no-cases-hash.yaml');
    writeFileSync(old, readFileSync(file, 'utf8').replace(/\n\s*casesSha256: [0-9a-f]{64}/, ''));
    expect((await cli('gate', '--expect', old, '--results', dirs.a)).code).toBe(0);
  });

  it('the cases hash is the same for every shard of a run and for the merged run', async () => {
    const parts = [1, 2].map((i) => runEval(input, makeConfig(['bm25'], [1, 5], { bm25: null }, null), { shard: { index: i, count: 2 } }));
    const [a, b] = await Promise.all(parts);
    expect(a!.results.dataset.casesSha256).toBe(run.results.dataset.casesSha256);
    expect(b!.results.dataset.casesSha256).toBe(run.results.dataset.casesSha256);
    const fewer = await runEval({ ...input, cases: input.cases.slice(1) }, makeConfig(['bm25'], [1, 5], { bm25: null }, null));
    expect(fewer.results.dataset.casesSha256).not.toBe(run.results.dataset.casesSha256);
  });

  it('fails any scope leak, whatever the file expects or tolerates', async () => {
    const leaks = join(tmp, 'leaks.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.setIn(['strategies', 'bm25', 'figures', 'scopeLeakCount'], 2);
    doc.setIn(['strategies', 'bm25', 'tolerance'], { scopeLeakCount: { abs: 5 } });
    writeFileSync(leaks, doc.toString());
    const r = await cli('gate', '--expect', leaks, '--results', dirs.leak);
    expect(r.code).toBe(100);
    expect(line(r.out, 'bm25', 'scopeLeakCount')).toMatch(
      /^FAIL\s+bm25\s+scopeLeakCount\s+expected 2\s+actual 2\s+delta 0\s+tolerance ±0\s+\(scope leaks tolerate nothing\)/,
    );
    expect(r.err).toMatch(/scopeLeakCount tolerates nothing; this tolerance is ignored/);
    // and a leak against an expected 0 fails too
    expect(line((await cli('gate', '--expect', file, '--results', dirs.leak)).out, 'bm25', 'scopeLeakCount')).toMatch(/^FAIL .*expected 0\s+actual 2/);
  });

  it('warns about strategies of the results that the file does not gate, and fails figures the results lack', async () => {
    const some = join(tmp, 'some.json');
    expect((await cli('bless', '--results', dirs.a, '--expect', some, '--strategies', 'bm25', '--reason', 'bm25 only')).code).toBe(0);
    const spec = JSON.parse(readFileSync(some, 'utf8'));
    expect(Object.keys(spec.strategies)).toEqual(['bm25']);
    const r = await cli('gate', '--expect', some, '--results', dirs.a);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning: strategy "bm25-plain" is in the results but not in .*some\.json: not gated/);
    expect(r.err).toMatch(/warning: strategy "codex"/);

    spec.strategies.bm25.figures['recall@3'] = 0.5;
    spec.strategies.hybrid = { figures: { top1: 0.5 } };
    writeFileSync(some, JSON.stringify(spec));
    const m = await cli('gate', '--expect', some, '--results', dirs.a);
    expect(m.code).toBe(100);
    expect(line(m.out, 'bm25', 'recall@3')).toMatch(/^MISSING .*\(recall@3 is not in the results for bm25\)/);
    expect(line(m.out, 'hybrid', 'top1')).toMatch(/^MISSING .*\(strategy hybrid is not in the results\)/);
  });

  it('prints JSON verdicts and writes JUnit', async () => {
    const junit = join(tmp, 'gate.junit.xml');
    const r = await cli('gate', '--expect', file, '--results', dirs.low, '--json', '--junit', junit);
    expect(r.code).toBe(100);
    const report = JSON.parse(r.out);
    expect(report.exitCode).toBe(100);
    const v = report.verdicts.find((x: { strategy: string; figure: string }) => x.strategy === 'bm25' && x.figure === 'top1');
    expect(v).toMatchObject({
      status: 'FAIL',
      expected: run.results.retrievers.bm25!.metrics.overall.top1,
      actual: run.results.retrievers['bm25-plain']!.metrics.overall.top1,
      direction: 'higher',
      tolerance: 0.005,
    });
    const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, 'utf8'));
    const suites = [xml.testsuites.testsuite].flat();
    expect(suites.map((s: Record<string, string>) => s['@_name'])).toEqual(['bm25', 'bm25-plain', 'codex']);
    expect(Number(suites[0]['@_failures'])).toBe(
      report.verdicts.filter((x: { strategy: string; status: string }) => x.strategy === 'bm25' && x.status === 'FAIL').length,
    );
    expect(Number(suites[1]['@_failures'])).toBe(0);
  });

  it('keeps comments and tolerances when blessing again, and logs one more line', async () => {
    const kept = join(tmp, 'kept.yaml');
    copyFileSync(file, kept);
    const doc = parseDocument(readFileSync(kept, 'utf8'));
    doc.setIn(['strategies', 'bm25', 'tolerance'], { top1: { abs: 0.02 } });
    writeFileSync(kept, `${doc.toString()}# the end\n`.replace('  bm25:\n', '  bm25: # the default retriever\n'));
    expect((await cli('bless', '--results', dirs.low, '--expect', kept, '--reason', 'one')).code).toBe(0);
    expect((await cli('bless', '--results', dirs.a, '--expect', kept, '--reason', 'two')).code).toBe(0);
    const text = readFileSync(kept, 'utf8');
    expect(text).toMatch(/ {2}bm25:( # the default retriever\n| *\n +# the default retriever\n)/);
    expect(text).toContain('# the end');
    expect(parseDocument(text).getIn(['strategies', 'bm25', 'tolerance', 'top1', 'abs'])).toBe(0.02);
    expect(logLines(kept).map((l) => l.split(' ').slice(3).join(' '))).toEqual(['one', 'two']);
  });
});

describe("the tolerances bless writes (the issue's scenario)", () => {
  type Overall = Record<string, number>;
  type Tokens = Record<string, number>;
  /** A copy of `run` as if its set had 40 graded cases, bm25 top-1 at `top1`, and codex's token figures × `tokens`. */
  function variant(dir: string, top1: number, tokens: Tokens): string {
    const r = structuredClone(run.results);
    const bm25 = r.retrievers.bm25!.metrics.overall as Overall;
    Object.assign(bm25, { gradedCases: 40, top1 });
    const t = r.profiles!.codex!.tokens as unknown as Tokens;
    for (const [k, f] of Object.entries(tokens)) t[k] = t[k]! * f;
    // figures edited by hand: written without the case and tool records, so only its rates are
    // checked (with them, a results folder whose details do not give its figures is refused)
    writeRunDir(join(tmp, dir), { results: r, details: run.details }, input.cases, input.catalog);
    withoutRecords(join(tmp, dir));
    return join(tmp, dir);
  }
  const same = { beforeSearch: 1, perSearch: 1, session12Uncached: 1, session12Cached: 1 };
  // One description edit: the catalog's token figures move by 1–3 %, nothing else.
  const edit = { beforeSearch: 1.02, perSearch: 1.01, session12Uncached: 1.03, session12Cached: 1.025 };
  let blessed: string;
  let edited: string;
  let stolen: string;
  const file = join(tmp, 'tolerances.yaml');

  beforeAll(async () => {
    blessed = variant('run-40', 20 / 40, same);
    edited = variant('run-40-edit', 20 / 40, edit);
    stolen = variant('run-40-stolen', 19 / 40, same);
    const r = await cli('bless', '--results', blessed, '--expect', file, '--reason', 'forty cases');
    expect(r.code, r.err).toBe(0);
  });

  const tolerance = (f: string, strategy: string, key: string) => parseDocument(readFileSync(f, 'utf8')).toJS().strategies[strategy].tolerance?.[key];

  it('writes rel 0.05 for token figures, exact counts, none for scopeLeakCount, and rates from their case counts', () => {
    const spec = parseDocument(readFileSync(file, 'utf8')).toJS();
    expect(spec.strategies.codex.tolerance['tokens.beforeSearch']).toEqual({ rel: 0.05 });
    expect(spec.strategies.codex.tolerance['tokens.session12Cached']).toEqual({ rel: 0.05 });
    expect(spec.strategies.bm25.tolerance.cases).toEqual({ abs: 0 });
    expect(spec.strategies.bm25.tolerance.scopeLeakCount).toBeUndefined();
    // 40 cases: √(0.25/40) = 0.079 and 1/40 = 0.025 are both above the cap 0.005
    expect(spec.strategies.bm25.tolerance.top1).toEqual({ abs: 0.005 });
    // noToolFalsePositiveRate over the run's no-tool cases: min(0.005, max(1/n, SE)), rounded up
    const o = run.results.retrievers.bm25!.metrics.overall;
    const p = o.noToolFalsePositiveRate!;
    const n = o.noToolCases!;
    const want = Math.min(0.005, Math.max(1 / n, Math.sqrt((p * (1 - p)) / n)));
    const got = spec.strategies.bm25.tolerance.noToolFalsePositiveRate.abs;
    expect(got).toBeGreaterThanOrEqual(want);
    expect(got - want).toBeLessThan(want * 0.01);
    expect(readFileSync(file, 'utf8')).toContain('tokens.beforeSearch: { rel: 0.05 }');
  });

  it('passes a description edit that moves the token figures by 1–3 %', async () => {
    const r = await cli('gate', '--expect', file, '--results', edited);
    expect(r.code, r.out).toBe(0);
    expect(line(r.out, 'codex', 'tokens.session12Uncached')).toMatch(/^OK\s.*delta \+/);
    // with the built-in tolerance (abs 0.005) the same edit failed every token figure
    const old = join(tmp, 'old-tolerances.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    for (const name of ['bm25', 'bm25-plain', 'codex']) doc.deleteIn(['strategies', name, 'tolerance']);
    writeFileSync(old, doc.toString());
    const before = await cli('gate', '--expect', old, '--results', edited);
    expect(before.code).toBe(100);
    expect(before.out.split('\n').filter((l) => /^FAIL\s+codex\s+tokens\./.test(l))).toHaveLength(4);
  });

  it('fails one stolen case out of 40', async () => {
    const r = await cli('gate', '--expect', file, '--results', stolen);
    expect(r.code).toBe(100);
    expect(line(r.out, 'bm25', 'top1')).toMatch(/^FAIL\s+bm25\s+top1\s+expected 0\.5\s+actual 0\.475\s+delta -0\.025\s+tolerance ±0\.005/);
  });

  it("keeps the file's tolerances on a re-bless, replaces them with --tolerance, and recomputes with auto", async () => {
    const f = join(tmp, 'retolerance.yaml');
    copyFileSync(file, f);
    const doc = parseDocument(readFileSync(f, 'utf8'));
    doc.setIn(['strategies', 'bm25', 'tolerance', 'top1'], doc.createNode({ abs: 0.03 }, { flow: true }));
    writeFileSync(f, doc.toString());
    expect((await cli('bless', '--results', blessed, '--expect', f, '--reason', 'again')).code).toBe(0);
    expect(tolerance(f, 'bm25', 'top1')).toEqual({ abs: 0.03 });
    const r = await cli('bless', '--results', blessed, '--expect', f, '--reason', 'looser tokens', '--tolerance', 'tokens.*=10%,mrr@10=abs:0.02');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/codex: 14 figures \(.*\); 5 tolerances written/);
    expect(tolerance(f, 'codex', 'tokens.perSearch')).toEqual({ rel: 0.1 });
    expect(tolerance(f, 'bm25', 'mrr@10')).toEqual({ abs: 0.02 });
    expect(tolerance(f, 'bm25-plain', 'mrr@10')).toEqual({ abs: 0.02 });
    expect(tolerance(f, 'bm25', 'top1')).toEqual({ abs: 0.03 });
    expect((await cli('bless', '--results', blessed, '--expect', f, '--reason', 'the rule again', '--tolerance', 'top1=auto')).code).toBe(0);
    expect(tolerance(f, 'bm25', 'top1')).toEqual({ abs: 0.005 });
    const typo = await cli('bless', '--results', blessed, '--expect', f, '--reason', 'typo', '--tolerance', 'top-1=0.1');
    expect(typo.code).toBe(0);
    expect(typo.err).toMatch(/warning: --tolerance top-1: matches no figure/);
    expect((await cli('bless', '--results', blessed, '--expect', f, '--reason', 'bad', '--tolerance', 'top1=big')).code).toBe(2);
  });

  it('writes none where the file has defaults.tolerance, and writes them into JSON files too', async () => {
    const f = join(tmp, 'with-defaults.yaml');
    writeFileSync(
      f,
      `schemaVersion: 1\ndataset:\n  name: x\n  catalogSha256: ${'a'.repeat(64)}\ndefaults:\n  tolerance: { abs: 0.01 }\nstrategies:\n  bm25:\n    figures:\n      top1: 0.1\n`,
    );
    expect((await cli('bless', '--results', blessed, '--expect', f, '--reason', 'defaults')).code).toBe(0);
    expect(parseDocument(readFileSync(f, 'utf8')).toJS().strategies.bm25).toEqual({ figures: { top1: 0.5 } });
    const j = join(tmp, 'tolerances.json');
    expect((await cli('bless', '--results', blessed, '--expect', j, '--reason', 'json')).code).toBe(0);
    const spec = JSON.parse(readFileSync(j, 'utf8'));
    expect(spec.strategies.codex.tolerance['tokens.perSearch']).toEqual({ rel: 0.05 });
    expect(spec.strategies.bm25.tolerance.top1).toEqual({ abs: 0.005 });
    expect((await cli('gate', '--expect', j, '--results', edited)).code).toBe(0);
  });
});

describe('backpack gate --markdown', () => {
  it('writes a table of the figures that moved, failing rows first, the figures that held collapsed below it, and the outcome', async () => {
    const file = join(tmp, 'expected.yaml');
    const md = join(tmp, 'gate.md');
    const r = await cli('gate', '--expect', file, '--results', dirs.low, '--markdown', md);
    expect(r.code).toBe(100);
    const text = readFileSync(md, 'utf8');
    expect(text).toMatch(/^### Backpack gate: failed \(exit 100\)\n/);
    const rows = text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| strategy') && !l.startsWith('| ---'));
    expect(rows.length).toBe(r.out.split('\n').filter((l) => /^(OK|OKISH|IMPROVED|FAIL|MISSING)\s/.test(l)).length);
    // the OK rows are inside a collapsed block after every other row
    const [moved, rest] = text.split('<details>');
    const ok = r.out.split('\n').filter((l) => /^OK\s/.test(l)).length;
    expect(ok).toBeGreaterThan(0);
    expect(rest).toContain(`<summary>${ok} figures OK</summary>`);
    expect(moved!.split('\n').filter((l) => /^\| .* \| OK \|/.test(l))).toEqual([]);
    expect(rest!.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| strategy') && !l.startsWith('| ---'))).toHaveLength(ok);
    const fails = rows.filter((l) => l.includes('**FAIL**')).length;
    expect(fails).toBeGreaterThan(0);
    expect(rows.slice(0, fails).every((l) => l.includes('**FAIL**'))).toBe(true);
    const want = run.results.retrievers.bm25!.metrics.overall.top1!;
    const got = run.results.retrievers['bm25-plain']!.metrics.overall.top1!;
    expect(rows).toContain(`| bm25 | top1 | ${num(want)} | ${num(got)} | ${signed(got - want)} | ±0.005 | **FAIL** |`);
  });
});

describe('bad input exits 2', () => {
  it('names the file, line and path of a bad regression file', async () => {
    const bad = join(tmp, 'bad.yaml');
    writeFileSync(bad, `schemaVersion: 1\ndataset:\n  name: x\n  catalogSha256: ${'a'.repeat(64)}\nstrategies:\n  bm25:\n    figures:\n      top1: high\n`);
    const r = await cli('gate', '--expect', bad, '--results', dirs.a);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: ${bad}: line 8 ($.strategies.bm25.figures.top1): must be number\n`);
  });

  it('exits 2 when no strategy of the file is in the results', async () => {
    const none = join(tmp, 'none.yaml');
    writeFileSync(none, `schemaVersion: 1\ndataset:\n  name: x\n  catalogSha256: ${'a'.repeat(64)}\nstrategies:\n  hybrid:\n    figures:\n      top1: 0.5\n`);
    const r = await cli('gate', '--expect', none, '--results', dirs.a);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nothing to evaluate: none of the file's strategies \(hybrid\) is in the results \(bm25, bm25-plain, codex\)/);
  });

  it('exits 2 for a missing results folder, regression file or option', async () => {
    expect((await cli('gate', '--expect', join(tmp, 'nope.yaml'), '--results', dirs.a)).err).toMatch(/nope\.yaml: no such regression file/);
    expect((await cli('gate', '--expect', join(tmp, 'expected.yaml'), '--results', join(tmp, 'nowhere'))).code).toBe(2);
    expect((await cli('gate', '--results', dirs.a)).code).toBe(2);
  });

  it('refuses to bless without --reason, and changes nothing', async () => {
    const file = join(tmp, 'no-reason.yaml');
    const r = await cli('bless', '--results', dirs.a, '--expect', file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--reason is required/);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.log.md`)).toBe(false);
    expect((await cli('bless', '--results', dirs.a, '--expect', file, '--reason', '  ')).code).toBe(2);
    expect((await cli('bless', '--results', dirs.a, '--expect', file, '--reason', 'x', '--strategies', 'bm26')).err).toMatch(
      /"bm26" is not in the results .*did you mean bm25/,
    );
  });
});

describe('docs/gate.md', () => {
  const page = readFileSync(join(PACKAGE_ROOT, 'docs', 'gate.md'), 'utf8');

  it('prints the JSON Schema the loader checks', () => {
    expect(page).toContain(schemaBlock());
  });

  it('shows an example regression file that reads', () => {
    const example = /```yaml\n([\s\S]*?)```/.exec(page)![1]!;
    const file = parseRegression(example, 'example.yaml');
    expect(Object.keys(file.spec.strategies)).toEqual(['bm25', 'codex']);
    expect(file.warnings).toEqual([]);
  });
});
