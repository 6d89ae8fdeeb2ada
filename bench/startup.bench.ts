/**
 * Benchmark: how long `backpack --help` takes to answer, as a new process each time: from the
 * compiled dist/ laid out as an installed package (dist/ is built first if it never was), from the
 * TypeScript sources through tsx (a clone before `npm run build`), and a bare `node` for reference. Run by `npm run bench` (or `npm run bench -- startup`); never asserted in tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { reportSuite, suiteResult } from './report.ts';

const iterations = Number(process.env.BACKPACK_BENCH_ITERATIONS ?? 20);

// What an installed package holds for `--help`: bin/, dist/ and package.json, and no src/ (so the
// bin runs dist/ without comparing it with the sources, which may be changing while this runs).
if (!existsSync(join(PACKAGE_ROOT, 'dist', '.built-from-src')))
  execFileSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'build-dist.js')], { stdio: 'inherit' });
const installed = mkdtempSync(join(tmpdir(), 'backpack-bench-startup-'));
mkdirSync(join(installed, 'bin'));
copyFileSync(join(PACKAGE_ROOT, 'bin', 'backpack.js'), join(installed, 'bin', 'backpack.js'));
copyFileSync(join(PACKAGE_ROOT, 'package.json'), join(installed, 'package.json'));
cpSync(join(PACKAGE_ROOT, 'dist'), join(installed, 'dist'), { recursive: true });
symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(installed, 'node_modules'));

function answer(args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout.startsWith('Usage: backpack')) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
}

const FROM_SOURCE = `const { main } = await import(${JSON.stringify(join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'))}); process.exitCode = await main(['--help']);`;

const bench = new Bench({ name: 'startup', iterations, time: 0, warmupIterations: 2 });
bench
  .add('backpack --help (installed: dist)', () => answer([join(installed, 'bin', 'backpack.js'), '--help']))
  .add('backpack --help (src through tsx)', () => answer(['--import', 'tsx', '--input-type=module', '-e', FROM_SOURCE]))
  .add('node -e 0 (reference)', () => {
    spawnSync(process.execPath, ['-e', '0']);
  });

await bench.run();
rmSync(installed, { recursive: true, force: true });

reportSuite(suiteResult('startup', bench.tasks));
