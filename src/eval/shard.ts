import { InputError, setting } from '../util/errors.ts';
import type { Case } from '../catalog/types.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parse `i/n` (1 ≤ i ≤ n). */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new InputError(`${setting('shard')} must be i/n with 1 ≤ i ≤ n (got "${text}")`);
  return { index, count };
}

/** FNV-1a, 32 bits: a stable hash for assigning cases to shards. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The cases of a shard: a deterministic 1/n by a hash of the session id (or the case id when the
 * case has no session), so a session's turns stay together. Order is kept.
 */
export function casesOfShard(cases: readonly Case[], shard: Shard | null): Case[] {
  if (!shard || shard.count === 1) return [...cases];
  return cases.filter((c) => fnv1a(c.sessionId ?? c.id) % shard.count === shard.index - 1);
}
