/**
 * Codex's world-state `<tools>` fragment: the deferred tool namespaces, advertised to the model in
 * a developer message, within a byte budget that reserves every namespace name before any
 * description.
 *
 * Ported from openai/codex `codex-rs/core/src/context/world_state/tools.rs` (`ToolsState::new`,
 * `render_namespace_groups`) and `tools_budget.rs` (`truncate_namespace_rows`,
 * `calculate_namespace_row_truncation`), read at openai/codex @8f195c93 (the upstream path is
 * inferred from `#[path]` attributes). Only the first snapshot is rendered (heading
 * `Deferred tool namespaces:`): an evaluation case is one turn, so the `Added…`/`Removed…` diffs
 * of later turns never arise.
 */
import { cutToBytes, utf8Bytes } from '../../util/unicode.ts';
import { compareCodePoints } from '../../util/py-strings.ts';

/** The whole fragment, `<tools>` and `</tools>` included. */
export const MAX_RENDERED_FRAGMENT_BYTES = 4 * 1024;
/** A namespace description is cut to this many characters (code points), `...` included. */
export const MAX_NAMESPACE_DESCRIPTION_CHARS = 250;
/** Bytes held back per non-empty group for the `... N additional namespaces omitted.` line, charged only when names overflow. */
export const OMITTED_LINE_RESERVE_BYTES = 64;
export const DESCRIPTION_TRUNCATION_SUFFIX = '...';
export const TOOLS_OPEN_TAG = '<tools>';
export const TOOLS_CLOSE_TAG = '</tools>';
export const DEFERRED_NAMESPACES_HEADING = 'Deferred tool namespaces';

/** One deferred namespace: its name and its (raw) description. */
export interface NamespaceRow {
  name: string;
  description: string;
}

/**
 * A description as `ToolsState::new` keeps it: the first line, trimmed, and when longer than 250
 * characters cut to 247 characters + `...`.
 */
export function normalizeNamespaceDescription(description: string): string {
  const nl = description.indexOf('\n');
  let line = nl < 0 ? description : description.slice(0, nl);
  if (line.endsWith('\r')) line = line.slice(0, -1); // Rust's `lines()` strips a trailing \r
  const chars = Array.from(line.trim());
  if (chars.length <= MAX_NAMESPACE_DESCRIPTION_CHARS) return chars.join('');
  return chars.slice(0, MAX_NAMESPACE_DESCRIPTION_CHARS - DESCRIPTION_TRUNCATION_SUFFIX.length).join('') + DESCRIPTION_TRUNCATION_SUFFIX;
}

/**
 * `calculate_namespace_row_truncation`: how many description bytes each row keeps, `null` for an
 * omitted row (`0` = the name only).
 * 1. Every `- name\n` is reserved first. If the names alone exceed `byteBudget`, names are kept in
 *    order while they fit in `byteBudget − omissionReserveBytes` (a name that does not fit is
 *    skipped, later shorter ones may still fit) and no description is kept.
 * 2. Else, if every non-empty `: description` fits in what is left, all are kept whole.
 * 3. Else the rest is handed out one character at a time, round-robin over the rows with a
 *    description, in order (the first character also pays for `: `); a row leaves the queue for
 *    good when its next character does not fit.
 */
export function namespaceRowTruncation(rows: readonly NamespaceRow[], byteBudget: number, omissionReserveBytes: number): (number | null)[] {
  const nameBytes = rows.map((r) => 2 + utf8Bytes(r.name) + 1);
  const totalNameBytes = nameBytes.reduce((a, b) => a + b, 0);
  if (totalNameBytes > byteBudget) {
    let remaining = Math.max(0, byteBudget - omissionReserveBytes);
    return nameBytes.map((b) => {
      if (b <= remaining) {
        remaining -= b;
        return 0;
      }
      return null;
    });
  }
  let remaining = byteBudget - totalNameBytes;
  const descBytes = rows.map((r) => utf8Bytes(r.description));
  const totalDescriptionBytes = rows.reduce((a, r, i) => (r.description === '' ? a : a + 2 + descBytes[i]!), 0);
  if (totalDescriptionBytes <= remaining) return descBytes.slice();

  const retained: number[] = rows.map(() => 0);
  if (remaining === 0) return retained;
  // The queue: row index and the code points of its description still to hand out.
  const queue: { row: number; chars: string[]; next: number; at: number }[] = [];
  rows.forEach((r, row) => {
    if (r.description !== '') queue.push({ row, chars: Array.from(r.description), next: 0, at: 0 });
  });
  for (let head = 0; head < queue.length; head++) {
    const q = queue[head]!;
    if (q.next >= q.chars.length) continue;
    const chBytes = utf8Bytes(q.chars[q.next]!);
    const extra = chBytes + (q.next === 0 ? 2 : 0);
    if (extra <= remaining) {
      remaining -= extra;
      q.at += chBytes;
      q.next++;
      retained[q.row] = q.at;
      queue.push(q);
    }
  }
  return retained;
}

/**
 * `truncate_namespace_rows`: each row rendered as `- name\n`, `- name: description\n` or
 * `- name: prefix...\n` (the `...` is paid from the row's kept bytes, the prefix cut at a character
 * boundary; a row that kept fewer than 3 bytes shows its name only), or `null` when omitted.
 */
export function truncateNamespaceRows(rows: readonly NamespaceRow[], byteBudget: number, omissionReserveBytes: number): (string | null)[] {
  const kept = namespaceRowTruncation(rows, byteBudget, omissionReserveBytes);
  return rows.map(({ name, description }, i) => {
    const k = kept[i]!;
    if (k === null) return null;
    if (k === 0) return `- ${name}\n`;
    if (k === utf8Bytes(description)) return `- ${name}: ${description}\n`;
    if (k < DESCRIPTION_TRUNCATION_SUFFIX.length) return `- ${name}\n`;
    return `- ${name}: ${cutToBytes(description, k - DESCRIPTION_TRUNCATION_SUFFIX.length)}${DESCRIPTION_TRUNCATION_SUFFIX}\n`;
  });
}

/**
 * The first-snapshot `<tools>` fragment for `rows`, within `budget` bytes (tags included), exactly
 * as Codex renders it:
 *
 *     <tools>\nDeferred tool namespaces:\n- a: first line of a's description\n- b\n… </tools>
 *
 * Rows are de-duplicated by name (the first non-blank description wins, as
 * `deferred_tool_namespaces` does), their descriptions normalised
 * ({@link normalizeNamespaceDescription}) and sorted by name (BTreeMap order); then the budget
 * left after the tags, the leading `\n` and the heading is shared by {@link truncateNamespaceRows},
 * with {@link OMITTED_LINE_RESERVE_BYTES} held back, and omitted rows are counted in a
 * `... N additional namespaces omitted.` line. No rows → `''` (Codex renders no fragment).
 */
export function renderNamespaceFragment(rows: readonly NamespaceRow[], budget: number = MAX_RENDERED_FRAGMENT_BYTES): string {
  const byName = new Map<string, string>();
  for (const { name, description } of rows) {
    const existing = byName.get(name);
    if (existing === undefined || existing.trim() === '') byName.set(name, description.trim() === '' ? (existing ?? '') : description);
  }
  if (byName.size === 0) return '';
  const sorted: NamespaceRow[] = [...byName]
    .map(([name, description]) => ({ name, description: normalizeNamespaceDescription(description) }))
    .sort((a, b) => compareCodePoints(a.name, b.name));

  const bodyBudget = Math.max(0, budget - utf8Bytes(TOOLS_OPEN_TAG) - utf8Bytes(TOOLS_CLOSE_TAG));
  const fixedBytes = 1 + utf8Bytes(DEFERRED_NAMESPACES_HEADING) + 2;
  const entryBudget = Math.max(0, bodyBudget - fixedBytes);
  const entries = truncateNamespaceRows(sorted, entryBudget, OMITTED_LINE_RESERVE_BYTES);
  let body = `\n${DEFERRED_NAMESPACES_HEADING}:\n`;
  let omitted = 0;
  for (const e of entries) {
    if (e === null) omitted++;
    else body += e;
  }
  if (omitted > 0) body += `... ${omitted} additional namespaces omitted.\n`;
  return `${TOOLS_OPEN_TAG}${body}${TOOLS_CLOSE_TAG}`;
}
