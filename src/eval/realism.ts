/**
 * Measured realism of a dataset's requests (issue 16): how repetitive they are, how much of them
 * is the generator's own padding and invented values, how many words they share with their gold
 * tools, and how much BM25 gains when a request is expanded with the generator's own vocabulary
 * tables (the "expansion leak": a retriever that knew the tables would win by that much).
 * Deterministic: the same dataset and tables give the same JSON, byte for byte.
 */
import { contentWords, sliceStats, words } from '../catalog/overlap.ts';
import { REALISM_SCHEMA_VERSION, type PhraseUse, type Realism, type RealismFigures } from '../catalog/manifest.ts';
import type { Case, Catalog, Dataset } from '../catalog/types.ts';
import { recallAtK } from '../metrics/ranking.ts';
import { Policy } from '../retrievers/policy.ts';
import { rankCases } from './search.ts';
import { createRetriever } from '../retrievers/registry.ts';
import { ARCHETYPES } from '../generate/vocab/archetypes.ts';
import { FILLERS, OPERATIONS } from '../generate/vocab/operations.ts';
import { SERVERS } from '../generate/vocab/servers.ts';
import { wrapperPhrases } from '../generate/cases.ts';
import { operationPhrasing } from '../generate/phrasing.ts';
import { generate, type Generated, type Progress } from '../generate/index.ts';
import { voiceFrames } from '../generate/voice.ts';
import { sessionSurface } from './request-surface.ts';
import { REALISM_REFERENCE, surfaceOf } from './realism-reference.ts';
import type { GenerateParams } from '../generate/presets.ts';

export { REALISM_SCHEMA_VERSION, type PhraseShare, type PhraseUse, type Realism, type RealismFigures } from '../catalog/manifest.ts';

/** A table entry: phrases a request may contain, and the canonical words they stand for. */
export interface ExpansionEntry {
  phrases: readonly string[];
  words: string;
}

/** The generator's tables the measurement matches against request text. */
export interface RealismTables {
  /** Conversational padding (lead-ins and sign-offs). */
  fillers: readonly string[];
  /** Invented values substituted into templates (ids, names, people, values, terms…). */
  placeholders: readonly string[];
  /** Casual object synonyms → the object's key and plural words. */
  objects: readonly ExpansionEntry[];
  /** Literal fragments of casual operation phrasings → the operation's verb words. */
  verbs: readonly ExpansionEntry[];
  /** Product aliases → the product's name. */
  products: readonly ExpansionEntry[];
  /** Templates a request is put in (request frames and context sentences); placeholders in braces. The product-mention forms are counted by the surface rule's tells instead (`request-surface.ts`). */
  frames?: readonly string[];
}

/** The lead-ins and sign-offs the generator wraps requests in (`cases.ts`). */
const GENERATOR_FILLERS = wrapperPhrases();

/** Literal fragments of a template (`show me every {obj} we have` → `show me every`, `we have`). */
function fragments(template: string): string[] {
  return template
    .split(/\{\w+\}/)
    .map((f) =>
      f
        .replace(/["':=?,.]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((f) => f.length >= 4);
}

/** Words of an operation's tool name without the object (`get_{k}_history` → `get history`). */
function verbWords(op: (typeof OPERATIONS)[number]): string {
  return words(op.name('zqobj', 'zqobjs'))
    .filter((w) => w !== 'zqobj' && w !== 'zqobjs')
    .join(' ');
}

/** The generator's own tables (vocab/ and cases.ts). */
export function generatorTables(): RealismTables {
  const placeholders = new Set<string>();
  for (const [k, list] of Object.entries(FILLERS)) {
    if (k === 'field') continue; // field names (status, owner…) are vocabulary, not invented values
    for (const v of list) if (!GENERATOR_FILLERS.includes(v)) placeholders.add(v.replace(/"/g, '')); // `urgent` counts as a filler
  }
  // A synonym that is itself some object's name ("ticket") is no synonym in a request that uses it.
  const names = new Set(ARCHETYPES.flatMap((a) => a.objects.flatMap((o) => [o.key.replace(/_/g, ' '), o.plural.replace(/_/g, ' ')])));
  const objects: ExpansionEntry[] = [];
  for (const a of ARCHETYPES)
    for (const o of a.objects)
      objects.push({ phrases: o.casual.filter((c) => !names.has(c.toLowerCase())), words: `${o.key.replace(/_/g, ' ')} ${o.plural.replace(/_/g, ' ')}` });
  // A fragment several operations share ("show me") says nothing about which: left out.
  // The operation's wording: its casual templates, its phrasing frames and the verbs of its class
  // (WordNet lemmas, `generate/data/lexicon.json`).
  const opPhrases = (op: (typeof OPERATIONS)[number]): Set<string> => {
    const p = operationPhrasing(op.key);
    return new Set([...op.casual.flatMap(fragments), ...(p ? [...p.frames.flatMap(fragments), ...p.verbs] : [])]);
  };
  const owners = new Map<string, number>();
  for (const op of OPERATIONS) for (const f of opPhrases(op)) owners.set(f, (owners.get(f) ?? 0) + 1);
  const verbs: ExpansionEntry[] = OPERATIONS.map((op) => ({
    phrases: [...opPhrases(op)].filter((f) => owners.get(f) === 1 && contentWords(f).size > 0),
    words: verbWords(op),
  }));
  const products: ExpansionEntry[] = SERVERS.filter((s) => s.aliases.length).map((s) => ({ phrases: s.aliases, words: s.display }));
  const v = voiceFrames();
  return { fillers: GENERATOR_FILLERS, placeholders: [...placeholders], objects, verbs, products, frames: [...v.frames, ...v.contexts] };
}

/** A case-insensitive, word-boundary matcher for a phrase. */
function matcher(phrase: string): RegExp {
  const p = phrase
    .toLowerCase()
    .trim()
    .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
  return new RegExp(`(^|[^a-z0-9])${p}($|[^a-z0-9])`);
}

interface CompiledPhrase {
  re: RegExp;
  /** Its words: all must be among the request's words before the regular expression is tried. */
  needs: string[];
}

interface CompiledEntry {
  phrases: CompiledPhrase[];
  words: string;
}

function compilePhrase(p: string): CompiledPhrase {
  return { re: matcher(p), needs: words(p.toLowerCase()) };
}

function compile(entries: readonly ExpansionEntry[]): CompiledEntry[] {
  return entries.map((e) => ({ phrases: e.phrases.filter((p) => p.trim() !== '').map(compilePhrase), words: e.words }));
}

function contains(text: string, have: ReadonlySet<string>, p: CompiledPhrase): boolean {
  return p.needs.every((w) => have.has(w)) && p.re.test(text);
}

/** The request with the canonical words of every table phrase it contains appended. */
export function expandRequest(request: string, tables: RealismTables): string {
  return expandWith(request, expansionEntries(tables), fillerRes(tables));
}

function expansionEntries(tables: RealismTables): CompiledEntry[] {
  return [...compile(tables.objects), ...compile(tables.verbs), ...compile(tables.products)];
}

function fillerRes(tables: RealismTables): RegExp[] {
  return tables.fillers.filter((f) => f.trim() !== '').map((f) => new RegExp(matcher(f).source, 'g'));
}

/** Table phrases are looked for once the fillers are blanked out ("for the standup" is no meeting). */
function expandWith(request: string, entries: readonly CompiledEntry[], fillers: readonly RegExp[]): string {
  let text = request.toLowerCase();
  for (const re of fillers) text = text.replace(re, '$1 $2');
  const have = new Set(words(text));
  const extra: string[] = [];
  for (const e of entries) if (e.phrases.some((p) => contains(text, have, p))) extra.push(e.words);
  return extra.length ? `${request} ${extra.join(' ')}` : request;
}

/** A template as a matcher: its literal words in order, any text for each placeholder; how much literal text it has. */
function skeleton(template: string): { re: RegExp; literal: number } | undefined {
  const parts = template.toLowerCase().split(/\{\w+\}/);
  const literal = parts.join('').replace(/[^a-z0-9]/g, '').length;
  if (literal < 2) return undefined;
  const body = parts
    .map((p) =>
      p
        .trim()
        .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
        .replace(/\s+/g, '\\s+'),
    )
    .join('.+?');
  const start = /^\{/.test(template) ? '' : "(?:^|[^a-z0-9'])";
  const end = /\}$/.test(template) ? '' : "(?=$|[^a-z0-9'])";
  return { re: new RegExp(`${start}${body}${end}`), literal };
}

/**
 * How often each template is used: every request counted once, under the most specific template
 * it matches (the most literal text; "can you {vp} for me?" over "can you {vp}?"), so a frame's
 * share is the share of requests that read as that frame.
 */
export function frameUse(requests: readonly string[], templates: readonly string[]): PhraseUse {
  const compiled = [...new Set(templates)].flatMap((t) => {
    const k = skeleton(t);
    return k ? [{ phrase: t, ...k, n: 0 }] : [];
  });
  compiled.sort((a, b) => b.literal - a.literal || (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));
  let any = 0;
  for (const r of requests) {
    const text = r.toLowerCase();
    const hit = compiled.find((c) => c.re.test(text));
    if (hit) {
      hit.n++;
      any++;
    }
  }
  const total = requests.length;
  const share = (n: number): number => (total ? round4(n / total) : 0);
  const ranked = compiled.filter((c) => c.n > 0).sort((a, b) => b.n - a.n || (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));
  const top5 = ranked.slice(0, 5).map((c) => ({ phrase: c.phrase, requests: c.n, share: share(c.n) }));
  return { toolRequests: total, anyShare: share(any), distinctUsed: ranked.length, top: top5[0] ?? null, top5 };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function phraseUse(requests: readonly string[], phrases: readonly string[]): PhraseUse {
  const compiled = [...new Set(phrases.map((p) => p.trim()).filter((p) => p !== ''))].map((p) => ({ phrase: p, c: compilePhrase(p), n: 0 }));
  let any = 0;
  for (const r of requests) {
    const text = r.toLowerCase();
    const have = new Set(words(text));
    let hit = false;
    for (const c of compiled) {
      if (contains(text, have, c.c)) {
        c.n++;
        hit = true;
      }
    }
    if (hit) any++;
  }
  const total = requests.length;
  const share = (n: number): number => (total ? round4(n / total) : 0);
  const ranked = compiled.filter((c) => c.n > 0).sort((a, b) => b.n - a.n || (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));
  const top5 = ranked.slice(0, 5).map((c) => ({ phrase: c.phrase, requests: c.n, share: share(c.n) }));
  return { toolRequests: total, anyShare: share(any), distinctUsed: ranked.length, top: top5[0] ?? null, top5 };
}

/**
 * Per case (graded cases only, in order), recall@5 of the bm25 retriever as `backpack eval`
 * computes it: the registry's `bm25` with default settings, through the policy layer (the
 * caller's scopes masked before ranking), no floor, depth 10, not sticky.
 */
async function bm25Recalls(catalog: Catalog, cases: readonly Case[], expanded: readonly Case[]): Promise<[Map<string, number>, Map<string, number>]> {
  const retriever = createRetriever('bm25');
  await retriever.index(catalog);
  // the runner's search loop (`rankCases`: the request as the query, no floor, per turn), graded cases only
  const graded = cases.flatMap((c, i) => (c.expectedTools?.length ? [{ c, x: expanded[i]! }] : []));
  const recalls = (found: readonly { ranked: readonly [string, number][] }[], of: readonly Case[]) =>
    found.map((d, j) =>
      recallAtK(
        d.ranked.map(([id]) => id),
        of[j]!.expectedTools!,
        5,
        of[j]!.goldMode ?? 'all',
      ),
    );
  const scored = graded.map((g) => g.c);
  const plainRecalls = recalls(await rankCases(retriever, new Policy(catalog), scored, 10), scored);
  // A request the tables add nothing to scores the same: not searched again.
  const changed = graded.flatMap((g, j) => (g.x.request === g.c.request ? [] : [j]));
  const widened = changed.map((j) => ({ ...graded[j]!.c, request: graded[j]!.x.request }));
  const wideFound = recalls(await rankCases(retriever, new Policy(catalog), widened, 10), widened);
  const plain = new Map<string, number>();
  const wide = new Map<string, number>();
  graded.forEach((g, j) => {
    plain.set(g.c.id, plainRecalls[j]!);
    wide.set(g.c.id, plainRecalls[j]!);
  });
  changed.forEach((j, w) => wide.set(graded[j]!.c.id, wideFound[w]!));
  return [plain, wide];
}

function meanRecall(cases: readonly Case[], recalls: Map<string, number>): number | null {
  let sum = 0;
  let n = 0;
  for (const c of cases) {
    const r = recalls.get(c.id);
    if (r === undefined) continue;
    sum += r;
    n++;
  }
  return n ? round4(sum / n) : null;
}

function figures(cases: readonly Case[], overlap: number | null, plain: number | null, expanded: number | null): RealismFigures {
  const distinct = new Set(cases.map((c) => c.request)).size;
  return {
    cases: cases.length,
    distinctRequests: distinct,
    distinctRatio: cases.length ? round4(distinct / cases.length) : 0,
    meanGoldWordOverlap: overlap,
    bm25RecallAt5: plain,
    bm25ExpandedRecallAt5: expanded,
    expansionLeak: plain !== null && expanded !== null ? round4(expanded - plain) : null,
  };
}

/** Measure the realism of `dataset`'s requests against the generator's `tables`. */
export async function measureRealism(dataset: Dataset, tables: RealismTables = generatorTables()): Promise<Realism> {
  const { catalog, cases } = dataset;
  const entries = expansionEntries(tables);
  const fillers = fillerRes(tables);
  const expandedCases = cases.map((c) => ({ ...c, request: expandWith(c.request, entries, fillers) }));
  const [plain, expanded] = await bm25Recalls(catalog, cases, expandedCases);
  const bySlice = sliceStats(catalog, cases);
  const overallOverlap =
    sliceStats(
      catalog,
      cases.map((c) => ({ ...c, slices: ['*'] })),
    )['*']?.meanWordOverlap ?? null;
  const slices: Record<string, RealismFigures> = {};
  for (const name of Object.keys(bySlice)) {
    const inSlice = cases.filter((c) => c.slices.includes(name));
    slices[name] = figures(inSlice, bySlice[name]!.meanWordOverlap, meanRecall(inSlice, plain), meanRecall(inSlice, expanded));
  }
  const toolRequests = cases.filter((c) => (c.expectedTools?.length ?? 0) > 0).map((c) => c.request);
  const noTool = cases.filter((c) => c.slices.includes('no-tool'));
  const noToolDistinct = new Set(noTool.map((c) => c.request)).size;
  return {
    schemaVersion: REALISM_SCHEMA_VERSION,
    retriever: 'bm25',
    k: 5,
    overall: figures(cases, overallOverlap, meanRecall(cases, plain), meanRecall(cases, expanded)),
    slices,
    fillers: phraseUse(toolRequests, tables.fillers),
    placeholders: phraseUse(toolRequests, tables.placeholders),
    noTool: { cases: noTool.length, distinct: noToolDistinct, distinctRatio: noTool.length ? round4(noToolDistinct / noTool.length) : 0 },
    surface: surfaceOf(catalog, cases),
    sessions: sessionSurface(catalog, cases),
    frames: frameUse(toolRequests, tables.frames ?? []),
    reference: REALISM_REFERENCE,
  };
}

/** The file's bytes: pretty JSON, newline-terminated (key order fixed by construction). */
export function realismJson(r: Realism): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

/**
 * `generate`, then the measured realism of its requests: the files written beside the dataset's
 * own (`realism.json`), for `writeDataset`'s `extraFiles`. It lives here, not in the generator,
 * because measuring needs a retriever (BM25), which is downstream of the generator.
 */
export async function generateMeasured(params: GenerateParams, progress: Progress = () => {}): Promise<Generated & { extraFiles: Record<string, string> }> {
  const g = generate(params, progress);
  progress('realism', 0, 1);
  const realism = await measureRealism(g.dataset);
  progress('realism', 1, 1);
  return { ...g, extraFiles: { 'realism.json': realismJson(realism) } };
}
