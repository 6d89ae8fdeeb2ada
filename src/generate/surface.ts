/**
 * The surface of generated requests: grammar (a/an, plurals), the optional lead-ins and sign-offs
 * people wrap a request in, the invented values that fill its placeholders (names, ids, projects,
 * dates…), composed from the parts in `data/surface.json` so that no single value recurs much, and
 * the product nicknames people really type.
 */
import { createRequire } from 'node:module';
import inflection from 'inflection';
import surfaceData from './data/surface.json' with { type: 'json' };
import { generatorDataErrors } from './data-schema.ts';
import type { Rng } from '../util/rng.ts';

export type SurfaceData = typeof surfaceData;

/** Errors of a surface vocabulary against its schema (empty when it validates). */
export function surfaceErrors(data: unknown): string[] {
  return generatorDataErrors('surface', data);
}

/** The vocabulary, validated at load. */
export const SURFACE: SurfaceData = (() => {
  const errors = surfaceErrors(surfaceData);
  if (errors.length) throw new Error(`src/generate/data/surface.json does not match its schema: ${errors.join('; ')}`);
  return surfaceData;
})();

// ---------------------------------------------------------------- grammar

const indefinite = createRequire(import.meta.url)('indefinite') as (word: string, opts?: { articleOnly?: boolean; capitalize?: boolean }) => string;

/** `a` or `an` for a phrase, by its sound (`an SLA`, `a URL`, `an hour`, `a usage report`, `an S3 bucket`). */
export function articleFor(phrase: string): 'a' | 'an' {
  const w = phrase
    .trim()
    .replace(/^["'“‘(#]+/, '')
    .replace(/[\s:;,.!?)"'”’]+$/, '');
  if (!w) return 'a';
  // A letter read out before a digit (S3, K8s, X1): the letter's name decides.
  if (/^[a-z]\d/i.test(w)) return /^[aefhilmnorsx]/i.test(w) ? 'an' : 'a';
  // Initialisms read as a word.
  if (/^(SKU|SAML|SOQL|SQL|NAT|LAN|WAN|SIM|SaaS|SEPA|SELECT|SHA|SWIFT|SCIM|README|JSON|YAML|JPEG|GIF|PNG|CAPTCHA|WYSIWYG)s?\b/.test(w)) return 'a';
  // Lower-case words that sound like "you"/"yoo" (eu-west, euro, ewe) and "one".
  if (/^(eu|ewe|uni(?!nst|nt|mp|nf|nd)|use|usu|uti|ura|uro|one\b|once\b)/.test(w)) return 'a';
  return indefinite(w, { articleOnly: true }).toLowerCase() === 'an' ? 'an' : 'a';
}

/** The phrase with its indefinite article: `withArticle('SLA')` → `an SLA`. */
export function withArticle(phrase: string): string {
  return `${articleFor(phrase)} ${phrase}`;
}

/** Words after which the head noun of a phrase ends ("bill of materials", "pem for logging into boxes"). */
const HEAD_END = /\s+(of|for|in|on|to|with|from|about|that|which|who|by|per|under|into|at)\s+/i;
/** House-style and unchanging plurals that inflection gets otherwise. */
const PLURAL_OVERRIDES: Record<string, string> = {
  quota: 'quotas',
  slice: 'slices',
  index: 'indexes',
  schema: 'schemas',
  status: 'statuses',
  canvas: 'canvases',
  cache: 'caches',
  metadata: 'metadata',
  data: 'data',
  media: 'media',
  software: 'software',
  equipment: 'equipment',
  feedback: 'feedback',
  staff: 'staff',
  info: 'info',
};

function pluralWord(w: string): string {
  const lower = w.toLowerCase();
  if (PLURAL_OVERRIDES[lower] !== undefined) return w === lower ? PLURAL_OVERRIDES[lower] : w.slice(0, 1) + PLURAL_OVERRIDES[lower].slice(1);
  // Acronyms: SLA → SLAs, API → APIs.
  if (/^[A-Z0-9]{2,}$/.test(w)) return `${w}s`;
  return inflection.pluralize(w);
}

/** The plural of a noun phrase: its head noun pluralised (`bill of materials` → `bills of materials`, `API key` → `API keys`). */
export function plural(phrase: string): string {
  let out = pluralMemo.get(phrase);
  if (out === undefined) pluralMemo.set(phrase, (out = pluralOf(phrase)));
  return out;
}

const pluralMemo = new Map<string, string>();

function pluralOf(phrase: string): string {
  const m = HEAD_END.exec(phrase);
  const head = m ? phrase.slice(0, m.index) : phrase;
  const rest = m ? phrase.slice(m.index) : '';
  const hm = /^(.*?)([\p{L}\p{N}]+)(\W*)$/u.exec(head);
  if (!hm) return phrase;
  return `${hm[1]}${pluralWord(hm[2]!)}${hm[3]}${rest}`;
}

/**
 * Every `a`/`an` before a word, set by that word's sound (`a org` → `an org`, `an usage report` →
 * `a usage report`). A capital `A`/`An` keeps its capital.
 */
export function fixArticles(text: string): string {
  return text.replace(/(^|[^\p{L}\p{N}'’-])(a|an|A|An)(\s+)(?=["'“(]?[\p{L}\p{N}])(\S+)/gu, (_m, pre: string, art: string, sp: string, next: string) => {
    // Before a determiner ("a our instance", "a the backlog") the article goes.
    if (DETERMINER.test(next)) return `${pre}${art[0] === 'A' ? next[0]!.toUpperCase() + next.slice(1) : next}`;
    const want = articleFor(next);
    const out = art[0] === 'A' ? want[0]!.toUpperCase() + want.slice(1) : want;
    return `${pre}${out}${sp}${next}`;
  });
}

const DETERMINER = /^(our|the|my|your|their|his|her|its|this|that|these|those|some|any|every|each|another|no)$/i;

// ---------------------------------------------------------------- lead-ins and sign-offs

/** A lead-in before the request, or '' (most requests have none). */
export function leadIn(r: Rng, question: boolean): string {
  return r.chance(SURFACE.padding.leadIn) ? r.pick(question ? SURFACE.questionLeadIns : SURFACE.leadIns) : '';
}

/** A sign-off after the request, or '' (most requests have none). */
export function signOff(r: Rng): string {
  return r.chance(SURFACE.padding.signOff) ? r.pick(SURFACE.signOffs) : '';
}

// ---------------------------------------------------------------- placeholder values

const S = SURFACE;

export function personName(r: Rng): string {
  const first = r.pick(S.firstNames);
  switch (r.weighted([0, 1, 2, 3, 4], [40, 15, 28, 12, 5])) {
    case 0:
      return first;
    case 1:
      return `${first} ${r.pick(S.surnames)[0]}.`;
    case 2:
      return `${first} ${r.pick(S.surnames)}`;
    case 3:
      return `${first} from ${r.pick(S.teams).replace(/^the /, '')}`;
    default:
      return `the on-call ${r.pick(['engineer', 'person', 'lead', 'SRE'])}`;
  }
}

function company(r: Rng): string {
  return `${r.pick(S.companyRoots)}${r.pick(S.companySuffixes)}`;
}

/** A project or thing name: `Kestrel launch`, `payments-gateway`, `Q3 finance offsite`. */
export function projectName(r: Rng): string {
  switch (r.int(0, 5)) {
    case 0:
      return `${r.pick(S.codenames)} ${r.pick(S.projectNouns)}`;
    case 1:
      return `Project ${r.pick(S.codenames)}`;
    case 2:
      return `${r.pick(S.codenames).toLowerCase()}-${r.pick(S.slugNouns)}`;
    case 3:
      return `${r.pick(S.quarters)} ${r.pick(S.teams).replace(/^the /, '')} ${r.pick(S.projectNouns)}`;
    case 4:
      return company(r);
    default:
      return `${company(r)} ${r.pick(S.projectNouns)}`;
  }
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

export function dateValue(r: Rng): string {
  const day = r.int(1, 28);
  const month = r.int(1, 12);
  return r.pick(S.dateForms).replace(/\{(\w+)\}/g, (_m, k: string) => {
    if (k === 'weekday') return r.pick(S.weekdays);
    if (k === 'month') return S.months[month - 1]!;
    if (k === 'day') return String(day);
    if (k === 'ordinal') return ordinal(day);
    if (k === 'mm') return String(month).padStart(2, '0');
    if (k === 'dd') return String(day).padStart(2, '0');
    return k;
  });
}

/**
 * A reference to an existing record, mostly as people refer to one (`the Kestrel launch one`,
 * `the one Priya opened`, `"Globex"`), now and then by an id (`OPS-118`, `#4821`, `7f3a2c`): ids
 * are rare in real requests (0–7% of them), so about one reference in six is one.
 */
export function refValue(r: Rng): string {
  switch (r.weighted([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [3, 4, 24, 1, 1, 12, 14, 12, 14, 12])) {
    case 0:
      return `#${r.int(2, 9999)}`;
    case 1:
      return `${r.pick(S.ticketPrefixes)}-${r.int(2, 9999)}`;
    case 2:
      return `"${projectName(r)}"`;
    case 3:
      return `id ${r.int(1000, 999999)}`;
    case 4:
      return r.int(0x100000, 0xffffff).toString(16);
    case 5:
      return `"${company(r)}"`;
    case 6:
      return `for ${projectName(r)}`;
    case 7:
      return `that ${personName(r)} ${r.pick(['opened', 'set up', 'created', 'mentioned', 'flagged', 'sent over'])}`;
    case 8:
      return `from ${dateValue(r)}`;
    default:
      return `for ${r.pick(S.codenames)}`;
  }
}

/** A form with its placeholders filled: {first} {surname} {codename} {team} {quarter} {weekday} {date} {person} {project} {text}. */
export function fillForm(form: string, r: Rng): string {
  return form.replace(/\{(\w+)\}/g, (_m, k: string) => {
    switch (k) {
      case 'weekday':
        return r.pick(S.weekdays);
      case 'first':
        return r.pick(S.firstNames);
      case 'surname':
        return r.pick(S.surnames);
      case 'codename':
        return r.pick(S.codenames);
      case 'team':
        return r.pick(S.teams).replace(/^the /, '');
      case 'quarter':
        return r.pick(S.quarters);
      case 'date':
        return dateValue(r);
      case 'person':
        return personName(r);
      case 'project':
        return projectName(r);
      case 'text':
        return commentText(r);
      default:
        return k;
    }
  });
}

function commentText(r: Rng): string {
  return r.chance(0.25) ? fillForm(r.pick(S.textForms), r) : r.pick(S.texts);
}

const FIELDS = Object.keys(S.fieldValues) as Array<keyof typeof S.fieldValues>;

/** Values for every placeholder of a request template; `field` and `value` fit each other. */
export function placeholderValues(r: Rng): Record<string, string> {
  const field = r.pick(FIELDS);
  const ref = refValue(r);
  // A second reference of the same kind as the first (`OPS-118` and `OPS-131`).
  const ref2 = /^[A-Z]+-\d+$/.test(ref) ? `${ref.split('-')[0]}-${r.int(2, 9999)}` : /^#\d+$/.test(ref) ? `#${r.int(2, 9999)}` : refValue(r);
  return {
    ref,
    ref2,
    name: projectName(r),
    person: personName(r),
    field,
    value: fillForm(r.pick(S.fieldValues[field]), r),
    term: r.pick(S.terms),
    label: r.chance(0.1) ? r.pick(S.quarters).toLowerCase() : r.pick(S.labels),
    place: r.chance(0.5) ? r.pick(S.places) : fillForm(r.pick(S.placeForms), r),
    text: commentText(r),
    date: dateValue(r),
  };
}

/**
 * The parts placeholder values are composed of, by kind (for the realism measurement: a part used
 * in many requests is a recurring invented value, whatever it is combined with).
 */
export function placeholderParts(): Record<string, readonly string[]> {
  const quoted = (list: readonly string[]) => list.map((v) => v.replace(/"/g, ''));
  const values = Object.values(S.fieldValues)
    .flat()
    .filter((v) => !v.includes('{'));
  return {
    person: S.firstNames,
    surname: S.surnames,
    codename: S.codenames,
    company: S.companyRoots,
    ticket: S.ticketPrefixes,
    term: S.terms,
    label: S.labels,
    place: S.places,
    text: S.texts,
    value: quoted(values),
  };
}

// ---------------------------------------------------------------- product names

/** The nicknames people really use for a server (a subset of its aliases that `allowed` keeps). */
export function nicknamesFor(server: string, allowed: readonly string[]): string[] {
  const list = (S.nicknames as Record<string, string[] | undefined>)[server] ?? [];
  const ok = new Set(allowed.map((a) => a.toLowerCase()));
  return list.filter((n) => ok.has(n.toLowerCase()));
}

/** How a request names a product: its display name mostly, a real nickname sometimes. */
export function productName(server: { name: string; display: string }, allowedAliases: readonly string[], r: Rng): string {
  const nicks = nicknamesFor(server.name, allowedAliases);
  return nicks.length && r.chance(S.nicknameRate) ? r.pick(nicks) : server.display;
}
