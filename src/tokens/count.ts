/**
 * Token counters: a real tokenizer and the harnesses' own estimators, in one table so that results
 * say which one produced each figure.
 * - `o200k`: OpenAI's o200k_base BPE (gpt-tokenizer, pure JS), the real count for GPT-4o / o-series
 *   / GPT-5 models, and the default everywhere Backpack reports "tokens";
 * - `bytes/4`: Codex's estimator, ceil(UTF-8 bytes / 4) (`APPROX_BYTES_PER_TOKEN = 4`);
 * - `chars/4`: Hermes's estimator, ceil(characters / 4) (`CHARS_PER_TOKEN = 4.0`, Python `len`,
 *   i.e. code points).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { charCount, utf8Bytes } from '../util/unicode.ts';
import { CACHE_ROOT } from '../util/version.ts';
import { TokenCountCache } from './count-cache.ts';

export interface TokenCounter {
  /** One line for results and docs. */
  description: string;
  count(text: string): number;
}

let o200k: ((text: string) => number) | undefined;

/** gpt-tokenizer's o200k count, its module loaded on first use: its tables take ~0.3 s to load, which a diff or a gate never needs. */
function o200kCount(text: string): number {
  o200k ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: (text: string) => number }).countTokens;
  return o200k(text);
}

export const TOKEN_COUNTERS = {
  o200k: { description: "OpenAI o200k_base BPE (gpt-tokenizer): a real tokenizer's count", count: (text: string) => o200kCount(text) },
  'bytes/4': { description: "Codex's estimate: ceil(UTF-8 bytes / 4)", count: (text: string) => Math.ceil(utf8Bytes(text) / 4) },
  'chars/4': { description: "Hermes's estimate: ceil(characters / 4), characters = code points", count: (text: string) => Math.ceil(charCount(text) / 4) },
} as const satisfies Record<string, TokenCounter>;

export type TokenCounterName = keyof typeof TOKEN_COUNTERS;

/** The counter every "tokens" figure uses unless it says otherwise. */
export const DEFAULT_COUNTER: TokenCounterName = 'o200k';

/** The tokenizer package and version the o200k counts come from (what a count cache is valid for). */
export const O200K_TOKENIZER = `gpt-tokenizer@${(createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string }).version}`;

/**
 * The process's memo of o200k counts: in memory by default; `useTokenCountCache(dir)` backs it with
 * an on-disk log (the command line does, under `tokens/` in Backpack's cache folder), so a second run of the same
 * catalog counts almost nothing. Counts are the same with or without it.
 */
let memo = new TokenCountCache(null, 'o200k', O200K_TOKENIZER);

/** Where the command line keeps the o200k counts between runs (beside the vector cache). */
export const DEFAULT_TOKEN_CACHE_DIR = join(CACHE_ROOT, 'tokens');

/** Back the o200k memo with the log under `dir` (null: memory only). Returns the memo (flush it when done). */
export function useTokenCountCache(dir: string | null): TokenCountCache {
  memo.flush();
  memo = new TokenCountCache(dir, 'o200k', O200K_TOKENIZER);
  return memo;
}

/** The memo in use (for its hit counts, and to flush it). */
export function tokenCountCache(): TokenCountCache {
  return memo;
}

export function countTokens(text: string, counter: TokenCounterName = DEFAULT_COUNTER): number {
  if (text === '') return 0;
  return counter === 'o200k' ? memo.count(text, TOKEN_COUNTERS.o200k.count) : TOKEN_COUNTERS[counter].count(text);
}
