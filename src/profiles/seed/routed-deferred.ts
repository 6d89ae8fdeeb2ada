/**
 * `routed-deferred`: the seed's recommendation above ~200 tools, "retrieval plus namespace routing
 * and deferred schemas", after its first step at every scale, "gate, then retrieve, then defer"
 * (When Your Agent Has 200 Tools). The role gate comes first, as in `gated-sticky-deferred`: only
 * the tools the caller's role sees (and its scopes allow) are listed, opened or ranked. Before any
 * search the model reads the namespace list (the namespaces it has such a tool in) and has
 * `open_namespace` and `load_tool_schema`; pinned tools are in full. Per
 * request the model opens the best namespace (one model call; emulated, as in `namespace-routing`,
 * by the namespace BM25 over the namespaces the caller has a tool in); retrieval (`embed`, the
 * seed's semantic retrieval) ranks that namespace's tools the caller may use and shows the top
 * `SEMANTIC_LIMIT` (8) at or above the floor (default `SEMANTIC_DEFAULT_FLOOR`: the
 * cosine scale of `semantic-retrieval`; a namespace only removes candidates, and `--floor auto`
 * on the same calibration cases, small-11 train, picks 0.6744 for this profile) as deferred entries
 * (`- id: one-line summary`); the model loads the definition of the tool it calls
 * (`load_tool_schema`, one call per tool) and calls it. Per turn (not sticky): every request opens
 * its namespace.
 */
import type { Retriever } from '../../retrievers/types.ts';
import type { ProfileOptions } from '../types.ts';
import { NamespaceOpener } from './namespaces.ts';
import type { RetrievalProfile } from './retrieval.ts';
import { gatedDeferredRetrieval, SEMANTIC_FLOOR_SOURCE, seedEmbed } from './semantic-retrieval.ts';

/** `inner` replaces the embed retriever inside the opened namespace (tests). */
export function createRoutedDeferred(name: string, options: ProfileOptions = {}, inner: Retriever = seedEmbed(options)): RetrievalProfile {
  const opener = new NamespaceOpener('namespace+embed', inner, { m: 1 });
  return gatedDeferredRetrieval(name, 'gate+namespace+embed', opener, options, {
    label: 'routed-deferred',
    sticky: false,
    advertiseNamespaces: true,
    opener,
    notes: {
      order: 'role gate → namespace routing (the model opens 1 namespace) → semantic retrieval inside it with a floor → deferred schemas',
      roles: options.roles ? Object.keys(options.roles.roles).length : 0,
      floor: SEMANTIC_FLOOR_SOURCE,
    },
  });
}
