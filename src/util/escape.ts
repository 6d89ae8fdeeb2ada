/**
 * Escaping of untrusted text for the reports. Tool names, descriptions, slice names, dataset names
 * and case requests come from catalogs and cases that third parties write: every reporter passes
 * them through one of these before they reach HTML, XML or Markdown.
 */

/** C0 controls XML 1.0 forbids (all but tab, LF, CR), U+FFFE/U+FFFF, and UTF-16 surrogates that are not part of a pair. */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Characters that change how text reads without being seen: bidirectional embeddings, overrides,
 * isolates and marks (which can reorder an id on screen), zero-width space and word joiners, the
 * byte-order mark, C0 controls other than tab, LF and CR, DEL and C1 controls. The joiners of emoji
 * sequences and of scripts that need them (ZWJ U+200D, ZWNJ U+200C) are left alone.
 */
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** The source of the invisible-character class, for the reports' page scripts (explorer.js shows text as {@link showInvisible} does). */
export const INVISIBLE_SOURCE: string = INVISIBLE.source;

/** Each invisible character shown as a visible code point, `[U+202E]`, so a reader sees it is there and cannot be misled by it. */
export function showInvisible(s: string): string {
  return String(s).replace(INVISIBLE, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for HTML element content or a quoted attribute value: invisible characters shown (`[U+202E]`), `& < > " '` as entities. */
export function escapeHtml(s: string): string {
  return showInvisible(s).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

/**
 * Text for XML element content or a quoted attribute value: the five predefined entities, and the
 * characters XML 1.0 cannot carry at all dropped (U+FFFE, U+FFFF, lone surrogates) or shown
 * (C0 controls but tab/LF/CR, as `[U+0007]`, like every other invisible character), so the
 * document always parses and reads as it is. `]]>` becomes `]]&gt;`.
 */
export function escapeXml(s: string): string {
  return showInvisible(s)
    .replace(XML_FORBIDDEN, '')
    .replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

/** Line breaks of any kind (CRLF, CR, LF, VT, FF, NEL, LS, PS): one space each. */
const LINE_BREAKS = /\r\n|[\n\r\u000B\u000C\u0085\u2028\u2029]/g;
/** Noncharacters and lone surrogates (the invisible characters are shown, {@link showInvisible}). */
const MD_DROPPED = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Characters CommonMark/GFM give a meaning inline or in a table row: backslash-escaped. */
const MD_PUNCTUATION = /[\\`*_{}[\]()#!|~$^]/g;
/** HTML-significant characters: entities (GitHub renders them as the character, never as markup). */
const MD_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Untrusted text as inert inline Markdown, for a GitHub (GFM) table cell or running text: it
 * renders as the same characters and never as HTML, a Markdown link or image, emphasis, math, or
 * an extra table cell. (GitHub may still autolink a bare `https://…` URL, an `@mention` or an
 * `#123` reference in the rendered text: plain links, never script.)
 * - line breaks become spaces (a table row is one line); tabs become spaces; other control
 *   characters, bidirectional overrides and zero-width characters are shown as `[U+202E]`;
 * - `& < > " '` become entities, so no raw `<` remains (no HTML, no autolink, no comment);
 * - `` \ ` * _ { } [ ] ( ) # ! | ~ $ ^ `` are backslash-escaped (emphasis, code spans, links,
 *   images, table pipes, strikethrough, math, footnotes);
 * - a leading `-`, `+`, `=`, or `1.`/`1)` followed by a space, is escaped, so the text cannot
 *   start a list, a thematic break or a setext underline when it happens to begin a line.
 * Do not put the result inside a code span (backslashes and entities would show there).
 */
export function escapeMarkdown(s: string): string {
  const flat = showInvisible(String(s).replace(LINE_BREAKS, ' ').replace(/\t/g, ' ').replace(MD_DROPPED, ''));
  const out = flat.replace(MD_PUNCTUATION, (c) => `\\${c}`).replace(/[&<>"']/g, (c) => MD_ENTITIES[c]!);
  return out.replace(/^(\s*)([-+=])/, '$1\\$2').replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

/**
 * A tool or case id in Markdown: a code span when it is made of the characters ids are made of
 * (letters, digits, `_ . : / @ + -`), which a code span shows as they are; otherwise (a hostile or
 * unusual id) {@link escapeMarkdown}, so nothing in it is read as markup, HTML or a table cell.
 */
export function markdownId(id: string): string {
  return /^[\w.:/@+-]+$/.test(id) ? `\`${id}\`` : escapeMarkdown(id);
}
