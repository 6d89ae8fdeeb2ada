#!/usr/bin/env node
// Entry point of the `backpack` (and `backpack-eval`) command. An installed package runs the
// compiled JavaScript in dist/. A clone runs dist/ when `npm run build` made it after the last
// change under src/ (dist/.built-from-src is newer than every source file), and otherwise the
// TypeScript sources through tsx (a devDependency): right after `npm ci`, and after any edit,
// checkout or pull, the sources are what runs, never a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A reader that stops early (`backpack eval --help | head`) closes the pipe. Drop what is still
// written instead of crashing on EPIPE, and let the command finish: its exit code (a failed gate,
// a review required) stays the process's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = () => true;
  });
}

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const DIST_MAIN = new URL('../dist/cli/main.js', import.meta.url);
const STAMP = fileURLToPath(new URL('../dist/.built-from-src', import.meta.url));

/** The newest modification time (ms) of a file under `dir`. */
function newest(dir) {
  let max = statSync(dir).mtimeMs;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    max = Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

/** Whether dist/ is what runs: there are no sources (an installed package), or it was built after their last change. */
function distIsCurrent() {
  if (!existsSync(fileURLToPath(DIST_MAIN))) return false;
  if (!existsSync(SRC)) return true;
  return existsSync(STAMP) && newest(SRC) <= statSync(STAMP).mtimeMs;
}

let main;
if (distIsCurrent()) {
  ({ main } = await import(DIST_MAIN.href));
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    const why = existsSync(fileURLToPath(DIST_MAIN)) ? 'dist/ is older than src/' : 'dist/ is missing';
    process.stderr.write(`backpack: ${why} and tsx (a devDependency) is not installed: run \`npm ci\` or \`npm run build\`\n`);
    process.exit(1);
  }
  register();
  ({ main } = await import(new URL('../src/cli/main.ts', import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2));
