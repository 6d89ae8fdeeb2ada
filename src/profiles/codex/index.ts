/**
 * Profile `codex` (OpenAI Codex's `tool_search`), by concern: which tools are searched and how
 * (`search.ts`), the world-state `<tools>` namespace fragment (`namespaces.ts`), and the profile
 * with its deferral threshold, `tool_search` definition and output (`profile.ts`).
 */
export * from './namespaces.ts';
export * from './search.ts';
export * from './profile.ts';
export * from './facts.ts';
