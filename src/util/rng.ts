import { createHash } from 'node:crypto';

/**
 * A small seeded PRNG (sfc32) with named sub-streams. `fork('cases')` gives a stream that depends
 * only on the seed and the label, so adding draws to one part of the generator never shifts
 * another part's output. Nothing in the generator may use `Math.random`.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  readonly label: string;

  constructor(seed: number | string, label = 'root') {
    this.label = label;
    const h = createHash('sha256').update(`${seed}\u0000${label}`).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    this.seedKey = `${seed}`;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  private readonly seedKey: string;

  /** An independent stream for `label` (same seed and label → same stream). */
  fork(label: string): Rng {
    return new Rng(this.seedKey, `${this.label}/${label}`);
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error(`Rng.pick from an empty list (${this.label})`);
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Pick by weight (weights ≥ 0, not all 0). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `n` distinct items (or all, if fewer), in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.min(n, items.length));
  }
}
