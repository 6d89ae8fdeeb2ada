/**
 * Helpers of the cache corruption tests: damage a file in place, and catch the warnings a cache
 * emits (`process.emitWarning(message, 'warning')`, printed by Node as `(node:PID) warning: …`).
 */
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { vi } from 'vitest';

/** Invert the byte at each offset of `file`. */
export function flipBytes(file: string, offsets: readonly number[]): void {
  const b = readFileSync(file);
  for (const o of offsets) {
    if (o >= b.length) throw new RangeError(`offset ${o} past the ${b.length} bytes of ${file}`);
    b[o] = b[o]! ^ 0xff;
  }
  writeFileSync(file, b);
}

/** Append `n` bytes (a partial record: a write that stopped half-way). */
export function appendPartial(file: string, n: number): void {
  appendFileSync(file, Buffer.alloc(n, 0x5a));
}

/** Cut `file` to `length` bytes. */
export function truncateTo(file: string, length: number): void {
  truncateSync(file, length);
}

/** The warnings `fn` emits, as Node prints them after `(node:PID) `: `warning: …`. */
export function warningsOf<T>(fn: () => T): { value: T; warnings: string[] } {
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    const value = fn();
    return { value, warnings: spy.mock.calls.map(([message, type]) => `${typeof type === 'string' ? type : 'Warning'}: ${String(message)}`) };
  } finally {
    spy.mockRestore();
  }
}

/** The warning a cache gives for `n` bad records of `file`. */
export function corruptLine(n: number, file: string): string {
  return `warning: ${n} cache records of ${file} were corrupt and were recomputed`;
}

/** `warningsOf` for an async `fn`. */
export async function warningsOfAsync<T>(fn: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    const value = await fn();
    return { value, warnings: spy.mock.calls.map(([message, type]) => `${typeof type === 'string' ? type : 'Warning'}: ${String(message)}`) };
  } finally {
    spy.mockRestore();
  }
}
