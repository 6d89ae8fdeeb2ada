/**
 * Failures of the machine (issue 34, point 4): a full or a read-only disk ends a command with one
 * `error:` line naming the path and the cause, exit 1, no stack trace unless BACKPACK_DEBUG=1, and
 * the previous output intact. The disk is real: a small tmpfs mounted for the test, filled, then
 * remounted read-only (the test is skipped, saying so, where mounting is not allowed). The
 * classification itself is checked on errors the file system really throws.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentFailure, environmentMessage } from '../src/cli/environment-errors.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { BACKPACK_BIN, tempDir } from './helpers.ts';

const tmp = tempDir('environment-failures');
const disk = join(tmp, 'disk');
mkdirSync(disk, { recursive: true });
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
afterAll(() => {
  if (mounted) spawnSync('umount', [disk]);
});
if (!mounted) console.log('environment-failures: mounting a tmpfs is not allowed here, so the full and read-only disk runs are skipped');

const backpack = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [BACKPACK_BIN, ...args], { cwd: tmp, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
/** stderr without the loader's warnings about the fixture (it has no manifest). */
const said = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('warning: '));

/** Fill the disk to the last byte: writes until the file system says ENOSPC. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
}

describe('the classification of environment failures', () => {
  it('reads a real ENOSPC (a write to /dev/full, which names no path), a path from the message, and a cause', () => {
    let real: unknown;
    try {
      writeFileSync('/dev/full', 'x');
    } catch (err) {
      real = err;
    }
    expect(environmentFailure(real)).toEqual({ code: 'ENOSPC' });
    // an error that crossed a worker thread keeps only its message
    expect(environmentFailure(new Error("EROFS: read-only file system, open '/out/results.json'"))).toEqual({ code: 'EROFS', path: '/out/results.json' });
    expect(environmentFailure(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'EMFILE', path: '/a' }) }))).toEqual({
      code: 'EMFILE',
      path: '/a',
    });
    // a message that merely mentions a code, and other codes, are not environment failures
    expect(environmentFailure(new Error('the ENOSPC handling is documented'))).toBeUndefined();
    expect(environmentFailure(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBeUndefined();
    expect(environmentMessage({ code: 'ENOSPC', path: '/o/r.json' })).toBe(
      'error: /o/r.json: no space left on the device (ENOSPC); the previous output, if any, is left as it was (BACKPACK_DEBUG=1 shows the stack)',
    );
  });
});

describe.skipIf(!mounted)('a full disk, then a read-only one', () => {
  const beir = join(tmp, 'beir');
  cpSync(join(PACKAGE_ROOT, 'fixtures', 'beir-mini'), beir, { recursive: true });
  const results = join(disk, 'results');
  const report = join(disk, 'report');
  const expectFile = join(disk, 'expected.yaml');

  it('eval and report on a full disk: one error line naming the path, exit 1, earlier outputs intact; BACKPACK_DEBUG=1 adds the stack', () => {
    const first = backpack({}, 'eval', '--dataset', beir, '--retrievers', 'bm25', '--out', results, '--quiet');
    expect(first.status, first.stderr).toBe(0);
    const md = backpack({}, 'report', results, '--out', report, '--format', 'md');
    expect(md.status, md.stderr).toBe(0);
    const bless = backpack({}, 'bless', '--results', results, '--expect', expectFile, '--reason', 'first');
    expect(bless.status, bless.stderr).toBe(0);
    const before = readFileSync(join(results, 'results.json'));
    const reportBefore = readdirSync(report).sort();
    // full but for 16 kB: room for the lock file, not for the results or the report
    const filler = join(disk, 'filler');
    fill(filler);
    truncateSync(filler, statSync(filler).size - 16_384);
    for (const args of [
      ['eval', '--dataset', beir, '--retrievers', 'bm25,bm25-plain', '--out', results, '--quiet'],
      ['report', results, '--out', report],
    ]) {
      const r = backpack({}, ...args);
      expect(r.status, `${args[0]}: ${r.stderr}`).toBe(1);
      expect(said(r.stderr), args[0]).toHaveLength(1);
      expect(said(r.stderr)[0]).toMatch(new RegExp(`^error: ${disk}/[^:]+: no space left on the device \\(ENOSPC\\); the previous output`));
      const debug = backpack({ BACKPACK_DEBUG: '1' }, ...args);
      expect(debug.status).toBe(1);
      expect(debug.stderr).toMatch(/\n {4}at /);
    }
    expect(readFileSync(join(results, 'results.json'))).toEqual(before);
    expect(readdirSync(report).sort()).toEqual(reportBefore);
    expect(readdirSync(disk).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('eval, report and bless on a read-only disk: one error line naming the path, exit 1, earlier outputs intact', () => {
    execFileSync('mount', ['-o', 'remount,ro', disk]);
    const before = readFileSync(join(results, 'results.json'));
    const blessed = readFileSync(expectFile);
    for (const args of [
      ['eval', '--dataset', beir, '--retrievers', 'bm25', '--out', results, '--quiet'],
      ['report', results, '--out', join(disk, 'report-2')],
      ['bless', '--results', results, '--expect', expectFile, '--reason', 'second'],
    ]) {
      const r = backpack({}, ...args);
      expect(r.status, `${args[0]}: ${r.stderr}`).toBe(1);
      expect(said(r.stderr), args[0]).toHaveLength(1);
      expect(said(r.stderr)[0]).toMatch(new RegExp(`^error: ${disk}/[^:]+: read-only file system \\(EROFS\\); the previous output`));
    }
    expect(readFileSync(join(results, 'results.json'))).toEqual(before);
    expect(readFileSync(expectFile)).toEqual(blessed);
    expect(existsSync(join(disk, 'report-2'))).toBe(false);
  });
});
