/**
 * Queries as a model writes them. A model that has a search tool (`tool_search`, `search_tools`)
 * does not paste the user's message into it: it writes a short keyword query — the content words
 * of the request, product and object names kept, the conversational wrapping dropped. Profiles whose
 * model issues the search default to this style (`Profile.queryStyle`); `--query-style raw|keywords`
 * sets one style for every strategy of a run.
 *
 * The rule is one deterministic function for every profile (no profile gets a query written for
 * its own engine), built from generic English only — NLTK's stop words and the politeness and
 * hedging words of chat messages below — never from the generator's phrasing tables:
 * 1. text in double quotes (straight or curly) is a literal value for the call's arguments, not a
 *    search term, and is left out; words are the rest's whitespace-separated tokens with
 *    surrounding punctuation stripped (inner `-`, `_`, `.`, `/` and `'` kept: `GitLab`,
 *    `point-in-time`, `to_do` stay one word);
 * 2. a word is dropped when it is a stop word or a filler (case-insensitive), or when it is a value
 *    for the call's arguments rather than a search term: it starts with `#`, it has more digits than
 *    letters (`31337`, `b76937`, `2026-12-01`, `401k`), or it is a ticket-style key (capitals, a
 *    dash, digits: `SEC-4515`, `ITSD-9512`) or a hex id (six or more hex characters, two of them
 *    digits: `7f3a2c`); a name with a digit in it is kept (`Auth0`, `k8s`,
 *    `EC2`, `S3`, `1Password`, `a11y`, `customer-360`; `Q3` too);
 * 3. the rest are kept in order, original case, each once (case-insensitive). There is no length
 *    cap: a model keeps the salient words, which a rule cannot pick, and cutting at the first
 *    eight content words cost 0.035 recall@5 to codex, 0.036 to deferred and 0.026 to claude-code
 *    on MetaTool's train split (measured there, never on the scored test split).
 * A request with no keyword gives `''`: the model has nothing to search for and issues no search
 * (no-tool chit-chat); the evaluation counts no search call for it.
 */
import { ENGLISH_STOP_WORDS } from '../retrievers/bm25/tokenize.ts';
import type { QueryStyle } from './types.ts';

/** Conversational words a model leaves out of a search query: politeness, hedges, requests for help, time fillers. */
export const QUERY_FILLERS: readonly string[] = Object.freeze(
  (
    'please pls plz kindly thanks thank thx cheers hey hi hello ok okay yes yeah sure ' +
    "could would might may must shall need needs needed want wants wanted wanna like let lets let's help " +
    "i'm i'd i'll i've we're we'd we'll can't won't us " +
    'quick quickly just also maybe perhaps actually really basically probably possibly somehow ' +
    'sec second minute moment asap soon later right away yo'
  ).split(/\s+/),
);

const DROPPED: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...QUERY_FILLERS]);

/** Strip punctuation around a token (quotes, brackets, sentence marks), keeping inner characters. */
function trimWord(token: string): string {
  return token.replace(/^[^\p{L}\p{N}]+/u, '').replace(/[^\p{L}\p{N}]+$/u, '');
}

/** A value for the call's arguments (an id, a number, a date), not a search term: see rule 2. */
export function isValue(word: string): boolean {
  if (word.startsWith('#') || /^\p{Lu}+-\p{N}{2,}$/u.test(word) || /^(?=(?:.*[0-9]){2})[0-9a-f]{6,}$/i.test(word)) return true;
  const digits = (word.match(/\p{N}/gu) ?? []).length;
  if (!digits) return false;
  const letters = (word.match(/\p{L}/gu) ?? []).length;
  return digits > letters;
}

/** The keyword query a model writes into a search tool for `request` (see the module comment). */
export function keywordQuery(request: string): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const unquoted = request.normalize('NFC').replace(/"[^"]*"|\u201c[^\u201d]*\u201d/g, ' ');
  for (const token of unquoted.split(/\s+/)) {
    const word = trimWord(token);
    if (!word) continue;
    const lower = word.toLowerCase();
    if (DROPPED.has(lower) || isValue(word) || seen.has(lower)) continue;
    seen.add(lower);
    out.push(word);
  }
  return out.join(' ');
}

/** The query a search receives for `request` under a style. */
export function queryFor(request: string, style: QueryStyle): string {
  return style === 'keywords' ? keywordQuery(request) : request;
}

export const QUERY_STYLES: readonly QueryStyle[] = ['raw', 'keywords'];
