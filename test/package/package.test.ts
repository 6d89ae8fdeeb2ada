/**
 * Backpack as a consumer gets it: `npm pack`, then `npm install <tarball>` into an empty project
 * (install scripts on, as a consumer's default install runs them) and `npm install -g` into a
 * temporary prefix, then the command and the programmatic API used from there. Run with
 * `npm run test:package` (slow: a build and two installs; the npm cache serves the dependencies).
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { PACKAGE_ROOT } from '../../src/util/version.ts';

const tmp = tempDir('package');
const consumer = join(tmp, 'consumer');
const installed = join(consumer, 'node_modules', 'backpack-eval');
const xdg = join(tmp, 'xdg-cache');
const home = join(tmp, 'home');
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

/** The environment of a consumer's shell: a fresh home and XDG cache, no BACKPACK_CACHE_DIR. */
function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.BACKPACK_CACHE_DIR;
  // Set by `npm run`: they would make npm and npx act on Backpack's own folder.
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  return { ...env, HOME: home, XDG_CACHE_HOME: xdg, npm_config_cache: npmCache(), ...extra };
}

/** The npm cache of the machine (where `npm ci` put Backpack's dependencies), so installs need no network. */
let cache: string | undefined;
function npmCache(): string {
  return (cache ??= execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim());
}

function run(cmd: string, args: string[], opts: ExecFileSyncOptions = {}): string {
  return execFileSync(cmd, args, { cwd: consumer, env: consumerEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts }) as string;
}

/** `npx backpack ARGS` in the consumer project. */
function backpack(args: string[], opts: ExecFileSyncOptions = {}): string {
  return run('npx', ['--no-install', 'backpack', ...args], opts);
}

/** Every file under `dir` with its size and modification time, sorted. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out.push(`${p.slice(dir.length)}\t${s.size}\t${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let tarball: string;
let before: string[];

beforeAll(() => {
  mkdirSync(home, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  ) as Array<{ filename: string }>;
  tarball = join(tmp, packed[0]!.filename);
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  run('npm', ['install', ...NPM_QUIET, tarball]);
  before = listing(installed);
});

describe('the packed tarball', () => {
  it('holds the compiled code, the model and MetaTool, and neither the sources nor the tests', () => {
    const files = listing(installed).map((l) => l.split('\t')[0]!);
    expect(files).toContain('/dist/cli/main.js');
    expect(files).toContain('/dist/index.d.ts');
    expect(files).toContain('/dist/eval/worker.js');
    // Read at run time beside the compiled report code (bin/build-dist.js copies them).
    expect(files).toContain('/dist/report/assets/report.css');
    expect(files).toContain('/dist/report/assets/report.js');
    expect(files).toContain('/bin/backpack.js');
    expect(files).toContain('/datasets/metatool/LICENSE');
    expect(files.some((f) => f.startsWith('/models/glove-static-30k/onnx/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('/src/') || f.includes('.test.') || f.startsWith('/datasets/monster'))).toEqual([]);
  });

  it('installs without chartjs-node-canvas, node-canvas or transformers.js', () => {
    for (const name of ['chartjs-node-canvas', 'canvas', '@huggingface/transformers', 'onnxruntime-node', 'tsx']) {
      expect(existsSync(join(consumer, 'node_modules', name)), name).toBe(false);
    }
    expect(existsSync(join(consumer, 'node_modules', '@napi-rs', 'canvas'))).toBe(true);
  });
});

describe('the installed command', () => {
  it('answers --help as backpack and as backpack-eval, with the version of package.json', () => {
    expect(backpack(['--help'])).toMatch(/^Usage: backpack \[options\] \[command\]/);
    expect(run('npx', ['--no-install', 'backpack-eval', '--help'])).toMatch(/^Usage: backpack \[options\] \[command\]/);
    const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(backpack(['--version']).trim()).toBe(version);
  });

  it('generates a dataset in the working folder', () => {
    backpack(['generate', '--preset', 'tiny', '--seed', '1', '--out', 'ds']);
    expect(existsSync(join(consumer, 'ds', 'manifest.json'))).toBe(true);
  });

  it('asks for transformers.js only when a model other than the shipped one is named (exit 2, saying what to install)', () => {
    let failure: { status?: number; stderr?: string } = {};
    try {
      backpack(['eval', '--dataset', 'ds', '--retrievers', 'embed', '--model', 'Xenova/all-MiniLM-L6-v2', '--quiet', '--out', 'reports/hub']);
    } catch (e) {
      failure = e as typeof failure;
    }
    expect(failure.status).toBe(2);
    expect(failure.stderr).toContain('npm install @huggingface/transformers@4.3.2');
  });

  it('evaluates (the shipped embedding model included, without transformers.js) and reports in the working folder, with PNG charts, caches in XDG_CACHE_HOME', () => {
    backpack(['eval', '--dataset', 'ds', '--retrievers', 'bm25,embed,hybrid', '--profiles', 'codex', '--quiet', '--out', 'reports/ds']);
    expect(existsSync(join(consumer, 'node_modules', '@huggingface', 'transformers'))).toBe(false);
    const results = join(consumer, 'reports', 'ds');
    expect(existsSync(join(results, 'results.json'))).toBe(true);
    backpack(['report', results]);
    const pngs = readdirSync(join(results, 'report')).filter((f) => f.endsWith('.png'));
    expect(pngs).toContain('recall-at-k.png');
    expect(pngs).toContain('recall-at-k@2x.png');
    for (const f of pngs) {
      const png = readFileSync(join(results, 'report', f));
      expect(png.subarray(0, 8).equals(SIGNATURE), f).toBe(true);
      expect(png.subarray(12, 16).toString('latin1'), f).toBe('IHDR');
      // 1600×900, and twice that for the @2x slide images (the chart plugins ship in the package too)
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], f).toEqual(f.endsWith('@2x.png') ? [3200, 1800] : [1600, 900]);
    }
    // Token counts and vectors were cached in the user's cache folder.
    expect(readdirSync(join(xdg, 'backpack', 'tokens')).length).toBeGreaterThan(0);
    expect(readdirSync(join(xdg, 'backpack', 'embeddings')).length).toBeGreaterThan(0);
  });

  it('puts its caches in BACKPACK_CACHE_DIR when set', () => {
    const dir = join(tmp, 'backpack-cache');
    backpack(['eval', '--dataset', 'ds', '--retrievers', 'bm25', '--profiles', 'codex', '--quiet', '--out', 'reports/again'], {
      env: consumerEnv({ BACKPACK_CACHE_DIR: dir }),
    });
    expect(readdirSync(join(dir, 'tokens')).length).toBeGreaterThan(0);
  });

  it('finds the bundled MetaTool dataset by name', () => {
    expect(backpack(['inspect', 'metatool'])).toMatch(/metatool/i);
  });

  it('evaluates through the programmatic API as the command does', () => {
    const script = `
      import { evaluate, readRunDir, VERSION } from 'backpack-eval';
      const { run } = await evaluate({ dataset: 'ds', retrievers: ['bm25'] });
      const cli = readRunDir('reports/ds');
      console.log(JSON.stringify({ api: run.results.retrievers.bm25.metrics.overall, cli: cli.results.retrievers.bm25.metrics.overall, VERSION }));
    `;
    const out = JSON.parse(run('node', ['--input-type=module', '-e', script])) as { api: unknown; cli: unknown; VERSION: string };
    expect(out.api).toEqual(out.cli);
    expect(out.VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('type-checks a consumer importing the API with only what installing Backpack brought (its declarations use Node types: @types/node is a dependency)', () => {
    writeFileSync(
      join(consumer, 'use.ts'),
      "import { evaluate, VERSION, type EvalRun } from 'backpack-eval';\nexport const r: Promise<{ run: EvalRun }> = evaluate({ dataset: 'ds', retrievers: ['bm25'] });\nexport const wrong: number = VERSION;\n",
    );
    // the consumer's own node_modules/@types, which installing the tarball filled: nothing of Backpack's checkout
    expect(existsSync(join(consumer, 'node_modules', '@types', 'node', 'package.json'))).toBe(true);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['use.ts'],
      }),
    );
    const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let out = '';
    try {
      run(process.execPath, [tsc, '-p', '.']);
    } catch (e) {
      out = String((e as { stdout?: string }).stdout);
    }
    // The deliberate mistake is found (so the declarations were read), and nothing else.
    expect(
      out
        .trim()
        .split('\n')
        .filter((l) => l.includes('error')),
    ).toEqual([expect.stringMatching(/^use\.ts\(3,14\): error TS2322: Type 'string' is not assignable to type 'number'/)]);
  });

  it('wrote nothing into its own package folder', () => {
    expect(listing(installed)).toEqual(before);
  });
});

describe('a global install', () => {
  it('installs with npm install -g into a prefix and runs from there', () => {
    const prefix = join(tmp, 'global');
    run('npm', ['install', '-g', '--prefix', prefix, ...NPM_QUIET, tarball]);
    const bin = process.platform === 'win32' ? join(prefix, 'backpack.cmd') : join(prefix, 'bin', 'backpack');
    expect(run(bin, ['--help'])).toMatch(/^Usage: backpack/);
    expect(run(bin, ['inspect', 'metatool'])).toMatch(/metatool/i);
  });
});
