/**
 * Near-duplicate tools: pairs whose index texts are so alike that they compete for one intent
 * (the seed's failure mode "two tools whose descriptions overlap materially split the retrieval
 * score and neither ranks cleanly"), with the seed's editorial fix: say what each is not for.
 *
 * Similarity: Jaccard of the content-word sets (stemmed, stop words dropped: `catalog/overlap.ts`)
 * of name, title, summary and description. A pair is reported when Jaccard ≥ the threshold
 * (default 0.8: four words in five shared).
 *
 * Exact and fast at 50,000 tools, without comparing all pairs: the AllPairs join with prefix
 * filtering (Bayardo, Ma and Srikant, WWW 2007). Words are ordered rarest first (document
 * frequency, then the word); a set x of n words is indexed and probed by its first
 * n − ⌈t·n⌉ + 1 words (probe) and indexed by its first n − ⌈2t/(1+t)·n⌉ + 1: two sets with
 * Jaccard ≥ t share α ≥ ⌈t/(1+t)·(|x|+|y|)⌉ words, so the first |x| − α + 1 words of x and the
 * first |y| − α + 1 of y share one. Sets are processed smallest first, so a candidate y already
 * indexed has |y| ≤ |x| (its needed prefix is within the indexed one) and the size filter
 * |y| ≥ ⌈t·|x|⌉ (which makes α ≥ ⌈t·|x|⌉) drops the rest. Each candidate pair is then verified
 * exactly. No hashing, no randomness: the output depends only on the catalog.
 */
import type { Tool } from '../catalog/types.ts';
import { compareStrings } from '../util/unicode.ts';
import { contentWordForms, wordsOnlyIn } from './words.ts';

export interface NearDuplicatePair {
  a: string;
  b: string;
  /** Jaccard of the two content-word sets, rounded to 4 decimals. */
  jaccard: number;
  /** True when a or b was added or changed by the diff. */
  involvesChange: boolean;
  /** Content words of a's description that b's lacks (surface forms, a's order), and the reverse. */
  onlyA: string[];
  onlyB: string[];
  /** The editorial fix, one line per tool to edit. */
  suggestions: string[];
}

export interface NearDuplicateReport {
  similarity: number;
  text: string;
  /** Pairs at or above the threshold in the whole catalog. */
  pairs: number;
  /** Pairs involving an added or changed tool. */
  pairsInvolvingChanges: number;
  /** Distinct tools in some pair. */
  tools: number;
  /** Every pair involving an added or changed tool, then up to `otherPairs` others; each group by Jaccard descending, then ids. */
  listed: NearDuplicatePair[];
}

/** Jaccard at or above which two tools are near-duplicates (four words in five shared). */
export const DEFAULT_SIMILARITY = 0.8;
/** Distinguishing words quoted in a suggestion. */
export const SUGGESTION_WORDS = 6;
/** Pairs listed that involve no added or changed tool (all pairs involving one are listed). */
export const DEFAULT_OTHER_PAIRS = 20;

/** The text a tool is compared by. */
export function nearDuplicateText(t: Tool): string {
  return `${t.name} ${t.title ?? ''} ${t.summary} ${t.description}`;
}

/**
 * Every pair (i < j by position in `sets`) with Jaccard ≥ `t`, as [i, j, jaccard]. `sets` hold word
 * ids sorted ascending by the global order. Probing also applies PPJoin's positional filter (Xiao
 * et al., WWW 2008): a candidate whose shared words so far plus the words left after the current
 * positions cannot reach α is dropped before verification.
 */
export function similarPairs(sets: readonly Uint32Array[], t: number): Array<[number, number, number]> {
  if (!(t > 0 && t <= 1)) throw new RangeError(`similarity threshold must be in (0, 1], got ${t}`);
  const need = (n: number) => Math.ceil(t * n - 1e-9);
  const mid = (2 * t) / (1 + t);
  const indexed = (n: number) => n - Math.ceil(mid * n - 1e-9) + 1;
  const order = sets.map((_, i) => i).filter((i) => sets[i]!.length > 0);
  order.sort((x, y) => sets[x]!.length - sets[y]!.length || x - y);
  /** word id → [set, position, set, position, …] in processing order (sizes ascending), and where the sets large enough start. */
  const postings = new Map<number, { list: number[]; start: number }>();
  const out: Array<[number, number, number]> = [];
  const PRUNED = -1_000_000;
  const overlap = new Int32Array(sets.length);
  const touched: number[] = [];
  for (const x of order) {
    const sx = sets[x]!;
    const n = sx.length;
    const prefix = n - need(n) + 1;
    const minSize = need(n);
    for (let i = 0; i < prefix; i++) {
      const entry = postings.get(sx[i]!);
      if (!entry) continue;
      const list = entry.list;
      // Sizes only grow as x does: a set too small now is too small for every later x.
      while (entry.start < list.length && sets[list[entry.start]!]!.length < minSize) entry.start += 2;
      for (let q = entry.start; q < list.length; q += 2) {
        const y = list[q]!;
        const ny = sets[y]!.length;
        const a = overlap[y]!;
        if (a < 0) continue;
        const alpha = Math.ceil((t / (1 + t)) * (n + ny) - 1e-9);
        const bound = 1 + Math.min(n - i - 1, ny - list[q + 1]! - 1);
        if (a === 0) touched.push(y);
        overlap[y] = a + bound >= alpha ? a + 1 : PRUNED;
      }
    }
    for (const y of touched) {
      if (overlap[y]! > 0) {
        const sy = sets[y]!;
        const common = overlapAtLeast(sx, sy, Math.ceil((t / (1 + t)) * (n + sy.length) - 1e-9));
        if (common >= 0) {
          const j = common / (n + sy.length - common);
          if (j >= t - 1e-12) out.push(x < y ? [x, y, j] : [y, x, j]);
        }
      }
      overlap[y] = 0;
    }
    touched.length = 0;
    const keep = indexed(n);
    for (let p = 0; p < keep; p++) {
      const w = sx[p]!;
      let entry = postings.get(w);
      if (!entry) postings.set(w, (entry = { list: [], start: 0 }));
      entry.list.push(x, p);
    }
  }
  return out;
}

/** |a ∩ b| of two ascending id arrays, or -1 as soon as it cannot reach `alpha` (never with `alpha` 0). */
function overlapAtLeast(a: Uint32Array, b: Uint32Array, alpha: number): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (common + Math.min(a.length - i, b.length - j) < alpha) return -1;
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return common >= alpha ? common : -1;
}

/** Jaccard of two ascending id arrays. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  const common = overlapAtLeast(a, b, 0);
  const union = a.length + b.length - common;
  return union === 0 ? 0 : common / union;
}

/**
 * What the near-duplicate report is computed from: every tool's content-word set and every pair
 * at or above the threshold. Word ids index `words`; each set is ascending.
 */
export interface PairAnalysis {
  similarity: number;
  /** Stems, by word id. */
  words: string[];
  /** Per tool (catalog order), its content words' ids, ascending. */
  sets: Uint32Array[];
  /** [i, j, jaccard] with i < j by catalog position. */
  pairs: Array<[number, number, number]>;
}

/** The content-word sets of `tools` over a vocabulary (`ids`, grown as new words appear). */
function wordSets(tools: readonly Tool[], ids: Map<string, number>, words: string[]): Uint32Array[] {
  return tools.map((tool) => {
    const out: number[] = [];
    for (const s of contentWordForms(nearDuplicateText(tool)).keys()) {
      let id = ids.get(s);
      if (id === undefined) {
        ids.set(s, (id = words.length));
        words.push(s);
      }
      out.push(id);
    }
    return Uint32Array.from(out).sort();
  });
}

/** Every near-duplicate pair of `tools` (the AllPairs join of `similarPairs`). */
export function analysePairs(tools: readonly Tool[], similarity: number = DEFAULT_SIMILARITY): PairAnalysis {
  const forms = tools.map((tool) => contentWordForms(nearDuplicateText(tool)));
  // Word ids in the global order the join needs: rarest first, then the word.
  const df = new Map<string, number>();
  for (const f of forms) for (const s of f.keys()) df.set(s, (df.get(s) ?? 0) + 1);
  const words = [...df.keys()].sort((x, y) => df.get(x)! - df.get(y)! || compareStrings(x, y));
  const idOf = new Map(words.map((w, i) => [w, i]));
  const sets = forms.map((f) => Uint32Array.from([...f.keys()].map((s) => idOf.get(s)!)).sort());
  return { similarity, words, sets, pairs: similarPairs(sets, similarity) };
}

/**
 * Fresh tools (added or changed) at most, as a share of the catalog, for `analysePairsFrom` to
 * compare them with every tool rather than run the whole join. Measured on the monster catalog
 * (50,560 tools): the whole join 0.85 s; from the base, 60 ms plus about 2 ms per fresh tool
 * (0.26 s at 100, this share's limit there).
 */
export const INCREMENTAL_SHARE = 0.002;

/** Whether `fresh` added or changed tools in a catalog of `tools` are few enough for `analysePairsFrom`. */
export function fewEnoughFresh(fresh: number, tools: number): boolean {
  return fresh <= Math.max(1, INCREMENTAL_SHARE * tools);
}

/**
 * The pair analysis of `tools` from that of an earlier catalog (`base`, of `baseIds`): a tool
 * whose definition is unchanged (`fresh` does not hold its id) keeps its word set, and a pair of
 * two such tools is a pair now exactly when it was one (Jaccard depends only on the two sets).
 * Each fresh tool is compared with every other tool. The pairs are those `analysePairs(tools)`
 * finds, with the same Jaccard values (tested); word ids differ, which nothing downstream sees.
 * Returns undefined when the fresh tools are too many (`INCREMENTAL_SHARE`) or the base does not
 * describe the unchanged tools.
 */
export function analysePairsFrom(base: PairAnalysis, baseIds: readonly string[], tools: readonly Tool[], fresh: ReadonlySet<string>): PairAnalysis | undefined {
  const t = base.similarity;
  let freshCount = 0;
  for (const tool of tools) if (fresh.has(tool.id)) freshCount++;
  if (!fewEnoughFresh(freshCount, tools.length) || baseIds.length !== base.sets.length) return undefined;
  const baseIndex = new Map(baseIds.map((id, i) => [id, i]));
  if (baseIndex.size !== baseIds.length) return undefined; // ids must name one tool each
  const words = [...base.words];
  const ids = new Map(words.map((w, i) => [w, i]));
  const sets: Uint32Array[] = new Array(tools.length);
  const position = new Map<string, number>();
  const freshAt: number[] = [];
  const freshTools: Tool[] = [];
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    position.set(tool.id, i);
    if (fresh.has(tool.id)) {
      freshAt.push(i);
      freshTools.push(tool);
      continue;
    }
    const b = baseIndex.get(tool.id);
    if (b === undefined) return undefined; // not fresh, yet not in the base: not the base of this catalog
    sets[i] = base.sets[b]!;
  }
  if (position.size !== tools.length) return undefined;
  wordSets(freshTools, ids, words).forEach((set, f) => (sets[freshAt[f]!] = set));
  const pairs: Array<[number, number, number]> = [];
  for (const [bi, bj, jac] of base.pairs) {
    const a = baseIds[bi]!;
    const b = baseIds[bj]!;
    const i = position.get(a);
    const j = position.get(b);
    if (i === undefined || j === undefined || fresh.has(a) || fresh.has(b)) continue;
    pairs.push(i < j ? [i, j, jac] : [j, i, jac]);
  }
  const isFresh = new Uint8Array(tools.length);
  for (const i of freshAt) isFresh[i] = 1;
  for (const x of freshAt) {
    const sx = sets[x]!;
    if (sx.length === 0) continue;
    for (let y = 0; y < tools.length; y++) {
      if (y === x || (isFresh[y] === 1 && y < x)) continue; // a pair of two fresh tools once
      const sy = sets[y]!;
      const small = Math.min(sx.length, sy.length);
      const big = Math.max(sx.length, sy.length);
      if (small === 0 || small < t * big - 1e-6) continue; // Jaccard ≤ small / big < t
      const j = jaccard(sx, sy);
      if (j >= t - 1e-12) pairs.push(x < y ? [x, y, j] : [y, x, j]);
    }
  }
  return { similarity: t, words, sets, pairs };
}

/**
 * Near-duplicate pairs of `tools`. `focus`: ids of the added and changed tools, whose pairs are
 * listed first and in full. `analysis`: the pairs of `tools` when already known (`analysePairsFrom`).
 */
export function nearDuplicates(
  tools: readonly Tool[],
  opts: { similarity?: number; focus?: ReadonlySet<string>; otherPairs?: number; analysis?: PairAnalysis } = {},
): NearDuplicateReport {
  const t = opts.analysis?.similarity ?? opts.similarity ?? DEFAULT_SIMILARITY;
  const focus = opts.focus ?? new Set<string>();
  const raw = (opts.analysis ?? analysePairs(tools, t)).pairs;
  const pairs = raw.map(([i, j, jac]) => {
    const [x, y] = compareStrings(tools[i]!.id, tools[j]!.id) <= 0 ? [tools[i]!, tools[j]!] : [tools[j]!, tools[i]!];
    return { x, y, jac, involves: focus.has(x.id) || focus.has(y.id) };
  });
  const byRank = (p: { x: Tool; y: Tool; jac: number }, q: { x: Tool; y: Tool; jac: number }) =>
    q.jac - p.jac || compareStrings(p.x.id, q.x.id) || compareStrings(p.y.id, q.y.id);
  const mine = pairs.filter((p) => p.involves).sort(byRank);
  const others = pairs
    .filter((p) => !p.involves)
    .sort(byRank)
    .slice(0, opts.otherPairs ?? DEFAULT_OTHER_PAIRS);
  const inPairs = new Set<number>();
  for (const [i, j] of raw) inPairs.add(i).add(j);
  return {
    similarity: t,
    text: 'content words (stemmed, stop words dropped) of name, title, summary and description',
    pairs: raw.length,
    pairsInvolvingChanges: mine.length,
    tools: inPairs.size,
    listed: [...mine, ...others].map((p) => describePair(p.x, p.y, p.jac, p.involves)),
  };
}

/** Words of a description that tell no tool from another ("including", "useful"): left out of a "not for" sentence. */
const FILLER = new Set([
  'also',
  'available',
  'based',
  'given',
  'include',
  'included',
  'includes',
  'including',
  'provide',
  'provided',
  'provides',
  'specific',
  'support',
  'supported',
  'supports',
  'use',
  'used',
  'useful',
  'uses',
  'using',
  'various',
  'etc',
]);

/** Content words that tell a text apart: numbers alone (limits, defaults) and filler words do not. */
function telling(forms: Map<string, string>): Map<string, string> {
  return new Map([...forms].filter(([, w]) => !/^\d+$/.test(w) && !FILLER.has(w.toLowerCase())));
}

/** Words as a list a sentence reads: `a`, `a or b`, `a, b or c`. */
function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * A pair with its distinguishing words and the "say what each is not for" suggestions. The words
 * come from the set difference of the two descriptions (with the namespace first when the two
 * tools live in different ones); when that is empty, from the name, title and summary as well.
 */
export function describePair(a: Tool, b: Tool, jac: number, involvesChange: boolean): NearDuplicatePair {
  // Two servers' copies of one operation differ first by the product they act on.
  const ns = (t: Tool) => (a.namespace !== b.namespace ? `${t.namespace} ` : '');
  let wa = telling(contentWordForms(`${ns(a)}${a.description}`));
  let wb = telling(contentWordForms(`${ns(b)}${b.description}`));
  let onlyA = wordsOnlyIn(wa, wb, SUGGESTION_WORDS);
  let onlyB = wordsOnlyIn(wb, wa, SUGGESTION_WORDS);
  if (!onlyA.length && !onlyB.length) {
    wa = telling(contentWordForms(`${a.namespace} ${nearDuplicateText(a)}`));
    wb = telling(contentWordForms(`${b.namespace} ${nearDuplicateText(b)}`));
    onlyA = wordsOnlyIn(wa, wb, SUGGESTION_WORDS);
    onlyB = wordsOnlyIn(wb, wa, SUGGESTION_WORDS);
  }
  // How a description should name the other tool: its name within one namespace, its id across two.
  const same = a.namespace === b.namespace && a.name !== b.name;
  const nameA = same ? a.name : a.id;
  const nameB = same ? b.name : b.id;
  const suggestions: string[] = [];
  if (onlyB.length) suggestions.push(`Add to ${a.id}'s description: "Not for requests about ${orList(onlyB)}: use ${nameB}."`);
  if (onlyA.length) suggestions.push(`Add to ${b.id}'s description: "Not for requests about ${orList(onlyA)}: use ${nameA}."`);
  if (!onlyA.length && !onlyB.length)
    suggestions.push(`${a.id} and ${b.id} say the same thing: merge them, or rewrite both to say what each is for and what it is not for.`);
  else if (!onlyB.length) suggestions.push(`${b.id} says nothing ${a.id} does not: say what ${b.id} alone is for, or remove it.`);
  else if (!onlyA.length) suggestions.push(`${a.id} says nothing ${b.id} does not: say what ${a.id} alone is for, or remove it.`);
  return { a: a.id, b: b.id, jaccard: Math.round(jac * 10_000) / 10_000, involvesChange, onlyA, onlyB, suggestions };
}
