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
export { RoleGatingProfile } from './role-gating.ts';
export { RetrievalProfile, type RetrievalSettings } from './retrieval.ts';
export { namespaceList, NamespaceOpener, OPEN_NAMESPACE } from './namespaces.ts';
export { RoleGatedRetriever } from './role-gated.ts';
export { createSemanticRetrieval, SEMANTIC_DEFAULT_FLOOR, SEMANTIC_LIMIT } from './semantic-retrieval.ts';
export { createNamespaceFiltered } from './namespace-filtered.ts';
export { createNamespaceRouting, NamespaceRoutingProfile } from './namespace-routing.ts';
export { createGatedStickyDeferred } from './gated-sticky-deferred.ts';
export { createRoutedDeferred } from './routed-deferred.ts';
export { StaticProfile } from './static.ts';
export { DeferredProfile, DEFERRED_SEARCH_LIMIT, LOAD_TOOL_SCHEMA, SEARCH_TOOLS, unavailableAnswer } from './deferred.ts';
export { DEFERRED_FACTS, NAMESPACE_ROUTING_FACTS, ROLE_GATING_FACTS, STATIC_FACTS } from './facts.ts';
