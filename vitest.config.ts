import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The installed-package test packs and installs Backpack: `npm run test:package` (vitest.package.config.ts).
    exclude: ['**/node_modules/**', 'test/package/**'],
    // Every core runs test files (vitest leaves one idle by default: on the 2-core CI machine that
    // is one file at a time, 246 s of wall time against 170 s with both).
    maxWorkers: availableParallelism(),
    // A fresh cache folder for the run (test/global-setup.ts): the user's caches are neither read nor grown.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
  },
});
