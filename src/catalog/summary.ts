/**
 * What `backpack inspect` reports about a catalog and its cases: counts, the largest namespaces,
 * slice sizes, and the size distribution of tool schemas.
 */
import type { CatalogCounts, Manifest, Realism, RealismReference, SessionSurface, SliceStats, SurfaceFigures } from './manifest.ts';
import { sliceStats } from './overlap.ts';
import type { Case, Catalog, Tool } from './types.ts';

export interface Distribution {
  min: number;
  p10: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  total: number;
  /** Tools per size bucket, keyed like `<100`, `100-249`, … `>=1000`. */
  buckets: Record<string, number>;
}

export interface CatalogSummary extends CatalogCounts {
  name: string;
  bySource: Record<string, number>;
  pinnedTools: string[];
  /** The ten largest namespaces, largest first (ties by name). */
  largestNamespaces: Array<{ namespace: string; tools: number }>;
  /** Slice name → count, share and mean word overlap with the gold tools' text. */
  slices: Record<string, SliceStats>;
  noToolCases: number;
  /** Estimated tokens of each tool's definition as a provider receives it (Anthropic tools JSON). */
  schemaTokens: Distribution & { estimator: string };
  catalogSha256?: string;
  generator?: Manifest['generator'];
  seed?: number | null;
  /** The dataset's `realism.json`, when it has one (generated datasets from 1.0.1). */
  realism?: Realism;
}

/** The JSON a provider receives for one tool (Anthropic tools shape: name, description, input_schema). */
export function providerToolJson(t: Tool): string {
  return JSON.stringify({ name: t.id, description: t.description, input_schema: t.inputSchema });
}

/** Token estimate used until a real tokenizer is wired in: ceil(characters ÷ 4), as Hermes estimates. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const BUCKETS: Array<[string, number]> = [
  ['<100', 100],
  ['100-249', 250],
  ['250-499', 500],
  ['500-999', 1000],
  ['>=1000', Infinity],
];

/** Distribution of a list of numbers (nearest-rank percentiles). */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]! : 0);
  const total = sorted.reduce((a, b) => a + b, 0);
  const buckets: Record<string, number> = {};
  for (const [label] of BUCKETS) buckets[label] = 0;
  for (const v of sorted) buckets[BUCKETS.find(([, hi]) => v < hi)![0]]! += 1;
  return {
    min: sorted[0] ?? 0,
    p10: at(0.1),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? 0,
    mean: sorted.length ? Math.round((total / sorted.length) * 10) / 10 : 0,
    total,
    buckets,
  };
}

export function summarize(
  name: string,
  catalog: Catalog,
  cases: readonly Case[],
  manifest: Manifest | null = null,
  realism: Realism | null = null,
): CatalogSummary {
  const nsCounts = new Map<string, number>();
  const bySource: Record<string, number> = {};
  for (const t of catalog.tools) {
    nsCounts.set(t.namespace, (nsCounts.get(t.namespace) ?? 0) + 1);
    bySource[t.source] = (bySource[t.source] ?? 0) + 1;
  }
  const largestNamespaces = [...nsCounts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, 10)
    .map(([namespace, tools]) => ({ namespace, tools }));
  const slices = sliceStats(catalog, cases);
  return {
    name,
    tools: catalog.tools.length,
    skills: catalog.skills.length,
    cases: cases.length,
    servers: catalog.servers.length || new Set(catalog.tools.map((t) => t.server).filter(Boolean)).size,
    plugins: catalog.plugins.length || new Set(catalog.tools.map((t) => t.plugin).filter(Boolean)).size,
    namespaces: nsCounts.size,
    bySource,
    pinnedTools: catalog.tools.filter((t) => t.pinned).map((t) => t.id),
    largestNamespaces,
    slices,
    noToolCases: cases.filter((c) => c.expectedTools?.length === 0).length,
    schemaTokens: { estimator: 'chars/4 of the Anthropic tools JSON', ...distribution(catalog.tools.map((t) => estimateTokens(providerToolJson(t)))) },
    ...(manifest ? { catalogSha256: manifest.catalogSha256, generator: manifest.generator, seed: manifest.seed } : {}),
    ...(realism ? { realism } : {}),
  };
}

/** The summary as a plain-text report for the terminal. */
export function formatSummary(s: CatalogSummary): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const lines: string[] = [];
  lines.push(`${s.name}`);
  if (s.generator) lines.push(`  generator      ${s.generator.name} ${s.generator.version}, seed ${s.seed}`);
  if (s.catalogSha256) lines.push(`  catalog sha256 ${s.catalogSha256}`);
  const sources = Object.entries(s.bySource)
    .map(([k, v]) => `${k} ${n(v)}`)
    .join(', ');
  lines.push(`  tools          ${n(s.tools)}${s.tools ? ` (${sources}; pinned: ${s.pinnedTools.join(', ') || 'none'})` : ''}`);
  lines.push(`  servers        ${n(s.servers)}    plugins ${n(s.plugins)}    namespaces ${n(s.namespaces)}`);
  lines.push(`  skills         ${n(s.skills)}`);
  lines.push(`  cases          ${n(s.cases)} (no-tool ${n(s.noToolCases)})`);
  lines.push('', '  largest namespaces');
  for (const ns of s.largestNamespaces) lines.push(`    ${ns.namespace.padEnd(28)} ${n(ns.tools).padStart(7)}`);
  if (Object.keys(s.slices).length) {
    lines.push('', '  slices                        cases   share  word overlap');
    for (const [name, st] of Object.entries(s.slices)) {
      const ov = st.meanWordOverlap === null ? '     -' : st.meanWordOverlap.toFixed(3).padStart(6);
      lines.push(`    ${name.padEnd(26)} ${n(st.count).padStart(7)}  ${(st.share * 100).toFixed(1).padStart(5)}%  ${ov}`);
    }
  }
  const d = s.schemaTokens;
  lines.push('', `  tool schema size, tokens (${d.estimator})`);
  lines.push(`    min ${d.min}  p10 ${d.p10}  median ${d.p50}  p90 ${d.p90}  p99 ${d.p99}  max ${d.max}  mean ${d.mean}  all tools ${n(d.total)}`);
  lines.push(
    `    ${Object.entries(d.buckets)
      .map(([k, v]) => `${k}: ${n(v)}`)
      .join('  ')}`,
  );
  if (s.realism) lines.push('', ...formatRealism(s.realism));
  return lines.join('\n');
}

/** The realism section of `inspect` (realism.json): per slice, then padding, invented values and no-tool repeats. */
export function formatRealism(r: Realism): string[] {
  const f = (x: number | null): string => (x === null ? '-' : x.toFixed(3)).padStart(7);
  const leak = (x: number | null): string => (x === null ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(3)}`).padStart(7);
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const lines = ['  realism (realism.json)          cases distinct overlap  bm25@5  expanded    leak'];
  const row = (name: string, x: Realism['overall']): string =>
    `    ${name.padEnd(26)} ${x.cases.toLocaleString('en-US').padStart(7)} ${f(x.distinctRatio)} ${f(x.meanGoldWordOverlap)} ${f(x.bm25RecallAt5)} ${f(x.bm25ExpandedRecallAt5)} ${leak(x.expansionLeak)}`;
  lines.push(row('all cases', r.overall));
  for (const [name, x] of Object.entries(r.slices)) lines.push(row(name, x));
  const use = (what: string, u: Realism['fillers']): string =>
    `    ${what} in ${pct(u.anyShare)} of ${u.toolRequests.toLocaleString('en-US')} tool requests; top: ${u.top5.map((t) => `"${t.phrase}" ${pct(t.share)}`).join(', ') || 'none'}`;
  lines.push(use('fillers     ', r.fillers), use('placeholders', r.placeholders));
  if (r.frames) lines.push(use('frames      ', r.frames));
  lines.push(
    `    no-tool      ${r.noTool.distinct.toLocaleString('en-US')} distinct of ${r.noTool.cases.toLocaleString('en-US')} requests (${f(r.noTool.distinctRatio).trim()})`,
  );
  if (r.surface) lines.push('', ...formatSurface(r.surface, r.sessions ?? null, r.reference ?? null));
  return lines;
}

const SURFACE_ROWS: ReadonlyArray<[keyof SurfaceFigures, string]> = [
  ['medianWords', 'median words'],
  ['questions', 'questions'],
  ['goldWordOverlap', 'overlap with gold text'],
  ['productNamed', 'names the product'],
  ['inventedIds', 'invented ids'],
  ['overIn', '"over in X"'],
  ['trailingParen', 'trailing "(X)"'],
  ['leadingLabel', 'leading "X:"'],
];

/**
 * How the requests read, beside MetaTool's test split, the real sets' ranges and the generator's
 * windows (`inspect --realism`): one row per figure of the surface rule, then the session figures.
 */
export function formatSurface(s: SurfaceFigures, sessions: SessionSurface | null, ref: RealismReference | null): string[] {
  const v = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : Number.isInteger(x) ? String(x) : x.toFixed(3));
  const w = (x: unknown): string => (Array.isArray(x) ? `${x[0] ?? '…'}–${x[1] ?? '…'}` : '');
  const lines = [`  how the requests read (${s.requests.toLocaleString('en-US')} tool requests)   this set  MetaTool test  real sets     window`];
  for (const [k, label] of SURFACE_ROWS)
    lines.push(
      `    ${label.padEnd(38)} ${v(s[k]).padStart(8)} ${v(ref?.metatool.figures[k]).padStart(14)} ${w(ref?.realRanges[k]).padStart(10)} ${w(ref?.windows[k]).padStart(10)}`,
    );
  if (sessions) {
    lines.push(`    sessions: ${sessions.sessions.toLocaleString('en-US')}, later graded turns ${sessions.laterGradedTurns.toLocaleString('en-US')}`);
    lines.push(
      `    ${'later turns reusing an earlier tool'.padEnd(38)} ${v(sessions.reuseEarlierTool).padStart(8)} ${''.padStart(14)} ${''.padStart(10)} ${w(ref?.windows.reuseEarlierTool).padStart(10)}`,
    );
    lines.push(
      `    ${'later turns staying on a server'.padEnd(38)} ${v(sessions.staysOnServer).padStart(8)} ${''.padStart(14)} ${w(ref?.realRanges.staysOnServer).padStart(10)} ${w(ref?.windows.staysOnServer).padStart(10)}`,
    );
  }
  if (ref) lines.push(`    reference: ${ref.metatool.source}; real sets: ${ref.realRanges.source}`);
  return lines;
}
