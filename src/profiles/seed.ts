/**
 * The seed article's strategies as profiles (When Your Agent Has 200 Tools), one file per strategy
 * under `./seed/`:
 * - `role-gating` (`role-gating.ts`): static within a phase, the role's tools eager, no search;
 * - `semantic-retrieval` (`semantic-retrieval.ts`): embed top 8 above a calibrated floor, in full,
 *   sticky per task with re-retrieval, pinned tools always;
 * - `namespace-routing` (`namespace-routing.ts`): the model opens one namespace, which expands in
 *   full; `namespace-filtered` (`namespace-filtered.ts`): the harness-side namespace filter;
 * - `gated-sticky-deferred` (`gated-sticky-deferred.ts`) and `routed-deferred`
 *   (`routed-deferred.ts`): the seed's recommended combinations by scale, with deferred schemas.
 * Shared: `retrieval.ts` (the harness-side retrieval exposure), `namespaces.ts` (namespace list,
 * `open_namespace`, the opener), `role-gated.ts` (the role gate before ranking).
 */
export { RoleGatingProfile } from './seed/role-gating.ts';
export { RetrievalProfile, type RetrievalSettings } from './seed/retrieval.ts';
export { namespaceList, NamespaceOpener, OPEN_NAMESPACE } from './seed/namespaces.ts';
export { RoleGatedRetriever } from './seed/role-gated.ts';
export { createSemanticRetrieval, SEMANTIC_DEFAULT_FLOOR, SEMANTIC_LIMIT } from './seed/semantic-retrieval.ts';
export { createNamespaceFiltered } from './seed/namespace-filtered.ts';
export { createNamespaceRouting, NamespaceRoutingProfile } from './seed/namespace-routing.ts';
export { createGatedStickyDeferred } from './seed/gated-sticky-deferred.ts';
export { createRoutedDeferred } from './seed/routed-deferred.ts';
