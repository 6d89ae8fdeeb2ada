/**
 * Runs before every test file (vitest `setupFiles`): the temporary folders a file's tests made with
 * `tempDir` are removed after them.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers.ts';

afterAll(removeTempDirs);
