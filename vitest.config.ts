import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The installed-package test packs and installs Backpack: `npm run test:package` (vitest.package.config.ts).
    exclude: ['**/node_modules/**', 'test/package/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
  },
});
