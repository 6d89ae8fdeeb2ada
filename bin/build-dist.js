#!/usr/bin/env node
// `npm run build`: compile src/ to dist/ (tsconfig.build.json), then write dist/.built-from-src
// holding the time the compiler started. bin/backpack.js runs dist/ only when no file under src/ is
// newer than that time (an edit, a checkout, a pull made after the build falls back to the sources).
// tsc copies no other file: the assets modules read at run time beside themselves (ASSETS) are
// copied to the same place under dist/.
// The stamp is written last, so a failed or interrupted build leaves no stamp and is never used.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
/** Folders of src/ that hold non-TypeScript files read at run time (`new URL('…', import.meta.url)`). */
const ASSETS = ['report/assets'];
const started = new Date(Math.floor(Date.now() / 1000) * 1000);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
} catch (e) {
  process.stderr.write('build: tsc failed; dist/ has no .built-from-src stamp, so bin/backpack.js will not run it\n');
  process.exit(typeof e.status === 'number' ? e.status : 1);
}
// declaration files among them only type-check the assets (tsconfig.assets.json): not copied
for (const dir of ASSETS)
  cpSync(new URL(`../src/${dir}/`, import.meta.url), new URL(`../dist/${dir}/`, import.meta.url), { recursive: true, filter: (src) => !src.endsWith('.d.ts') });
const stamp = `${dist}.built-from-src`;
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);
