/**
 * Ajv, loaded when a schema is first checked rather than when a module is imported: Ajv takes
 * about 100 ms to load, and most commands (`--help`, `report`, `diff`) never validate against a
 * schema. `ajv` is CommonJS, so `require` gives it synchronously and the validators stay sync.
 */
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

/** Ajv's draft-07 class (`new (ajvClass())(options)`). */
export function ajvClass(): typeof Ajv {
  return (require('ajv') as { Ajv: typeof Ajv }).Ajv;
}

/** Ajv's JSON Schema 2020-12 class. */
export function ajv2020Class(): typeof Ajv2020 {
  return (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020;
}
