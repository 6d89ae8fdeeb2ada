import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that set `BACKPACK_CACHE_DIR` before importing the CLI (the cache folder is read when
 * `src/util/version.ts` is first imported): each needs modules of its own, so it runs isolated.
 */
const OWN_MODULES = ['test/cache-corruption.test.ts', 'test/fuzz/**/*.test.ts'];

const EXCLUDE = ['**/node_modules/**', 'test/package/**'];

export default defineConfig({
  test: {
    // Every core runs test files (vitest leaves one idle by default: on the 2-core CI machine that
    // is one file at a time, 246 s of wall time against 170 s with both).
    maxWorkers: availableParallelism(),
    // A fresh cache folder for the run (test/global-setup.ts): the user's caches are neither read nor grown.
    globalSetup: ['./test/global-setup.ts'],
    // Per test file: its temporary folders are removed after its tests.
    setupFiles: ['./test/setup.ts'],
    // What a test or hook may take unless it says otherwise: every one not given a budget of its own
    // took under 30 s at load 12–17 on the 2-core machine (10 busy loops beside the suite,
    // 2026-12-07), most under a second quiet. The slow end-to-end suites (processes started, a
    // browser, whole evaluations) each set a budget measured the same way, beside their tests.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The installed-package test packs and installs Backpack: `npm run test:package` (vitest.package.config.ts).
          exclude: [...EXCLUDE, ...OWN_MODULES],
          // Files run one after another in each worker and share its loaded modules: importing the
          // sources once per worker instead of once per file saves about a third of the suite's
          // time on 2 cores. Tests that register extensions unregister them in afterAll.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: OWN_MODULES, exclude: EXCLUDE, isolate: true },
      },
    ],
  },
});
