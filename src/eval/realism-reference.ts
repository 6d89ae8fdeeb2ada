/**
 * The reference figures realism is held against (`data/realism-reference.json`): MetaTool's test
 * split measured by Backpack with the one surface rule, the ranges of real request sets, and the
 * windows a generated dataset must stay in (issue 30). The generator's product nicknames are the
 * alias table every dataset is measured with, so one rule reads every set the same way.
 */
import reference from './data/realism-reference.json' with { type: 'json' };
import type { RealismReference, SurfaceFigures } from '../catalog/manifest.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { SERVERS } from '../generate/vocab/servers.ts';
import { surfaceFigures } from './request-surface.ts';

export const REALISM_REFERENCE: RealismReference = reference as unknown as RealismReference;

/** Product aliases by server name (the generator's vocabulary): the one alias table of the surface rule. */
export const PRODUCT_ALIASES: ReadonlyMap<string, readonly string[]> = new Map(SERVERS.map((s) => [s.name, [s.display, ...s.aliases]]));

/** The surface figures of a dataset's cases with the shared alias table. */
export function surfaceOf(catalog: Catalog, cases: readonly Case[]): SurfaceFigures {
  return surfaceFigures(catalog, cases, PRODUCT_ALIASES);
}

/** MetaTool's test split as the reference file records it. */
export function measureMetaToolSurface(d: { catalog: Catalog; cases: readonly Case[] }): SurfaceFigures {
  return surfaceOf(d.catalog, d.cases);
}

/** Whether `value` is inside `window` (an open end is null). */
export function inWindow(value: number | null, window: readonly [number | null, number | null]): boolean {
  if (value === null) return false;
  return (window[0] === null || value >= window[0]) && (window[1] === null || value <= window[1]);
}
