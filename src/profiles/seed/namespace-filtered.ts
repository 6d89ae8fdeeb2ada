/**
 * `namespace-filtered`: namespace routing done by the harness, without the model (the former
 * `namespace-routing`): the namespaces are advertised (name and first line of description); the
 * `namespace` retriever opens the best 3 for the request and sends the 5 best tools inside them in
 * full. No model call opens anything, so it is retrieval filtered by namespace, not the seed's
 * routing (that is `namespace-routing`).
 */
import { createNamespace } from '../../retrievers/namespace.ts';
import { RetrievalProfile } from './retrieval.ts';

export const NAMESPACE_FILTERED_LIMIT = 5;

export function createNamespaceFiltered(name: string): RetrievalProfile {
  return new RetrievalProfile(name, createNamespace('namespace'), {
    label: 'namespace-filtered',
    limit: NAMESPACE_FILTERED_LIMIT,
    sticky: false,
    form: 'schemas',
    advertiseNamespaces: true,
    notes: { route: 'harness-side: the namespace retriever opens the top 3 namespaces for the request (no model call)' },
  });
}
