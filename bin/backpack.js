#!/usr/bin/env node
// Entry point of the `backpack` command. The sources are TypeScript; tsx compiles them
// on the fly so `npx backpack …` works right after `npm ci`, with no build step to forget.
import { register } from 'tsx/esm/api';

// A reader that stops early (`backpack eval --help | head`) closes the pipe. Drop what is still
// written instead of crashing on EPIPE, and let the command finish: its exit code (a failed gate,
// a review required) stays the process's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = () => true;
  });
}

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
