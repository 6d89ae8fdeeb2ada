/**
 * What the seed article's profiles (When Your Agent Has 200 Tools) with a fixed description
 * describe (`describe()`, recorded in `results.json`), as data: `static`, `deferred`,
 * `role-gating` and `namespace-routing`. They follow the article, not a harness's code, so their
 * source is the article's strategy. docs/harness-facts.md#static and #seed say the same in words.
 */
import { RUN, type Facts } from '../facts.ts';

const SEED = 'the seed article, When Your Agent Has 200 Tools';

/** `static`: every tool eager, no search. */
export const STATIC_FACTS = {
  description: {
    profile: 'static',
    exposure: 'every tool the caller may use, full definitions, every turn',
    search: null,
  },
  sources: [{ what: 'the static full list: every tool sent eagerly every turn (the baseline)', where: SEED }],
} as const satisfies Facts;

/** `deferred`; `describe()` sets the retriever's name. */
export const DEFERRED_FACTS = {
  description: {
    profile: 'deferred',
    exposure: 'pinned tools in full; a one-line catalog (id: summary) of every other tool the caller may use; meta tools search_tools and load_tool_schema',
    search: { retriever: RUN, limit: RUN, returns: 'names and one-line summaries (schemas via load_tool_schema)' },
    notPermitted: 'answered exactly like not found',
  },
  sources: [{ what: 'deferred schemas: load the name, not the whole shape; a search tool and a schema loader; not found = not permitted', where: SEED }],
} as const satisfies Facts;

/** `role-gating`; `describe()` sets the number of roles. */
export const ROLE_GATING_FACTS = {
  description: {
    profile: 'role-gating',
    exposure: "every tool the caller's role sees (its namespaces and tool patterns, and `always`), full definitions; pinned tools always; no search",
    roles: RUN,
    ungated: 'callers with no role (or no role map) see every tool their scopes allow',
  },
  sources: [{ what: 'role / context gating, static within a phase', where: SEED }],
} as const satisfies Facts;

/** `namespace-routing`; `describe()` sets the ranking depth, the calls and the opener. */
export const NAMESPACE_ROUTING_FACTS = {
  description: {
    profile: 'namespace-routing',
    exposure:
      'pinned tools in full; the namespace list (name: first line of description) and open_namespace; the opened namespace expanded: every tool of it the caller may use, full definitions',
    route:
      'the model opens 1 namespace per request (one model call), emulated by the namespace BM25 of the namespace retriever over the namespaces the caller has a tool in; none when no tool of it matches above the floor',
    ranking: RUN,
    query: 'raw: the model reads the user request to pick the namespace',
    calls: RUN,
    search: RUN,
  },
  sources: [
    {
      what: 'hierarchical namespace routing: domain-level meta tools that expand into their namespace on demand, one extra round trip per namespace opened',
      where: SEED,
    },
  ],
} as const satisfies Facts;
