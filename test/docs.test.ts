import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../scripts/docs-gen.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';

describe('generated docs', () => {
  it.each(Object.keys(PAGES))('%s is up to date (run npm run docs:gen)', (path) => {
    expect(readFileSync(join(PACKAGE_ROOT, path), 'utf8')).toBe(PAGES[path]!());
  });
});
