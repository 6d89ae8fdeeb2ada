/**
 * Profiles `claude-code` and `claude-code-auto` (Claude Code's `ToolSearch`), by concern: settings
 * (`config.ts`), the keyword search (`search.ts`), the admitted set above the 10,000-tool ceiling
 * (`prefilter.ts`), what the model and the wire carry (`advertisement.ts`), and the profile
 * (`profile.ts`).
 */
export * from './config.ts';
export * from './advertisement.ts';
export * from './prefilter.ts';
export * from './search.ts';
export * from './profile.ts';
export * from './facts.ts';
