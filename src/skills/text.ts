/**
 * Small text helpers shared by the skill listings: Unicode character counts (code points, as Rust's
 * `chars()` and Python's `len` count), UTF-8 byte counts, and cuts at a character boundary.
 */

const encoder = new TextEncoder();

/** Number of code points of `text` (a surrogate pair is one character). */
export function charCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** UTF-8 length of `text` in bytes. */
export function byteCount(text: string): number {
  return encoder.encode(text).length;
}

/** The first `n` code points of `text`. */
export function firstChars(text: string, n: number): string {
  if (n <= 0) return '';
  let i = 0;
  let seen = 0;
  while (i < text.length && seen < n) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    seen++;
  }
  return text.slice(0, i);
}

/** UTF-8 byte length of each code point of `text`, in order. */
export function charBytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out.push(cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);
  }
  return out;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends at a character boundary. */
export function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const b = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + b > maxBytes) break;
    bytes += b;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Code-unit order (Rust `String` / Python `str` order agree with it on BMP text). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
