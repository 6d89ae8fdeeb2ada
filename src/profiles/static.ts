/** Moved to `./seed/static.ts` (kept so existing imports work). */
export * from './seed/static.ts';
