/**
 * `gated-sticky-deferred`: the seed's recommended order for ~60–200 tools and its closing advice,
 * "gate, then retrieve, then defer" (When Your Agent Has 200 Tools):
 * 1. gate: only the tools the caller's role (or phase) sees are searchable — `roleScope`, as
 *    `role-gating` uses it — on top of the caller's scopes, before ranking, with no escape hatch
 *    (a caller with no role, or a dataset with no role map, is gated by its scopes alone);
 * 2. retrieve: `embed` ranks them (the seed's semantic retrieval), top `SEMANTIC_LIMIT` (8) at or
 *    above the floor (default `SEMANTIC_DEFAULT_FLOOR`, the same cosine scale as
 *    `semantic-retrieval`: gating only removes candidates, so the top score, and with it the
 *    no-tool false-positive rate, can only drop; `--floor auto` on the same calibration cases,
 *    small-11 train, picks the same 0.7028 for this profile), sticky per task (re-retrieve when the
 *    request scores below the floor against every carried tool);
 * 3. defer: the hits reach the model as deferred entries (`- id: one-line summary`); the model
 *    fetches the definition of the tool it calls with `load_tool_schema` (one model call per tool,
 *    then the call). Pinned tools are in full from the start.
 * The harness retrieves with the user's request (no search call, query style `raw`).
 */
import type { Retriever } from '../../retrievers/types.ts';
import type { ProfileOptions } from '../types.ts';
import type { RetrievalProfile } from './retrieval.ts';
import { gatedDeferredRetrieval, SEMANTIC_FLOOR_SOURCE, seedEmbed } from './semantic-retrieval.ts';

/** `inner` replaces the embed retriever under the gate (tests). */
export function createGatedStickyDeferred(name: string, options: ProfileOptions = {}, inner: Retriever = seedEmbed(options)): RetrievalProfile {
  return gatedDeferredRetrieval(name, 'gate+embed', inner, options, {
    label: 'gated-sticky-deferred',
    sticky: true,
    advertiseNamespaces: false,
    notes: {
      order: 'role gate → sticky semantic retrieval with a floor → deferred schemas',
      floor: SEMANTIC_FLOOR_SOURCE,
      stickyRule: 'keep the session set; re-retrieve when the request scores below the floor against every carried tool',
      roles: options.roles ? Object.keys(options.roles.roles).length : 0,
    },
  });
}
