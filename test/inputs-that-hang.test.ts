/**
 * Inputs that used to hang a CI job until its own timeout (issue 34, point 3): a FIFO where a file
 * is read, and generator sizes that cannot fit in memory. Each runs as a user runs it, the `backpack`
 * program in its own process with a deadline, so a hang fails the test instead of blocking the suite
 * (reading a FIFO blocks the thread: no in-process timeout could end it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { BACKPACK_BIN, tempDir } from './helpers.ts';

const tmp = tempDir('inputs-that-hang');
/** A deadline far above the few seconds each command takes, far below the hours a hang would. */
const DEADLINE_MS = 90_000;
const backpack = (...args: string[]) => spawnSync(process.execPath, [BACKPACK_BIN, ...args], { cwd: tmp, encoding: 'utf8', timeout: DEADLINE_MS });
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

describe('inputs that hang', () => {
  it(
    'a FIFO in a folder of MCP tools/list files is skipped with a warning; the other servers load',
    () => {
      const dir = join(tmp, 'mcp');
      cpSync(join(PACKAGE_ROOT, 'fixtures', 'catalogs', 'mcp-folder'), dir, { recursive: true });
      mkfifo(join(dir, 'zz-pipe.json'));
      const r = backpack('inspect', '--catalog', dir);
      expect(r.error, 'the command did not finish').toBeUndefined();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain('1 entry of mcp named *.json is not a regular file (a FIFO, socket or device) and was skipped: zz-pipe.json');
    },
    DEADLINE_MS + 30_000,
  );

  it(
    "a FIFO named as a dataset's queries.jsonl, or given as a cases file, is refused with exit 2 naming it",
    () => {
      const beir = join(tmp, 'beir');
      cpSync(join(PACKAGE_ROOT, 'fixtures', 'beir-mini'), beir, { recursive: true });
      rmSync(join(beir, 'queries.jsonl'));
      mkfifo(join(beir, 'queries.jsonl'));
      const r = backpack('eval', '--dataset', beir, '--retrievers', 'bm25', '--out', join(tmp, 'out'), '--quiet');
      expect(r.error, 'the command did not finish').toBeUndefined();
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${join(beir, 'queries.jsonl')}: is not a regular file (a FIFO, socket or device)`);
      const cases = join(tmp, 'cases.jsonl');
      mkfifo(cases);
      const c = backpack(
        'eval',
        '--catalog',
        join(PACKAGE_ROOT, 'fixtures', 'catalogs', 'mcp-bundle.json'),
        '--cases',
        cases,
        '--retrievers',
        'bm25',
        '--out',
        join(tmp, 'out2'),
        '--quiet',
      );
      expect(c.error, 'the command did not finish').toBeUndefined();
      expect(c.status, c.stderr).toBe(2);
      expect(c.stderr).toContain('is not a regular file (a FIFO, socket or device)');
    },
    2 * DEADLINE_MS + 30_000,
  );

  it(
    'generate sizes past what fits in memory are exit 2 at once, naming the bound',
    () => {
      mkdirSync(join(tmp, 'gen'), { recursive: true });
      for (const [flag, value] of [
        ['--tools', '1000000000'],
        ['--cases', '100000000'],
      ] as const) {
        const r = backpack('generate', '--preset', 'monster', '--seed', '7', flag, value, '--out', join(tmp, 'gen', flag.slice(2)), '--quiet');
        expect(r.error, `${flag} ${value}: the command did not finish`).toBeUndefined();
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toMatch(
          /needs about [\d.]+ GB of memory; this process may use [\d.]+ GB \(Node's heap limit\): at most [\d,]+ tools with these cases, or [\d,]+ cases with these tools/,
        );
      }
    },
    2 * DEADLINE_MS + 30_000,
  );
});
