/**
 * The upstream languages' string semantics the harness emulations need to write what the harnesses
 * write byte for byte, in one place: Python's (Hermes, `NousResearch/hermes-agent`) `str.split()` /
 * `str.strip()` whitespace and `json.dumps(…, ensure_ascii=False)`, and the code-point string order
 * Python `str` and Rust `String` (Codex, `openai/codex`) both sort by (docs/harness-facts.md#strings).
 */

/** Python's `str.isspace()` characters (JS `\s` minus U+FEFF, plus U+001C–U+001F and U+0085). */
export const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_WS_RUN = new RegExp(`[${PY_WS}]+`, 'g');
const PY_STRIP = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g');

/** Python `" ".join(s.split())`: whitespace runs to one space, trimmed. */
export function normalizeWhitespace(s: string): string {
  return s.replace(PY_WS_RUN, ' ').replace(/^ | $/g, '');
}

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

/**
 * Python `str` and Rust `String` order (code points; for Rust, UTF-8 bytes, the same order). JS `<`
 * compares UTF-16 code units, which puts astral characters (surrogates, D800–DFFF) before
 * U+E000–U+FFFF; this corrects that. Only the sign of the result is meaningful.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/**
 * Python `json.dumps(value, ensure_ascii=False)`: separators `", "` and `": "`, keys in insertion
 * order. Strings are escaped as JSON.stringify does (the same escapes, except that lone surrogates,
 * which Python would write raw, are written as `\udXXX`).
 */
export function pyJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`)
    .join(', ')}}`;
}
