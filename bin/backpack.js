#!/usr/bin/env node
// Entry point of the `backpack` command. The sources are TypeScript; tsx compiles them
// on the fly so `npx backpack …` works right after `npm ci`, with no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
