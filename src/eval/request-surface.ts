/**
 * The surface of a set of requests, measured with one rule for every dataset (generated, imported
 * or real): how long they are, how many are questions, how often they name the gold tool's
 * product or carry an invented id, how much they share with the gold tool's text, and how often
 * they use the tells of a template (a product "over in X", a trailing "(X)", a leading "X:").
 * `realism.json` and `backpack inspect --realism` show these beside the reference figures of real
 * request sets (`data/realism-reference.json`), and the generator's tests hold them to windows.
 */
import { wordOverlap } from '../catalog/overlap.ts';
import type { SessionSurface, SurfaceFigures } from '../catalog/manifest.ts';
import type { Case, Catalog, Tool } from '../catalog/types.ts';

export type { SessionSurface, SurfaceFigures } from '../catalog/manifest.ts';

const QUESTION_OPENERS = new Set(
  'who what whats how is are was were which when where why can could would will do does did should shall may might any anyone has have hows whos wheres'.split(
    ' ',
  ),
);

/** Words of a request as counted for length: whitespace tokens holding a letter or a digit. */
export function requestWords(text: string): string[] {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/** True if the request is a question: it ends in "?" or opens on an interrogative or modal word. */
export function isQuestion(text: string): boolean {
  const t = text.trim();
  if (/\?["')\]]*$/.test(t)) return true;
  const first = t
    .toLowerCase()
    .replace(/^[^a-z]+/, '')
    .split(/[^a-z']+/)[0]!
    .replace(/'/g, '');
  return QUESTION_OPENERS.has(first);
}

const INVENTED_ID = /\b[A-Z][A-Z0-9]{1,9}-\d{2,}\b|(^|[^\w&])#\d{2,}\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\b|\bid \d{3,}\b/;

/** True if the request carries an invented-looking record id. */
export function hasInventedId(text: string): boolean {
  return INVENTED_ID.test(text);
}

/** The template tells the rule counts. */
export const TELLS = {
  overIn: /\bover in \S/i,
  trailingParen: /\([^()]{1,40}\)\s*[.?!]?\s*$/,
  leadingLabel: /^\s*[\p{L}\p{N}][\p{L}\p{N}.&'-]*(?: [\p{L}\p{N}][\p{L}\p{N}.&'-]*)?:\s/u,
} as const;

function norm(text: string): string {
  return ` ${text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

/** The names a tool's product goes by: its server (without a tenant suffix), plugin or namespace, split and joined, plus known aliases. */
function productNames(t: Tool, aliases: ReadonlyMap<string, readonly string[]>): string[] {
  const owners = [t.server?.replace(/-\d+$/, ''), t.plugin, t.server || t.plugin ? undefined : t.namespace].filter((x): x is string => !!x);
  const out = new Set<string>();
  for (const o of owners) {
    const spaced = norm(o).trim();
    if (spaced) out.add(spaced);
    const joined = spaced.replace(/ /g, '');
    if (joined.length >= 3) out.add(joined);
    for (const a of aliases.get(o.toLowerCase()) ?? []) {
      const n = norm(a).trim();
      if (n.length >= 2) out.add(n);
    }
  }
  return [...out];
}

/** True if the request names the product of one of its gold tools. */
function namesProduct(request: string, gold: readonly Tool[], aliases: ReadonlyMap<string, readonly string[]>): boolean {
  const text = norm(request);
  return gold.some((t) => productNames(t, aliases).some((n) => text.includes(` ${n} `)));
}

function goldTextOf(t: Tool): string {
  return `${t.name} ${t.summary} ${t.description}`;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * The surface figures of `cases` against `catalog`. `aliases`: product aliases by server or plugin
 * name (lower case), the same table for every dataset measured (the generator's product nicknames).
 */
export function surfaceFigures(catalog: Catalog, cases: readonly Case[], aliases: ReadonlyMap<string, readonly string[]> = new Map()): SurfaceFigures {
  const byId = new Map(catalog.tools.map((t) => [t.id, t]));
  const lengths: number[] = [];
  let questions = 0;
  let overlap = 0;
  let named = 0;
  let ids = 0;
  let overIn = 0;
  let paren = 0;
  let label = 0;
  for (const c of cases) {
    if (!c.expectedTools?.length) continue;
    const gold = c.expectedTools.map((id) => byId.get(id)).filter((t): t is Tool => t !== undefined);
    const r = c.request;
    lengths.push(requestWords(r).length);
    if (isQuestion(r)) questions++;
    if (gold.length)
      overlap += c.goldMode === 'any' ? Math.max(...gold.map((t) => wordOverlap(r, goldTextOf(t)))) : wordOverlap(r, gold.map(goldTextOf).join(' '));
    if (namesProduct(r, gold, aliases)) named++;
    if (hasInventedId(r)) ids++;
    if (TELLS.overIn.test(r)) overIn++;
    if (TELLS.trailingParen.test(r)) paren++;
    if (TELLS.leadingLabel.test(r)) label++;
  }
  const n = lengths.length;
  const share = (k: number): number | null => (n ? round4(k / n) : null);
  const sorted = lengths.sort((a, b) => a - b);
  const median = n ? (n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2) : null;
  return {
    requests: n,
    medianWords: median,
    questions: share(questions),
    goldWordOverlap: share(overlap),
    productNamed: share(named),
    inventedIds: share(ids),
    overIn: share(overIn),
    trailingParen: share(paren),
    leadingLabel: share(label),
  };
}

/** The session figures of `cases` (cases with a `sessionId`, in turn order). */
export function sessionSurface(catalog: Catalog, cases: readonly Case[]): SessionSurface {
  const byId = new Map(catalog.tools.map((t) => [t.id, t]));
  const home = (id: string): string | undefined => {
    const t = byId.get(id);
    return t ? (t.server ?? t.plugin ?? t.namespace) : undefined;
  };
  const sessions = new Map<string, Case[]>();
  for (const c of cases) if (c.sessionId !== undefined) (sessions.get(c.sessionId) ?? sessions.set(c.sessionId, []).get(c.sessionId)!).push(c);
  let later = 0;
  let reuse = 0;
  let stay = 0;
  let previous = 0;
  for (const turns of sessions.values()) {
    turns.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
    const tools = new Set<string>();
    const homes = new Set<string>();
    let last: readonly string[] = [];
    turns.forEach((c, i) => {
      const gold = c.expectedTools ?? [];
      if (i > 0 && gold.length) {
        later++;
        if (gold.some((id) => tools.has(id))) reuse++;
        if (gold.some((id) => homes.has(home(id) ?? ''))) stay++;
        if (gold.some((id) => last.includes(id))) previous++;
      }
      for (const id of gold) {
        tools.add(id);
        const h = home(id);
        if (h) homes.add(h);
      }
      if (gold.length) last = gold;
    });
  }
  const share = (k: number): number | null => (later ? round4(k / later) : null);
  return { sessions: sessions.size, laterGradedTurns: later, reuseEarlierTool: share(reuse), staysOnServer: share(stay), previousTurnTool: share(previous) };
}
