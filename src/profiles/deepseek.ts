/** Moved to `./deepseek/` (kept so existing imports work). */
export * from './deepseek/index.ts';
