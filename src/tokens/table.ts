/**
 * The seed article's token table, measured on a catalog instead of assumed at 150 tokens a tool:
 * for 10, 25, 50, 100, 200 and 400 tools, the tokens of the serialized tool block, its share of a
 * 200,000-token window, and the uncached tokens of a 12-turn conversation that sends the block on
 * every turn. The tools are a deterministic, evenly spaced sample of the catalog (positions
 * ⌊i·N/n⌋), so the sample spans every source and server rather than the first server only.
 */
import { countTokens, type TokenCounterName } from './count.ts';
import { serializeTools, type Definition, type Provider } from './serialize.ts';

export const TOKEN_TABLE_SIZES: readonly number[] = [10, 25, 50, 100, 200, 400];

export interface TokenTableRow {
  /** Tools in the block (fewer than asked when the catalog is smaller). */
  tools: number;
  /** Tokens of the block, per provider serialization. */
  blockTokens: Record<Provider, number>;
  /** blockTokens / tools. */
  tokensPerTool: Record<Provider, number>;
  /** Share of the context window the block takes (Anthropic serialization). */
  windowShare: number;
  /** Tokens sent over the conversation without caching: turns × block (Anthropic serialization). */
  uncachedConversationTokens: number;
}

export interface TokenTable {
  counter: TokenCounterName;
  contextWindow: number;
  turns: number;
  sample: string;
  rows: TokenTableRow[];
}

/** Evenly spaced positions ⌊i·N/n⌋, i = 0…n−1 (all of them when n ≥ N). */
export function spacedSample(total: number, n: number): number[] {
  if (n >= total) return Array.from({ length: total }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.floor((i * total) / n));
}

export function tokenTable(
  definitions: readonly Definition[],
  opts: { sizes?: readonly number[]; contextWindow?: number; turns?: number; counter?: TokenCounterName } = {},
): TokenTable {
  const sizes = opts.sizes ?? TOKEN_TABLE_SIZES;
  const contextWindow = opts.contextWindow ?? 200_000;
  const turns = opts.turns ?? 12;
  const counter = opts.counter ?? 'o200k';
  const rows = sizes.map((n) => {
    const sample = spacedSample(definitions.length, n).map((i) => definitions[i]!);
    const tools = sample.length;
    const openai = countTokens(serializeTools(sample, 'openai'), counter);
    const anthropic = countTokens(serializeTools(sample, 'anthropic'), counter);
    return {
      tools,
      blockTokens: { openai, anthropic },
      tokensPerTool: { openai: tools ? openai / tools : 0, anthropic: tools ? anthropic / tools : 0 },
      windowShare: anthropic / contextWindow,
      uncachedConversationTokens: anthropic * turns,
    };
  });
  return { counter, contextWindow, turns, sample: 'evenly spaced catalog positions floor(i*N/n)', rows };
}
