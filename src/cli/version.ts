import { readFileSync } from 'node:fs';

/** Backpack's version, from package.json (the one place it is written). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
