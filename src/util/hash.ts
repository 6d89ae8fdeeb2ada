import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and no whitespace: the one serialisation that
 * content hashes are taken over, so key order in a source file never changes a hash.
 */
export function canonicalJson(value: unknown): string {
  return writeCanonical(value) as string;
}

/**
 * `JSON.stringify` of `value` with every object's keys sorted, written in one pass (no sorted copy
 * is built: this runs once per tool on every catalog load). Returns `undefined` where
 * `JSON.stringify` would omit the value (undefined, functions, symbols). Every object, whatever
 * its class, is written as its own enumerable keys, as the earlier sorted-copy form did
 * (`hash.test.ts` checks byte equality with it), so content hashes never change.
 */
function writeCanonical(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      // JSON.stringify's own quoting, skipped for the common string that needs no escape
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify does
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (writeCanonical(value[i]) ?? 'null');
        return out + ']';
      }
      const keys = indicesFirst(Object.keys(value).sort());
      let out = '{';
      let first = true;
      for (const key of keys) {
        const v = writeCanonical((value as Record<string, unknown>)[key]);
        if (v === undefined) continue;
        out += (first ? '' : ',') + quotedKey(key) + ':' + v;
        first = false;
      }
      return out + '}';
    }
    default:
      return undefined;
  }
}

/** A character `JSON.stringify` escapes in a string: `"`, `\`, a control character, a surrogate (a lone one is escaped). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(key)`, memoised: a catalog repeats a few hundred keys (type, description, properties…) a million times. */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_LIMIT = 4096;
function quotedKey(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = JSON.stringify(key);
    if (quotedKeys.size < QUOTED_KEYS_LIMIT) quotedKeys.set(key, q);
  }
  return q;
}

/**
 * The order in which the sorted copy's keys came out of `JSON.stringify`: a JavaScript object lists
 * array-index keys ("0", "10") first, in numeric order, before its other keys. Kept, so that a
 * schema with numeric property names hashes as it always did.
 */
function indicesFirst(sorted: string[]): string[] {
  let any = false;
  for (let i = 0; i < sorted.length; i++) {
    const c = sorted[i]!.charCodeAt(0);
    if (c >= 48 && c <= 57 && isArrayIndex(sorted[i]!)) {
      any = true;
      break;
    }
  }
  if (!any) return sorted;
  const indices = sorted.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...sorted.filter((k) => !isArrayIndex(k))];
}

function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  const n = Number(key);
  return Number.isInteger(n) && n < 4294967295 && String(n) === key;
}

/** sha256 of a string or bytes, as lowercase hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
