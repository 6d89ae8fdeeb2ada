import { describe, expect, it } from 'vitest';
import { listingLength, listingText, positionsWhere, withListing, type CatalogListing } from './catalog-listing.ts';

describe('a catalog listing', () => {
  it('joins head, each listed piece with its newline, and tail; its length without joining', () => {
    const l: CatalogListing = { head: 'H\n', positions: Int32Array.of(2, 0), pieces: ['a', 'b', 'c\nc'], tail: 'T' };
    expect(listingText(l)).toBe('H\nc\nc\na\nT');
    expect(listingLength(l)).toBe(listingText(l).length);
    expect(listingText({ ...l, positions: new Int32Array(0) })).toBe('H\nT');
    expect(Array.from(positionsWhere(6, (p) => p % 2 === 1))).toEqual([1, 3, 5]);
  });

  it('gives the advertisement text when read, built once', () => {
    const l: CatalogListing = { head: 'H\n', positions: Int32Array.of(1), pieces: ['a', 'b'], tail: '' };
    const b = withListing({ eager: ['x'], metaTools: [] }, l);
    expect(b.advertisement).toBe('H\nb\n');
    expect(b.advertisement).toBe(b.advertisement);
    expect(b.listing).toBe(l);
    expect(b.eager).toEqual(['x']);
  });
});
