/**
 * An advertisement that lists catalog tools, one piece per tool, kept as its parts: the text before
 * the list, the listed tools' catalog positions and the text after it. The profiles whose
 * advertisement names every tool a caller may use (Claude Code's `<available-deferred-tools>`,
 * DeepSeek's code-mode SDK, the seed's deferred catalog) render each tool's piece once, at
 * `index()`; a caller's advertisement is those pieces in its mask. Joined, it is the text the model
 * reads ({@link listingText}); kept apart, the evaluation counts its tokens and the names it gives
 * once per piece instead of once per caller (a 50,000-tool catalog has hundreds of callers, each
 * with a listing of megabytes).
 */
import type { BeforeSearch } from './types.ts';

export interface CatalogListing {
  /** The text before the first piece: `''` or text ending with a newline. */
  readonly head: string;
  /** The listed tools' catalog positions, in listing order. */
  readonly positions: Int32Array;
  /**
   * Every catalog tool's piece by position, rendered once by the profile (the same array for every
   * caller). A newline follows each listed piece in the text.
   */
  readonly pieces: readonly string[];
  /** The text after the last piece's newline. */
  readonly tail: string;
}

/** The listing as the model reads it: head, each listed piece followed by a newline, tail. */
export function listingText(l: CatalogListing): string {
  const parts: string[] = [];
  for (const p of l.positions) parts.push(l.pieces[p]!);
  return `${l.head}${parts.join('\n')}${parts.length ? '\n' : ''}${l.tail}`;
}

/** Characters of {@link listingText}, without joining it. */
export function listingLength(l: CatalogListing): number {
  let n = l.head.length + l.tail.length;
  for (const p of l.positions) n += l.pieces[p]!.length + 1;
  return n;
}

/**
 * What the model sees before any search, with a listing as its advertisement: `advertisement` is
 * the joined text, built the first time it is read (an evaluation that reads `listing` never
 * builds it).
 */
export function withListing(b: Omit<BeforeSearch, 'advertisement' | 'listing'>, listing: CatalogListing): BeforeSearch {
  let text: string | undefined;
  return {
    ...b,
    listing,
    get advertisement(): string {
      text ??= listingText(listing);
      return text;
    },
  };
}

/**
 * The positions a caller's listing holds, in catalog order: those `allowed` lets through (all
 * without a mask) that `except` does not mark (pinned tools, listed elsewhere). `n`: the catalog's
 * size, when neither mask is given.
 */
export function listedPositions(allowed: Uint8Array | undefined, except: Uint8Array | undefined, n = (allowed ?? except)?.length ?? 0): Int32Array {
  const out = new Int32Array(n);
  let m = 0;
  for (let p = 0; p < n; p++) if ((allowed === undefined || allowed[p] === 1) && (except === undefined || except[p] !== 1)) out[m++] = p;
  return out.slice(0, m);
}
