import { describe, expect, it } from 'vitest';
import { mapLimit, retryAfterMs } from './http-json.ts';

describe('retryAfterMs', () => {
  it('reads delta seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-12-07T10:00:00Z');
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs(' 2.5 ', now)).toBe(2500);
    expect(retryAfterMs('Mon, 07 Dec 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 07 Dec 2026 09:00:00 GMT', now)).toBe(0); // in the past: no wait
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('mapLimit', () => {
  it('keeps item order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (x) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, x));
      running--;
      return x * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
  });

  it('stops starting items after a failure and throws it', async () => {
    const started: number[] = [];
    await expect(
      mapLimit([1, 2, 3, 4, 5], 1, async (x) => {
        started.push(x);
        if (x === 2) throw new Error('two failed');
        return x;
      }),
    ).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2]);
  });
});
