/** Shared test helpers: the fixtures folder, temporary folders cleaned up after a file's tests, and catching InputErrors. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { InputError } from '../src/catalog/errors.ts';

/** Absolute path of `fixtures/` (with a trailing slash). */
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** A fresh temporary folder, removed after the calling test file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `backpack-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The InputError `fn` throws; fails the test if it throws anything else or nothing. */
export function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}
