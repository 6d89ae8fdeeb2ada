/**
 * Profiles `deepseek`, `deepseek-code` and `deepseek-code-preselect` (the DeepSeek Harness): the
 * profiles (`profile.ts`) and their described facts (`facts.ts`).
 */
export * from './profile.ts';
export * from './facts.ts';
