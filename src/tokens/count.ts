/**
 * Token counters: a real tokenizer and the harnesses' own estimators, in one table so that results
 * say which one produced each figure.
 * - `o200k`: OpenAI's o200k_base BPE (gpt-tokenizer, pure JS), the real count for GPT-4o / o-series
 *   / GPT-5 models, and the default everywhere Backpack reports "tokens";
 * - `bytes/4`: Codex's estimator, ceil(UTF-8 bytes / 4) (`APPROX_BYTES_PER_TOKEN = 4`);
 * - `chars/4`: Hermes's estimator, ceil(characters / 4) (`CHARS_PER_TOKEN = 4.0`, Python `len`,
 *   i.e. code points).
 */
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { charCount, utf8Bytes } from '../catalog/unicode.ts';

export interface TokenCounter {
  /** One line for results and docs. */
  description: string;
  count(text: string): number;
}

export const TOKEN_COUNTERS = {
  o200k: { description: "OpenAI o200k_base BPE (gpt-tokenizer): a real tokenizer's count", count: (text: string) => o200kCount(text) },
  'bytes/4': { description: "Codex's estimate: ceil(UTF-8 bytes / 4)", count: (text: string) => Math.ceil(utf8Bytes(text) / 4) },
  'chars/4': { description: "Hermes's estimate: ceil(characters / 4), characters = code points", count: (text: string) => Math.ceil(charCount(text) / 4) },
} as const satisfies Record<string, TokenCounter>;

export type TokenCounterName = keyof typeof TOKEN_COUNTERS;

/** The counter every "tokens" figure uses unless it says otherwise. */
export const DEFAULT_COUNTER: TokenCounterName = 'o200k';

export function countTokens(text: string, counter: TokenCounterName = DEFAULT_COUNTER): number {
  return text === '' ? 0 : TOKEN_COUNTERS[counter].count(text);
}
