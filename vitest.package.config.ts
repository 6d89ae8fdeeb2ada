import { defineConfig } from 'vitest/config';

// `npm run test:package`: pack Backpack, install the tarball as a consumer would (npm install,
// npm install -g) and use it from there. Slow (two npm installs), so not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    // One npm pack (a build) and two npm installs from the npm cache: about a minute here.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
  },
});
