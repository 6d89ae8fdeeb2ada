import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../catalog/errors.ts';
import { lockFolder, lockPath } from './folder-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'backpack-lock-'));
/** A pid above Linux's largest pid_max (2^22): no process can have it. */
const DEAD = 99_999_999;

describe('one writer per folder', () => {
  it('takes the lock beside the folder with its pid, refuses a second writer while it holds it, and releases it', () => {
    const out = join(dir, 'a');
    const release = lockFolder(out);
    expect(readFileSync(lockPath(out), 'utf8')).toBe(`${process.pid}\n`);
    expect(lockPath(out)).toBe(`${out}.lock`);
    release();
    expect(existsSync(lockPath(out))).toBe(false);
    release(); // twice is harmless
  });

  it('a lock held by a running process stops the writer with an InputError naming the holder', () => {
    const out = join(dir, 'b');
    writeFileSync(lockPath(out), `${process.ppid}\n`);
    let err: unknown;
    try {
      lockFolder(out);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain(`pid ${process.ppid}`);
    expect((err as InputError).file).toBe(lockPath(out));
    // the holder's lock is left alone
    expect(readFileSync(lockPath(out), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('a stale lock (its process gone, or unreadable) is taken over with a warning', () => {
    for (const content of [`${DEAD}\n`, 'garbage']) {
      const out = join(dir, `c-${content.length}`);
      writeFileSync(lockPath(out), content);
      const warnings: string[] = [];
      const release = lockFolder(out, (m) => warnings.push(m));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('stale lock');
      expect(readFileSync(lockPath(out), 'utf8')).toBe(`${process.pid}\n`);
      release();
      expect(existsSync(lockPath(out))).toBe(false);
    }
  });

  it('releasing never removes a lock another writer has taken since', () => {
    const out = join(dir, 'd');
    const release = lockFolder(out);
    writeFileSync(lockPath(out), `${process.ppid}\n`); // taken over meanwhile
    release();
    expect(readFileSync(lockPath(out), 'utf8')).toBe(`${process.ppid}\n`);
  });
});
