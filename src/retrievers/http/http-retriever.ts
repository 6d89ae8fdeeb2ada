/**
 * A user's tool-search service as a retriever (`--http-retriever NAME=URL`, or `httpRetrievers` in
 * the config file): every search is a POST of the request, k, the caller's scopes and the ids of
 * the tools it may see (`protocol.ts`); the answer's ranked `{id, score}` hits come back as the
 * retriever's hits. With `indexUrl`, the catalog is POSTed once before any search.
 *
 * Backpack does not trust the answer: hits naming no tool of the catalog and repeated ids are
 * dropped, an answer that is not best first is sorted again (score descending, then id), one with
 * more than k hits is cut to k, and every hit is handed to the policy layer, which withholds a tool
 * outside the caller's scopes (a scope leak). Each is counted (`describe().answers`) and reported as
 * a warning of the run. A malformed answer (not JSON, no `hits` array, a hit without a string id or
 * a finite score) ends the run with exit 2 naming the service.
 *
 * The searches of each block of upcoming cases are sent ahead, `concurrency` at a time
 * (`SearchPrefetching`); a search then finds its answer waiting when it asks with the same request
 * and context, and asks the service itself otherwise. Either way the same body gets the same
 * answer, so results do not depend on the concurrency.
 */
import type { Catalog } from '../../catalog/types.ts';
import { InputError } from '../../util/errors.ts';
import { sha256 } from '../../util/hash.ts';
import { EndpointError, type HttpSettings, mapLimit, postJson, postJsonText } from '../../util/http-json.ts';
import { maskCredentials } from '../../util/redact.ts';
import { compareHits } from '../rank.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../types.ts';
import { type IndexRequestBody, PROTOCOL, type ProtocolCounters, type SearchRequestBody, type WireTool } from './protocol.ts';

/** How one retrieval service is called (a `--http-retriever` flag, or an entry of `httpRetrievers` in the config file). */
export interface HttpRetrieverSpec {
  name: string;
  /** Searches are POSTed here. */
  url: string;
  /** When set, the catalog is POSTed here once before any search. */
  indexUrl?: string;
  /** Extra headers; `${VAR}` in a value is read from the environment when the run starts (values are never recorded or printed). */
  headers?: Record<string, string>;
  /** Seconds one request may take. */
  timeoutSeconds: number;
  /** Searches in flight at once. */
  concurrency: number;
  /** Retries of a request that failed in a way that may pass. */
  retries: number;
  /** First backoff between retries, milliseconds (tests make it short). */
  backoffMs?: number;
}

export const HTTP_RETRIEVER_DEFAULTS = Object.freeze({ timeoutSeconds: 30, concurrency: 4, retries: 3 });

/** Expand `${VAR}` in header values from `env`; a variable that is not set is an error naming the header. */
export function expandHeaders(spec: HttpRetrieverSpec, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [header, value] of Object.entries(spec.headers ?? {})) {
    out[header] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => {
      const got = env[v];
      if (got === undefined) throw new InputError(`http retriever ${spec.name}: header ${header} uses \${${v}}, which is not set in the environment`);
      return got;
    });
  }
  return out;
}

export class HttpRetriever implements Retriever, Describable {
  readonly name: string;
  private readonly http: HttpSettings;
  private ids: string[] = [];
  private position = new Map<string, number>();
  /** Allowed ids per mask (masks are shared by every policy over a catalog). */
  private readonly allowedIds = new WeakMap<Uint8Array, string[]>();
  /** Answers to searches sent ahead, by request body. */
  private readonly ahead = new Map<string, unknown>();
  private service: { name?: string; version?: string } | undefined;
  private readonly counters: ProtocolCounters = { searches: 0, unknownIds: 0, repeatedIds: 0, unsorted: 0, overK: 0, outOfScope: 0 };
  private readonly traffic = { requests: 0, retries: 0 };

  constructor(
    name: string,
    private readonly spec: HttpRetrieverSpec,
  ) {
    this.name = name;
    this.http = {
      timeoutMs: spec.timeoutSeconds * 1000,
      retries: spec.retries,
      headers: expandHeaders(spec),
      ...(spec.backoffMs !== undefined ? { backoffMs: spec.backoffMs } : {}),
      onRetry: () => void this.traffic.retries++,
    };
  }

  async index(catalog: Catalog): Promise<void> {
    this.ids = catalog.tools.map((t) => t.id);
    this.position = new Map(this.ids.map((id, i) => [id, i]));
    this.ahead.clear();
    if (this.spec.indexUrl === undefined) return;
    const tools = catalog.tools.map(
      (t): WireTool => ({
        id: t.id,
        name: t.name,
        namespace: t.namespace,
        source: t.source,
        ...(t.title !== undefined ? { title: t.title } : {}),
        summary: t.summary,
        description: t.description,
        inputSchema: t.inputSchema,
        examples: t.examples,
        scopes: t.scopes,
      }),
    );
    const body: IndexRequestBody = { protocol: PROTOCOL, catalogSha256: sha256(JSON.stringify(tools)), tools };
    this.traffic.requests++;
    const answer = await postJson(this.spec.indexUrl, body, this.http);
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
      throw new EndpointError(this.spec.indexUrl, `the index answer is not a JSON object`);
    this.noteService((answer as { service?: unknown }).service);
  }

  private noteService(s: unknown): void {
    if (s === null || typeof s !== 'object') return;
    const { name, version } = s as { name?: unknown; version?: unknown };
    this.service = { ...(typeof name === 'string' ? { name } : {}), ...(typeof version === 'string' ? { version } : {}) };
  }

  private body(request: string, ctx: SearchContext): string {
    const body: SearchRequestBody = {
      protocol: PROTOCOL,
      request,
      k: Math.max(1, Math.floor(ctx.k)),
      callerScopes: ctx.callerScopes ? [...ctx.callerScopes] : null,
      role: ctx.role ?? null,
      allowedTools: ctx.allowed ? this.idsOf(ctx.allowed) : null,
      session: ctx.session ? { id: ctx.session.id, turn: ctx.session.turn } : null,
    };
    return JSON.stringify(body);
  }

  private idsOf(mask: Uint8Array): string[] {
    let ids = this.allowedIds.get(mask);
    if (ids === undefined) {
      ids = [];
      for (let i = 0; i < this.ids.length; i++) if (mask[i] === 1) ids.push(this.ids[i]!);
      this.allowedIds.set(mask, ids);
    }
    return ids;
  }

  private send(body: string): Promise<unknown> {
    this.traffic.requests++;
    return postJsonText(this.spec.url, body, this.http);
  }

  /** Send the searches of upcoming cases ahead, `concurrency` at a time (see the module comment). */
  async prefetchSearches(items: ReadonlyArray<{ request: string; context: SearchContext }>): Promise<void> {
    this.ahead.clear(); // answers of the last block no search asked for (a sticky session kept its set)
    const todo = [...new Set(items.filter((x) => Math.floor(x.context.k) > 0).map((x) => this.body(x.request, x.context)))].filter((b) => !this.ahead.has(b));
    await mapLimit(todo, this.spec.concurrency, async (b) => {
      this.ahead.set(b, await this.send(b));
    });
  }

  async search(request: string, ctx: SearchContext): Promise<Hit[]> {
    const k = Math.floor(ctx.k);
    if (!(k > 0) || this.ids.length === 0) return [];
    const body = this.body(request, ctx);
    const waiting = this.ahead.has(body);
    const answer = waiting ? this.ahead.get(body) : await this.send(body);
    this.ahead.delete(body);
    this.counters.searches++;
    return this.read(answer, k, ctx.allowed);
  }

  /** The answer's hits, checked (see the module comment). */
  private read(answer: unknown, k: number, allowed: Uint8Array | undefined): Hit[] {
    const hits = (answer as { hits?: unknown } | null)?.hits;
    if (answer === null || typeof answer !== 'object' || !Array.isArray(hits)) throw new EndpointError(this.spec.url, 'the answer has no "hits" array');
    this.noteService((answer as { service?: unknown }).service);
    const seen = new Set<string>();
    const kept: Hit[] = [];
    hits.forEach((h: unknown, i) => {
      const { id, score } = (h ?? {}) as { id?: unknown; score?: unknown };
      if (typeof id !== 'string' || typeof score !== 'number' || !Number.isFinite(score))
        throw new EndpointError(this.spec.url, `hits[${i}] is not {"id": string, "score": finite number}: ${JSON.stringify(h)?.slice(0, 120)}`);
      if (!this.position.has(id)) {
        this.counters.unknownIds++;
        return;
      }
      if (seen.has(id)) {
        this.counters.repeatedIds++;
        return;
      }
      seen.add(id);
      kept.push({ id, score });
    });
    if (kept.some((h, i) => i > 0 && compareHits(kept[i - 1]!, h) > 0)) {
      this.counters.unsorted++;
      kept.sort(compareHits);
    }
    if (kept.length > k) {
      this.counters.overK++;
      kept.length = k;
    }
    if (allowed) for (const h of kept) if (allowed[this.position.get(h.id)!] !== 1) this.counters.outOfScope++;
    return kept;
  }

  describe(): Record<string, unknown> {
    const s = this.spec;
    return {
      retriever: 'http',
      name: this.name,
      protocol: PROTOCOL,
      url: maskCredentials(s.url),
      ...(s.indexUrl !== undefined ? { indexUrl: maskCredentials(s.indexUrl) } : {}),
      ...(s.headers && Object.keys(s.headers).length ? { headers: Object.keys(s.headers).sort() } : {}),
      ...(this.service ? { service: this.service } : {}),
      answers: { ...this.counters },
      score: "the service's own scale; a floor is on it",
    };
  }

  /** Requests made and retried (they vary run to run: latency counters, not figures). */
  stats(): { requests: number; retries: number } {
    return { ...this.traffic };
  }

  /** One line per kind of answer outside the protocol, for the run's warnings. */
  warnings(): string[] {
    const c = this.counters;
    const where = `http retriever ${this.name} (${maskCredentials(this.spec.url)})`;
    const out: string[] = [];
    const of = `of ${c.searches} answers`;
    if (c.unknownIds) out.push(`${where}: ${c.unknownIds} hits named tools the catalog does not have (dropped)`);
    if (c.repeatedIds) out.push(`${where}: ${c.repeatedIds} hits repeated a tool of the same answer (dropped)`);
    if (c.unsorted) out.push(`${where}: ${c.unsorted} ${of} were not best first (sorted again: score descending, then id)`);
    if (c.overK) out.push(`${where}: ${c.overK} ${of} held more than k hits (cut to k)`);
    if (c.outOfScope) out.push(`${where}: ${c.outOfScope} hits were outside the caller's scopes (withheld: scope leaks)`);
    return out;
  }
}
