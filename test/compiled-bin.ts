/**
 * The `backpack` program the end-to-end tests start as a process: the sources of this checkout,
 * transpiled once per test run (esbuild, type-free: `npm test` type-checks them first) into a
 * temporary package laid out as an installed one — `bin/`, `dist/`, `package.json`, and links to
 * the checkout's `node_modules/`, `datasets/`, `models/`, `fixtures/`, `schemas/` and `.git` — with no `src/`,
 * so `bin/backpack.js` runs `dist/` as it does in an installed package.
 *
 * Why: through tsx, every process started loads each of some 300 modules through loader hooks,
 * about 1 s more per process than the compiled JavaScript on the 2-core machine (`--version`: 1.2 s
 * against 0.45 s; `run` killed when its dataset is written: 3.0 s against 1.9 s), and the suite
 * starts some 30 of them. Transpiling takes about a second. The tests of the bin itself
 * (`test/bin.test.ts`: which of dist/ and src/ it runs) start the checkout's `bin/backpack.js`.
 *
 * What `npm run build` does differently: tsc emits declarations and copies only the JSON files the
 * sources import and `src/report/assets/`; here every file of `src/` that is not TypeScript is
 * copied. Import specifiers ending in `.ts` are rewritten to `.js` as tsc's
 * `rewriteRelativeImportExtensions` does (relative ones only).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transformSync } from 'esbuild';
import { listFiles } from '../src/catalog/dataset-files.ts';

/** Top-level folders of the checkout a running Backpack reads through its package root. */
const LINKED = ['node_modules', 'datasets', 'models', 'fixtures', 'schemas', '.git'];

/** Relative `.ts` specifiers of static imports and exports and of `import()`, rewritten to `.js`. */
const RELATIVE_TS = /((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g;

/** Build the compiled package of the checkout at `checkout` into the empty folder `root`; returns its `bin/backpack.js`. */
export function buildCompiledBin(checkout: string, root: string): string {
  const src = join(checkout, 'src');
  const dist = join(root, 'dist');
  for (const rel of listFiles(src)) {
    if (rel.endsWith('.test.ts') || rel.endsWith('.d.ts')) continue;
    const from = join(src, rel);
    if (rel.endsWith('.ts')) {
      const to = join(dist, rel.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(to), { recursive: true });
      const { code } = transformSync(readFileSync(from, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        target: 'es2022',
        // `import … with { type: 'json' }` kept (Node 20 needs the attribute; es2022 alone drops it)
        supported: { 'import-attributes': true },
        sourcefile: from,
        tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: false } },
      });
      writeFileSync(to, code.replace(RELATIVE_TS, '$1$2$3.js$2'));
    } else {
      const to = join(dist, rel);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(from, to);
    }
  }
  mkdirSync(join(root, 'bin'));
  for (const name of readdirSync(join(checkout, 'bin'))) copyFileSync(join(checkout, 'bin', name), join(root, 'bin', name));
  copyFileSync(join(checkout, 'package.json'), join(root, 'package.json'));
  for (const name of LINKED) if (existsSync(join(checkout, name))) symlinkSync(join(checkout, name), join(root, name));
  return join(root, 'bin', 'backpack.js');
}
