import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from './errors.ts';
import { lockCacheFile, lockFolder, lockPath } from './file-lock.ts';

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

describe('cache file locks', () => {
  const take = (file: string, waitMs = 30) => {
    const warnings: string[] = [];
    const release = lockCacheFile(file, (m) => warnings.push(m), waitMs);
    return { release, warnings };
  };
  const minutesAgo = (file: string, m: number) => {
    const t = new Date(Date.now() - m * 60_000);
    utimesSync(file, t, t);
  };

  it('takes <file>.lock with its pid and releases it', () => {
    const file = join(dir, 'cache-a.bin');
    const { release, warnings } = take(file);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    release!();
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('a live holder (another process, or another thread of this one) makes the writer give up after waiting, leaving the lock alone', () => {
    for (const holder of [`${process.ppid}\n`, `${process.pid} thread 7\n`, '']) {
      const file = join(dir, `cache-b-${holder.length}.bin`);
      writeFileSync(`${file}.lock`, holder); // '': a lock being created (no pid written yet)
      // dated a minute ahead: however slow this machine, the unnamed lock is not yet old enough to be stale
      if (holder === '') utimesSync(`${file}.lock`, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
      const t0 = Date.now();
      const { release, warnings } = take(file, 60);
      expect(release).toBeNull();
      expect(Date.now() - t0).toBeGreaterThanOrEqual(60);
      expect(warnings).toEqual([]);
      expect(readFileSync(`${file}.lock`, 'utf8')).toBe(holder);
    }
  });

  it('a stale lock is taken over with a warning: its process gone, no pid for a while, or held longer than any cache write', () => {
    const cases: Array<[string, number, string]> = [
      [`${DEAD}\n`, 0, `(process ${DEAD} is gone)`],
      ['garbage', 1, '(it names no process)'],
      [`${process.ppid}\n`, 2, `by process ${process.ppid}, longer than any cache write)`],
    ];
    for (const [content, age, why] of cases) {
      const file = join(dir, `cache-c-${content.length}.bin`);
      writeFileSync(`${file}.lock`, content);
      if (age > 0) minutesAgo(`${file}.lock`, age);
      const { release, warnings } = take(file);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`taking over the stale lock ${file}.lock `);
      expect(warnings[0]).toContain(why);
      expect(readFileSync(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
      release!();
    }
  });

  it("its own thread's leftover lock is simply taken; release never removes a lock another writer took since", () => {
    const file = join(dir, 'cache-d.bin');
    writeFileSync(`${file}.lock`, `${process.pid}\n`);
    const { release, warnings } = take(file);
    expect(warnings).toEqual([]);
    writeFileSync(`${file}.lock`, `${process.ppid}\n`); // taken over meanwhile
    release!();
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(`${process.ppid}\n`);
  });
});
