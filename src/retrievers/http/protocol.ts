/**
 * The retrieval-service protocol (`--http-retriever NAME=URL`): what Backpack POSTs to a user's
 * tool-search service and what it reads back, as one JSON Schema (2020-12) that `npm run docs:gen`
 * writes to `schemas/retrieval-service.schema.json` and docs/own-strategy.md prints.
 *
 * - Search: `POST <url>` with a {@link SearchRequestBody}; the answer is `{"hits": [{"id", "score"}]}`,
 *   best first, at most `k` hits, every id a tool of the catalog the caller may use.
 * - Index (optional, `indexUrl` in the configuration): `POST <indexUrl>` once before any search with
 *   the catalog ({@link IndexRequestBody}); any JSON object answers, `service` in it is recorded.
 * Either answer may carry `service: {name, version}`, recorded in the results.
 */

export const PROTOCOL = 'backpack-retrieval/1';

/** One tool as the index request sends it: what a search service needs to index it. */
export interface WireTool {
  id: string;
  name: string;
  namespace: string;
  source: string;
  title?: string;
  summary: string;
  description: string;
  inputSchema: unknown;
  examples: string[];
  scopes: string[];
}

export interface SearchRequestBody {
  protocol: typeof PROTOCOL;
  /** The query: the case's request (or the keyword query of `--query-style keywords`). */
  request: string;
  /** Return at most this many hits. */
  k: number;
  /** The caller's scopes; null = unrestricted. */
  callerScopes: string[] | null;
  role: string | null;
  /** The ids of the tools the caller may see, in catalog order; null = every tool. A hit outside them is withheld and counted. */
  allowedTools: string[] | null;
  session: { id: string; turn: number } | null;
}

export interface IndexRequestBody {
  protocol: typeof PROTOCOL;
  catalogSha256: string | null;
  tools: WireTool[];
}

/** The JSON Schema of the protocol: requests and answers, each under `$defs`. */
export const RETRIEVAL_SERVICE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://backpack.dev/schemas/retrieval-service-v1.json',
  title: 'Backpack retrieval-service protocol',
  description:
    'What `backpack eval --http-retriever NAME=URL` sends to a tool-search service and reads back (docs/own-strategy.md). Requests and answers are JSON over HTTP POST.',
  $defs: {
    service: {
      type: 'object',
      description: 'Who answered: recorded in the results beside the URL.',
      properties: { name: { type: 'string' }, version: { type: 'string' } },
    },
    searchRequest: {
      type: 'object',
      description: 'POST <url>: one request to rank tools for.',
      required: ['protocol', 'request', 'k', 'callerScopes', 'role', 'allowedTools', 'session'],
      additionalProperties: false,
      properties: {
        protocol: { const: PROTOCOL },
        request: { type: 'string', description: 'The query (the case request, or a keyword query with --query-style keywords).' },
        k: { type: 'integer', minimum: 1, description: 'Return at most this many hits.' },
        callerScopes: { type: ['array', 'null'], items: { type: 'string' }, description: "The caller's scopes; null: unrestricted." },
        role: { type: ['string', 'null'], description: "The caller's role or task phase, when the case has one." },
        allowedTools: {
          type: ['array', 'null'],
          items: { type: 'string' },
          description: 'Ids of the tools the caller may see, in catalog order; null: every tool. Backpack withholds (and counts) any hit outside them.',
        },
        session: {
          type: ['object', 'null'],
          required: ['id', 'turn'],
          properties: { id: { type: 'string' }, turn: { type: 'integer' } },
          description: 'The session and turn of a multi-turn case.',
        },
      },
    },
    searchResponse: {
      type: 'object',
      description: 'The answer to a search: hits best first (score descending, ties by id), at most k, each a tool of the catalog the caller may see.',
      required: ['hits'],
      properties: {
        hits: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'score'],
            properties: { id: { type: 'string' }, score: { type: 'number', description: "The service's own scale; a floor is on it." } },
          },
        },
        service: { $ref: '#/$defs/service' },
      },
    },
    indexRequest: {
      type: 'object',
      description: 'POST <indexUrl>, once before any search (only when indexUrl is configured): the catalog.',
      required: ['protocol', 'catalogSha256', 'tools'],
      additionalProperties: false,
      properties: {
        protocol: { const: PROTOCOL },
        catalogSha256: { type: ['string', 'null'], description: 'sha256 of the JSON of `tools` as sent: a service may keep its index across runs by it.' },
        tools: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'name', 'namespace', 'source', 'summary', 'description', 'inputSchema', 'examples', 'scopes'],
            properties: {
              id: { type: 'string' },
              name: { type: 'string' },
              namespace: { type: 'string' },
              source: { type: 'string' },
              title: { type: 'string' },
              summary: { type: 'string' },
              description: { type: 'string', description: "The server's description (untrusted text)." },
              inputSchema: { type: 'object' },
              examples: { type: 'array', items: { type: 'string' } },
              scopes: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
    indexResponse: {
      type: 'object',
      description: 'Any JSON object; `service` is recorded.',
      properties: { service: { $ref: '#/$defs/service' } },
    },
  },
} as const;

/** The counters of what a service answered outside the protocol (all 0 for a service that keeps it). */
export interface ProtocolCounters {
  /** Searches sent. */
  searches: number;
  /** Hits naming a tool the catalog does not have (dropped). */
  unknownIds: number;
  /** Hits naming a tool twice in one answer (the later ones dropped). */
  repeatedIds: number;
  /** Answers whose hits were not best first (sorted again). */
  unsorted: number;
  /** Answers with more than k hits (cut to k). */
  overK: number;
  /** Hits outside the caller's scopes (withheld by the policy layer: scope leaks). */
  outOfScope: number;
}
