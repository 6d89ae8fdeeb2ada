/**
 * Runs the steps of a composite GitHub Action (action.yml) outside GitHub, for tests: each step's
 * `if:` and `${{ }}` values are evaluated with GitHub's own expression library
 * (@actions/expressions) over the contexts given; `run:` scripts run in bash as the runner runs
 * them (`bash --noprofile --norc -e -o pipefail`, with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and
 * RUNNER_TEMP); the actions a step `uses:` are stood in for: actions/cache (a folder of saved
 * keys), actions/github-script (the script run against an in-memory pull request's comments),
 * actions/upload-artifact (the paths recorded), actions/setup-node (skipped: node is here).
 *
 * `backpack` in the scripts is a real command on PATH that forwards its arguments, working folder
 * and output to this process, which runs the command line in-process (`runCli`): the commands and
 * their files, exit codes and output are real; only the start-up of a process per call is saved.
 */
import { Evaluator, Lexer, Parser, data } from '@actions/expressions';
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { runCli } from './helpers.ts';

export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface ActionFile {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

/** A pull request's comments, as the REST API gives them to github-script. */
export interface FakeComment {
  id: number;
  user: { type: string };
  body: string;
  /** Times the comment was updated after it was created. */
  updates: number;
}

export interface StepResult {
  outcome: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  log: string;
}

export interface ActionRun {
  steps: Map<ActionStep, StepResult>;
  /** Step results by id. */
  byId: Record<string, StepResult>;
  summary: string;
  /** Paths the upload step found. */
  uploaded: string[];
  /** `backpack` command lines run, in order. */
  calls: string[][];
  /** The last step's outcome decides the job: failure when any step failed. */
  failed: boolean;
}

export interface ActionEnvironment {
  workspace: string;
  runnerTemp: string;
  /** Saved caches: one folder per key. */
  cacheDir: string;
  /** The action's inputs as a workflow's `with:` gives them (defaults filled in here). */
  with: Record<string, string>;
  github: Record<string, unknown>;
  comments: FakeComment[];
  /** Steps not to run (reported as skipped), e.g. the installation. */
  skip?: (step: ActionStep) => boolean;
}

const STATUS_FUNCTIONS = ['success', 'failure', 'always', 'cancelled'].map((name) => ({ name, minArgs: 0, maxArgs: 0 }));

/** Evaluate one expression (without `${{ }}`) over the contexts; `failed`: whether an earlier step failed. */
export function evaluateExpression(expr: string, contexts: Record<string, unknown>, failed = false): data.ExpressionData {
  const lexed = new Lexer(expr).lex();
  const parsed = new Parser(lexed.tokens, Object.keys(contexts), STATUS_FUNCTIONS).parse();
  const dict = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary;
  const fn = (name: string, value: boolean) => [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(value) }] as const;
  const functions = new Map([fn('success', !failed), fn('failure', failed), fn('always', true), fn('cancelled', false)]);
  return new Evaluator(parsed, dict, functions).evaluate();
}

/** A string with `${{ … }}` parts replaced by their values. */
export function interpolate(text: string, contexts: Record<string, unknown>): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, e: string) => evaluateExpression(e.trim(), contexts).coerceString());
}

function condition(step: ActionStep, contexts: Record<string, unknown>, failed: boolean): boolean {
  const raw = step.if?.trim() ?? 'success()';
  const expr = raw.startsWith('${{') && raw.endsWith('}}') ? raw.slice(3, -2).trim() : raw;
  // GitHub adds success() to a condition that calls no status function
  const full = /\b(success|failure|always|cancelled)\(\)/.test(expr) ? expr : `success() && (${expr})`;
  const v = evaluateExpression(full, contexts, failed);
  return v.kind === data.Kind.Boolean ? (v as data.BooleanData).value : v.coerceString() !== '' && v.coerceString() !== 'false';
}

function parseOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], { cwd, env });
    let log = '';
    child.stdout.on('data', (d) => void (log += d));
    child.stderr.on('data', (d) => void (log += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, log }));
  });
}

/**
 * A `backpack` command for scripts: a small node program that sends its arguments and working
 * folder over a socket to this process and prints what the in-process command line printed.
 */
export async function startBackpackBridge(dir: string): Promise<{ bin: string; calls: string[][]; close: () => Promise<void> }> {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const socket = join(dir, 'backpack.sock');
  const calls: string[][] = [];
  let queue = Promise.resolve();
  const server: Server = createServer({ allowHalfOpen: true }, (conn) => {
    let buf = '';
    conn.on('data', (d) => void (buf += d));
    conn.on('end', () => {
      // one command at a time: each changes the process's working folder while it runs
      queue = queue.then(async () => {
        const { argv, cwd } = JSON.parse(buf) as { argv: string[]; cwd: string };
        calls.push(argv);
        const before = process.cwd();
        process.chdir(cwd);
        let r: { code: number; out: string; err: string };
        try {
          r = await runCli(...argv);
        } catch (err) {
          r = { code: 1, out: '', err: String((err as Error).stack) };
        } finally {
          process.chdir(before);
        }
        conn.end(JSON.stringify(r));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  writeFileSync(
    join(bin, 'backpack'),
    `#!${process.execPath}
const conn = require('node:net').connect(${JSON.stringify(socket)});
conn.end(JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));
let buf = '';
conn.on('data', (d) => { buf += d; });
conn.on('end', () => {
  const r = JSON.parse(buf);
  process.stdout.write(r.out);
  process.stderr.write(r.err);
  process.exitCode = r.code;
});
`,
  );
  chmodSync(join(bin, 'backpack'), 0o755);
  return { bin, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A github-script `github` and `context` over an in-memory list of comments. */
function fakeGithub(comments: FakeComment[], issue: number) {
  const issues = {
    listComments: async () => ({ data: comments.map((c) => ({ ...c })) }),
    createComment: async ({ body }: { body: string }) => {
      comments.push({ id: comments.length + 1, user: { type: 'Bot' }, body, updates: 0 });
      return { data: {} };
    },
    updateComment: async ({ comment_id, body }: { comment_id: number; body: string }) => {
      const c = comments.find((x) => x.id === comment_id);
      if (!c) throw new Error(`no comment ${comment_id}`);
      c.body = body;
      c.updates += 1;
      return { data: {} };
    },
  };
  const github = {
    rest: { issues },
    paginate: async (fn: (p: unknown) => Promise<{ data: unknown[] }>, params: unknown) => (await fn(params)).data,
  };
  return { github, context: { repo: { owner: 'acme', repo: 'registry' }, issue: { number: issue } } };
}

/** Run the action's steps in order, as the runner would. */
export async function runAction(action: ActionFile, env: ActionEnvironment, bridge: { bin: string; calls: string[][] }): Promise<ActionRun> {
  const inputs: Record<string, string> = {};
  const bare = { github: env.github, runner: { temp: env.runnerTemp, os: 'Linux' } };
  for (const [name, spec] of Object.entries(action.inputs))
    inputs[name] = env.with[name] ?? (spec.default !== undefined ? interpolate(String(spec.default), bare) : '');
  const steps = new Map<ActionStep, StepResult>();
  const byId: Record<string, StepResult> = {};
  mkdirSync(env.runnerTemp, { recursive: true });
  const summaryFile = join(env.runnerTemp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const uploaded: string[] = [];
  const firstCall = bridge.calls.length;
  let failed = false;
  for (const [i, step] of action.runs.steps.entries()) {
    const contexts = { ...bare, inputs, steps: byId, env: {} };
    let result: StepResult;
    if (env.skip?.(step) || !condition(step, contexts, failed)) result = { outcome: 'skipped', outputs: {}, log: '' };
    else {
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts)]));
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts)]));
      result = await runStep(step, stepEnv, w, env, bridge.bin, summaryFile, uploaded, i);
    }
    steps.set(step, result);
    if (step.id) byId[step.id] = result;
    if (result.outcome === 'failure') failed = true;
  }
  return { steps, byId, summary: readFileSync(summaryFile, 'utf8'), uploaded, calls: bridge.calls.slice(firstCall), failed };
}

async function runStep(
  step: ActionStep,
  stepEnv: Record<string, string>,
  w: Record<string, string>,
  env: ActionEnvironment,
  bin: string,
  summaryFile: string,
  uploaded: string[],
  index: number,
): Promise<StepResult> {
  if (step.run !== undefined) {
    const outputs = join(env.runnerTemp, `outputs-${index}`);
    writeFileSync(outputs, '');
    const r = await bash(step.run, env.workspace, {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: process.env.HOME ?? env.runnerTemp,
      GITHUB_OUTPUT: outputs,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_WORKSPACE: env.workspace,
      RUNNER_TEMP: env.runnerTemp,
      ...stepEnv,
    });
    return { outcome: r.code === 0 ? 'success' : 'failure', outputs: parseOutputs(outputs), log: r.log };
  }
  const uses = step.uses ?? '';
  if (uses.startsWith('actions/setup-node@')) return { outcome: 'success', outputs: {}, log: 'node is here' };
  if (uses.startsWith('actions/cache/restore@')) {
    const saved = join(env.cacheDir, w.key!);
    if (!existsSync(saved)) return { outcome: 'success', outputs: { 'cache-hit': 'false' }, log: 'cache miss' };
    rmSync(w.path!, { recursive: true, force: true });
    cpSync(saved, w.path!, { recursive: true });
    return { outcome: 'success', outputs: { 'cache-hit': 'true', 'cache-primary-key': w.key!, 'cache-matched-key': w.key! }, log: 'cache hit' };
  }
  if (uses.startsWith('actions/cache/save@')) {
    const saved = join(env.cacheDir, w.key!);
    // like actions/cache: a key is saved once, never replaced
    if (!existsSync(saved)) cpSync(w.path!, saved, { recursive: true });
    return { outcome: 'success', outputs: {}, log: 'saved' };
  }
  if (uses.startsWith('actions/upload-artifact@')) {
    for (const p of w
      .path!.split('\n')
      .map((s) => s.trim())
      .filter(Boolean))
      if (existsSync(p)) uploaded.push(p);
    return { outcome: 'success', outputs: {}, log: `uploaded ${uploaded.length}` };
  }
  if (uses.startsWith('actions/github-script@')) {
    const { github, context } = fakeGithub(env.comments, 7);
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
    const fn = new AsyncFunction('require', 'github', 'context', 'process', w.script!);
    try {
      await fn(createRequire(import.meta.url), github, context, { env: { ...process.env, ...stepEnv } });
      return { outcome: 'success', outputs: {}, log: '' };
    } catch (err) {
      return { outcome: 'failure', outputs: {}, log: String(err) };
    }
  }
  throw new Error(`the test runner does not stand in for ${uses}`);
}
