/**
 * A real HTTP server on 127.0.0.1 that speaks Backpack's retrieval-service protocol
 * (schemas/retrieval-service.schema.json) with Backpack's own BM25 behind it: `POST /index` takes
 * the catalog, `POST /search` ranks. Every request body is checked against the protocol's schema.
 * `misbehave` makes it break the protocol on purpose (unknown ids, unsorted or too many hits, hits
 * outside the caller's scopes), for the tests of what Backpack counts and enforces.
 */
import { listenLocal } from './listen.ts';
import { createServer } from 'node:http';
import type { Catalog, Tool } from '../../src/catalog/types.ts';
import { createRetriever } from '../../src/retrievers/registry.ts';
import { RETRIEVAL_SERVICE_SCHEMA, type SearchRequestBody, type WireTool } from '../../src/retrievers/http/protocol.ts';
import type { Retriever } from '../../src/retrievers/types.ts';
import { ajv2020Class } from '../../src/util/ajv.ts';

export type Misbehaviour = 'unknown-ids' | 'unsorted' | 'over-k' | 'out-of-scope' | 'no-hits-array';

export interface RetrievalServer {
  origin: string;
  searches: number;
  indexed: number;
  /** Request bodies that did not match the protocol's schema (should stay empty). */
  invalid: string[];
  close(): Promise<void>;
}

export async function startRetrievalServer(opts: { misbehave?: Misbehaviour[]; service?: { name: string; version: string } } = {}): Promise<RetrievalServer> {
  const ajv = new (ajv2020Class())({ strict: false });
  ajv.addSchema(RETRIEVAL_SERVICE_SCHEMA as object, 'protocol');
  const validSearch = ajv.getSchema('protocol#/$defs/searchRequest')!;
  const validIndex = ajv.getSchema('protocol#/$defs/indexRequest')!;
  const bad = new Set(opts.misbehave ?? []);
  let bm25: Retriever | null = null;
  let tools: WireTool[] = [];
  const state: RetrievalServer = { origin: '', searches: 0, indexed: 0, invalid: [], close: async () => {} };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => void (raw += c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(raw) as unknown;
        const send = (x: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(x));
        if (req.url === '/index') {
          if (!validIndex(body)) state.invalid.push(ajv.errorsText(validIndex.errors));
          tools = (body as { tools: WireTool[] }).tools;
          const catalog = { tools: tools.map((t) => ({ ...t, pinned: false }) as unknown as Tool), skills: [] } as unknown as Catalog;
          bm25 = createRetriever('bm25');
          await bm25.index(catalog);
          state.indexed++;
          send({ ok: true, ...(opts.service ? { service: opts.service } : {}) });
          return;
        }
        if (!validSearch(body)) state.invalid.push(ajv.errorsText(validSearch.errors));
        const q = body as SearchRequestBody;
        state.searches++;
        if (bm25 === null) {
          res.writeHead(409).end('{"error":"not indexed"}');
          return;
        }
        let allowed: Uint8Array | undefined;
        if (q.allowedTools !== null) {
          const ok = new Set(q.allowedTools);
          allowed = Uint8Array.from(tools, (t) => (ok.has(t.id) ? 1 : 0));
        }
        let hits = await bm25.search(q.request, { k: q.k, ...(allowed ? { allowed } : {}) });
        if (bad.has('no-hits-array')) return send({ results: hits });
        if (bad.has('out-of-scope') && allowed) {
          const outside = tools.find((_, i) => allowed![i] === 0);
          if (outside) hits = [{ id: outside.id, score: 1e6 }, ...hits];
        }
        if (bad.has('unknown-ids')) hits = [{ id: 'no_such_tool', score: 1e6 }, ...hits];
        if (bad.has('over-k'))
          hits = [
            ...hits,
            ...tools
              .filter((t) => !hits.some((h) => h.id === t.id))
              .slice(0, 3)
              .map((t) => ({ id: t.id, score: 0.0001 })),
          ];
        if (bad.has('unsorted')) hits = [...hits].reverse();
        send({ hits });
      })().catch((e: Error) => res.writeHead(500).end(JSON.stringify({ error: e.message })));
    });
  });
  const listening = await listenLocal(server);
  state.origin = listening.origin;
  state.close = listening.close;
  return state;
}
