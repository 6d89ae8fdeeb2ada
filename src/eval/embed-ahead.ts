/**
 * A run with an endpoint model (`--model openai:…`, `ollama:…`): what it will send is counted and
 * printed before the first request, refused when it passes `--max-embed-tokens`, and embedded
 * ahead into the vector cache (batched, several requests in flight), so the strategies, on any
 * thread, find every vector cached and a second run sends nothing.
 *
 * What is counted: the index texts of every embedding retriever inside the strategies that use the
 * model (`embed`, the hybrids, the profiles that embed: their recipes' texts of every tool), and
 * the queries they will search with (each tool-labelled case's and calibration case's request, in
 * the strategy's query style), less what the vector cache holds. Tokens are o200k counts (OpenAI's
 * tokenizer; for another provider's model an estimate). A search the plan cannot foresee (none with
 * the built-in strategies) is embedded when it happens, within the same budget.
 */
import { queryFor } from '../profiles/keyword-query.ts';
import { createProfile, profileCapabilities } from '../profiles/registry.ts';
import { EmbedRetriever } from '../retrievers/embed/index.ts';
import { createRetriever, retrieverCapabilities } from '../retrievers/registry.ts';
import { isComposite, type RetrieverOptions } from '../retrievers/types.ts';
import { TOKEN_COUNTERS } from '../tokens/count.ts';
import { EndpointError } from '../util/http-json.ts';
import { setting } from '../util/errors.ts';
import type { CalibrationSet } from './calibrate.ts';
import type { EvalInput } from './input.ts';
import type { EvalConfig } from './results.ts';
import type { SearchCase } from './search.ts';

/** What a run sends to its endpoint, counted before the first request. */
export interface EmbedPlan {
  /** The model as given (`openai:text-embedding-3-small`). */
  model: string;
  /** Where requests go (credentials masked). */
  endpoint: string;
  /** Distinct texts the run embeds, and of them those the vector cache holds. */
  texts: number;
  cached: number;
  /** Texts to send, and their tokens (o200k). */
  toSend: number;
  tokens: number;
}

/** Every embedding retriever inside `x` (a retriever or a profile): itself, its children, a profile's searcher. */
function embeddersOf(x: object, out: EmbedRetriever[] = []): EmbedRetriever[] {
  if (x instanceof EmbedRetriever) out.push(x);
  else if (isComposite(x)) for (const c of x.children) embeddersOf(c, out);
  const searcher = (x as { searcher?: () => unknown }).searcher;
  if (typeof searcher === 'function') {
    const s = searcher.call(x);
    if (s !== null && typeof s === 'object' && s !== x) embeddersOf(s, out);
  }
  return out;
}

/**
 * The endpoint run's plan: undefined unless the model is an endpoint and a strategy uses it.
 * `cases` are the scored cases (of the shard), `calibration` the calibration cases.
 */
export function planEndpointEmbedding(
  input: EvalInput,
  config: EvalConfig,
  cases: readonly SearchCase[],
  calibration: CalibrationSet | undefined,
  options: RetrieverOptions,
): { plan: EmbedPlan; embedder: EmbedRetriever; texts: string[] } | undefined {
  const shared = { ...(input.roles ? { roles: input.roles } : {}), ...options };
  const strategies: Array<{ strategy: object; style: 'raw' | 'keywords' }> = [];
  for (const name of config.retrievers)
    if (retrieverCapabilities(name).usesModel) strategies.push({ strategy: createRetriever(name, shared), style: config.queryStyle ?? 'raw' });
  for (const name of config.profiles ?? []) {
    if (!profileCapabilities(name).usesModel) continue;
    const profile = createProfile(name, { ...shared, ...(config.contextWindow !== undefined ? { contextWindow: config.contextWindow } : {}) });
    strategies.push({ strategy: profile, style: config.queryStyle ?? profile.queryStyle });
  }
  const embedders = strategies.flatMap((s) => embeddersOf(s.strategy).map((e) => ({ e, style: s.style })));
  const remote = embedders.filter((x) => x.e.endpoint !== undefined);
  if (!remote.length) return undefined;
  const embedder = remote[0]!.e;
  const labelled = [...cases, ...(calibration?.cases ?? [])].filter((c) => c.expectedTools !== undefined);
  const texts = new Set<string>();
  for (const { e, style } of remote) {
    for (const t of e.indexTexts(input.catalog)) texts.add(t);
    for (const c of labelled) {
      const q = queryFor(c.request, style);
      if (q !== '') texts.add(q);
    }
  }
  const toSend = embedder.uncachedTexts(texts);
  const tokens = toSend.reduce((n, t) => n + TOKEN_COUNTERS.o200k.count(t), 0);
  return {
    plan: {
      model: options.model ?? '',
      endpoint: embedder.endpoint!.shown,
      texts: texts.size,
      cached: texts.size - toSend.length,
      toSend: toSend.length,
      tokens,
    },
    embedder,
    texts: toSend,
  };
}

/** One line for the terminal: what will be sent, before the first request. */
export function formatEmbedPlan(p: EmbedPlan): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `embed: ${p.model} at ${p.endpoint}: ${n(p.toSend)} texts to send, ${n(p.tokens)} tokens (o200k count); ${n(p.cached)} of ${n(p.texts)} already in the vector cache`;
}

/**
 * Plan, print, check the budget, embed ahead. Refuses (exit 2, nothing sent) a plan over
 * `maxTokens`. Returns the plan (undefined when the run uses no endpoint).
 */
export async function embedAhead(
  args: {
    input: EvalInput;
    config: EvalConfig;
    cases: readonly SearchCase[];
    calibration?: CalibrationSet;
    options: RetrieverOptions;
    maxTokens?: number;
  },
  say: (line: string) => void,
  progress?: (done: number, total: number) => void,
): Promise<EmbedPlan | undefined> {
  const planned = planEndpointEmbedding(args.input, args.config, args.cases, args.calibration, args.options);
  if (planned === undefined) return undefined;
  const { plan, embedder, texts } = planned;
  say(formatEmbedPlan(plan));
  if (args.maxTokens !== undefined && plan.tokens > args.maxTokens)
    throw new EndpointError(
      plan.endpoint,
      `the run would send ${plan.tokens.toLocaleString('en-US')} tokens, more than ${setting('maxEmbedTokens')} ${args.maxTokens.toLocaleString('en-US')}: nothing was sent`,
    );
  await embedder.embedAhead(texts, progress);
  return plan;
}
