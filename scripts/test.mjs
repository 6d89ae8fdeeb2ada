#!/usr/bin/env node
// `npm test`: the static checks — the type check of the sources, the type check of the report
// pages' scripts (tsconfig.assets.json), biome's lint and format check — and the vitest suite, all
// started at once. One after another, the checks left the second core of a 2-core machine idle for
// about 25 s before the suite started; beside it they take that core's idle moments instead
// (measured in docs/performance.md). vitest's output streams as it runs; each check's output is
// printed whole when it ends. A check that fails stops the suite (its output is what matters), and
// the exit code is the first failure's: 0 only when every check and every test passed.
// Arguments go to vitest (`npm test -- test/cli.test.ts`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const CHECKS = [
  { name: 'tsc --noEmit', bin: tsc, args: ['--noEmit'] },
  { name: 'tsc -p tsconfig.assets.json', bin: tsc, args: ['-p', 'tsconfig.assets.json'] },
  { name: 'biome check --error-on-warnings .', bin: require.resolve('@biomejs/biome/bin/biome'), args: ['check', '--error-on-warnings', '.'] },
];
/** vitest's command, from its package.json (its exports do not include the file). */
const vitestPackage = require.resolve('vitest/package.json');
const VITEST = join(dirname(vitestPackage), require(vitestPackage).bin.vitest);

/** A check as a child process, its output kept: resolves with its exit code and that output. */
function check({ bin, args }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (err) => resolve({ code: 1, text: `${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? 1, signal, text: Buffer.concat(out).toString() }));
  });
}

const suite = spawn(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
const suiteDone = new Promise((resolve) => suite.on('close', (code, signal) => resolve({ code: code ?? 1, signal })));
let failed = 0;
let stopped = false;
await Promise.all(
  CHECKS.map(async (c) => {
    const r = await check(c);
    const verdict = r.code === 0 ? 'passed' : r.signal ? `killed by ${r.signal}` : `FAILED (exit ${r.code})`;
    process.stdout.write(`\n> ${c.name}: ${verdict}\n${r.text}`);
    if (r.code !== 0 && failed === 0) {
      failed = r.code;
      stopped = true;
      process.stdout.write('> stopping the test suite: a static check failed\n');
      suite.kill('SIGTERM');
    }
  }),
);
const s = await suiteDone;
if (failed === 0 && s.code !== 0) failed = s.code;
if (stopped) process.stdout.write(`static checks failed: fix them first (the test suite was stopped)\n`);
process.exitCode = failed;
