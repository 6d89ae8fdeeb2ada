/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI embeddings API (`POST /v1/embeddings`) and
 * Ollama's (`POST /api/embed`) with Backpack's shipped static encoder behind it, for the endpoint
 * tests. It logs every request, and plays the faults a test asks for: a status with a body and
 * headers, no answer at all, a body that is not JSON, vectors of another size, a closed connection.
 */
import { listenLocal } from './listen.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DEFAULT_MODEL_DIR } from '../../src/retrievers/embed/model.ts';
import { loadStaticEncoder } from '../../src/retrievers/embed/static-encoder.ts';

/** What the server does with one request (by its position, from 0). */
export type Fault =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'not-json' }
  | { kind: 'dims'; dims: number }
  | { kind: 'close' }
  | { kind: 'ok' };

export interface LoggedRequest {
  path: string;
  authorization: string | undefined;
  texts: number;
  at: number;
}

export interface EmbeddingServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: LoggedRequest[];
  /** Faults by request position; requests past the list are answered normally. */
  faults: Fault[];
  close(): Promise<void>;
}

export async function startEmbeddingServer(opts: { faults?: Fault[]; dims?: number } = {}): Promise<EmbeddingServer> {
  const encoder = loadStaticEncoder(DEFAULT_MODEL_DIR);
  const requests: LoggedRequest[] = [];
  const state: EmbeddingServer = { origin: '', requests, faults: opts.faults ?? [], close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => void (raw += c));
    req.on('end', () => {
      const position = requests.length;
      let body: { input?: unknown; model?: unknown };
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        res.writeHead(400).end('{"error":"bad json"}');
        return;
      }
      const texts = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, texts: texts.length, at: Date.now() });
      const fault = state.faults[position] ?? { kind: 'ok' };
      if (fault.kind === 'hang') return; // never answers
      if (fault.kind === 'close') {
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'status') {
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers }).end(fault.body ?? '{"error":{"message":"fault"}}');
        return;
      }
      if (fault.kind === 'not-json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [ {"embedding": [0.1, ');
        return;
      }
      const { data, dims } = encoder.encodeSync(texts);
      const size = fault.kind === 'dims' ? fault.dims : dims;
      const rows = texts.map((_, i) =>
        Array.from(data.subarray(i * dims, i * dims + Math.min(size, dims))).concat(new Array(Math.max(0, size - dims)).fill(0)),
      );
      const answer = req.url?.startsWith('/api/embed')
        ? { model: body.model, embeddings: rows }
        : {
            object: 'list',
            // in reverse order, as the API may: Backpack puts them back by index
            data: rows.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
            model: body.model,
            usage: { prompt_tokens: 0, total_tokens: 0 },
          };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  const listening = await listenLocal(server);
  state.origin = listening.origin;
  state.close = listening.close;
  return state;
}
