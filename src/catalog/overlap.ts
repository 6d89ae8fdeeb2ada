/**
 * Words, content words and the word-overlap statistic: how much a request shares with its gold
 * tools' text. The manifest and `inspect` report it per slice, so a dataset's difficulty is visible.
 */
import type { SliceStats } from './manifest.ts';
import type { Case, Catalog, Tool } from './types.ts';

/** Small English stop-word list used for "content words" (overlap statistics and paraphrase checks). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being ' +
    'do does did done have has had having i me my we our us you your it its this that these those there here what which who whom ' +
    'whose when where why how all any each every some no not only own same so than too very can could should would will just ' +
    "please pls hey hi thanks thank up out over under again also get got let lets me can't don't im i'm it's we're you're " +
    'new one two via per across after before since until while yesterday today tomorrow now need want like make sure quick quickly real'
  ).split(/\s+/),
);

/** Lowercase words of a text: runs of [a-z0-9], after splitting camelCase, snake_case and kebab-case. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** A light stem (plural endings) so `contacts` and `contact` count as one word. */
export function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ses|xes|zes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Stemmed content words (stop words removed), as a set. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) if (!STOP_WORDS.has(w)) out.add(stem(w));
  return out;
}

/**
 * Word overlap of a request with a gold text: the share of the request's content words that also
 * occur in the gold text (0 when the request has none). The statistic the manifest reports per slice.
 */
export function wordOverlap(request: string, goldText: string): number {
  const req = contentWords(request);
  if (req.size === 0) return 0;
  const gold = contentWords(goldText);
  let shared = 0;
  for (const w of req) if (gold.has(w)) shared++;
  return shared / req.size;
}

/** The text a request is compared with for the overlap statistic: name, summary and description. */
function goldText(t: Tool): string {
  return `${t.name} ${t.summary} ${t.description}`;
}

/**
 * Per slice: count, share of all cases, and mean word overlap between request and gold tool text
 * (for `any` gold, the best-matching gold tool; for `all`, all gold tools' text together).
 */
export function sliceStats(catalog: Catalog, cases: readonly Case[]): Record<string, SliceStats> {
  const byId = new Map(catalog.tools.map((t) => [t.id, t]));
  const acc = new Map<string, { count: number; overlapSum: number; graded: number }>();
  for (const c of cases) {
    const gold = (c.expectedTools ?? []).map((id) => byId.get(id)).filter((t): t is Tool => t !== undefined);
    let overlap: number | undefined;
    if (gold.length) {
      overlap = c.goldMode === 'any' ? Math.max(...gold.map((t) => wordOverlap(c.request, goldText(t)))) : wordOverlap(c.request, gold.map(goldText).join(' '));
    }
    for (const s of c.slices) {
      const a = acc.get(s) ?? { count: 0, overlapSum: 0, graded: 0 };
      a.count++;
      if (overlap !== undefined) {
        a.overlapSum += overlap;
        a.graded++;
      }
      acc.set(s, a);
    }
  }
  const out: Record<string, SliceStats> = {};
  for (const name of [...acc.keys()].sort()) {
    const a = acc.get(name)!;
    out[name] = {
      count: a.count,
      share: round4(a.count / Math.max(1, cases.length)),
      meanWordOverlap: a.graded ? round4(a.overlapSum / a.graded) : null,
    };
  }
  return out;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
