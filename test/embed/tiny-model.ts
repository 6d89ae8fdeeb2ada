/**
 * A tiny random static encoder for tests, written at test time through the same writer as the
 * committed model and loaded through the real transformers.js pipeline.
 */
import { join } from 'node:path';
import { SPECIAL_TOKENS, writeStaticModel, type StaticModelDtype, type StaticModelSpec } from '../../src/retrievers/embed/static-model.ts';
export { prng } from '../prng.ts';
import { prng } from '../prng.ts';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'su', 'do', 'fa', 'gu', 'hi', 'je', 'wo', 'be', 'cy'];

/** `count` distinct lowercase pseudo-words: ka, lo, …, kaka, kalo, … */
export function tinyWords(count: number): string[] {
  const words: string[] = [];
  for (let len = 1; words.length < count; len++) {
    const idx = new Array<number>(len).fill(0);
    for (;;) {
      words.push(idx.map((i) => SYLLABLES[i]).join(''));
      if (words.length >= count) break;
      let p = len - 1;
      while (p >= 0 && ++idx[p]! === SYLLABLES.length) idx[p--] = 0;
      if (p < 0) break;
    }
  }
  return words;
}

export interface TinyModelOptions {
  seed?: number;
  words?: number;
  hidden?: number;
  /** Give `[CLS]`/`[SEP]` random rows (default) or zero rows (so a text of unknown words is a zero vector). */
  specialRows?: 'random' | 'zero';
  dtype?: StaticModelDtype;
}

/** The spec of a tiny model: the special tokens, `.`, `,`, `_`, then `words` pseudo-words; rows uniform in [-1, 1). */
export function tinySpec(o: TinyModelOptions = {}): StaticModelSpec & { words: string[] } {
  const rand = prng(o.seed ?? 1);
  const hidden = o.hidden ?? 16;
  const words = tinyWords(o.words ?? 300);
  const tokens = [...SPECIAL_TOKENS, '.', ',', '_', ...words];
  const table = new Float32Array(tokens.length * hidden);
  for (let r = 0; r < tokens.length; r++) {
    const t = tokens[r]!;
    const zero = t === '[PAD]' || t === '[UNK]' || t === '[MASK]' || ((t === '[CLS]' || t === '[SEP]') && o.specialRows === 'zero');
    for (let j = 0; j < hidden; j++) table[r * hidden + j] = zero ? 0 : rand() * 2 - 1;
  }
  return { tokens, table, hidden, dtype: o.dtype ?? 'q8', words };
}

/** Write a tiny model into `<parent>/<name>` and return its folder and spec. */
export function writeTinyModel(parent: string, name: string, o: TinyModelOptions = {}): { dir: string; spec: ReturnType<typeof tinySpec> } {
  const spec = tinySpec(o);
  const dir = join(parent, name);
  writeStaticModel(dir, spec);
  return { dir, spec };
}
