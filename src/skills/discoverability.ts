/**
 * How much of a skill listing a request can route on: for the skill cases (cases with
 * `expectedSkill`), the share whose gold skill the model sees with a description, by name only,
 * or not at all.
 */
import type { Case } from '../catalog/types.ts';
import type { SkillListing } from './listings.ts';

export interface Discoverability {
  /** Skill cases counted (cases with `expectedSkill`). */
  cases: number;
  /** Share whose gold skill is in `withDescription` (the discoverability proper); `null` with no skill cases. */
  withDescription: number | null;
  /** Share whose gold skill is listed without a description. */
  nameOnly: number | null;
  /** Share whose gold skill is not in the listing (dropped, disabled, or not in the catalog). */
  dropped: number | null;
}

/** The three shares (they sum to 1) over the skill cases of `cases`. */
export function discoverability(listing: Pick<SkillListing, 'listed' | 'withDescription'>, cases: readonly Case[]): Discoverability {
  const listed = new Set(listing.listed);
  const described = new Set(listing.withDescription);
  let n = 0;
  let withDesc = 0;
  let nameOnly = 0;
  for (const c of cases) {
    if (c.expectedSkill === undefined) continue;
    n++;
    if (described.has(c.expectedSkill)) withDesc++;
    else if (listed.has(c.expectedSkill)) nameOnly++;
  }
  if (n === 0) return { cases: 0, withDescription: null, nameOnly: null, dropped: null };
  return { cases: n, withDescription: withDesc / n, nameOnly: nameOnly / n, dropped: (n - withDesc - nameOnly) / n };
}
