/** Moved to `./seed/deferred.ts` (kept so existing imports work). */
export * from './seed/deferred.ts';
