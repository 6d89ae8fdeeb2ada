/** Moved to `./seed/index.ts` (kept so existing imports work). */
export * from './seed/index.ts';
