/**
 * Text measured the way harnesses measure it: Unicode characters as code points (Rust `chars()`,
 * Python `len`), UTF-8 bytes, prefixes cut at a character boundary (never inside a surrogate
 * pair), and code-unit order. One module, used by the profiles, the skill listings and the token
 * counters.
 */

const encoder = new TextEncoder();

/** UTF-8 length of `text` in bytes. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** UTF-8 length of one code point. */
function cpBytes(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** Number of code points of `text` (a surrogate pair is one character). */
export function charCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

/** UTF-8 byte length of each code point of `text`, in order. */
export function charBytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(cpBytes(ch.codePointAt(0)!));
  return out;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends at a character boundary (Rust `floor_char_boundary`). */
export function cutToBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const b = cpBytes(ch.codePointAt(0)!);
    if (bytes + b > maxBytes) break;
    bytes += b;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** The first `maxChars` code points of `text`. */
export function cutToChars(text: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  let i = 0;
  let seen = 0;
  while (i < text.length && seen < maxChars) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    seen++;
  }
  return text.slice(0, i);
}

/** Code-unit order (Rust `String` and Python `str` order agree with it on BMP text). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
