/**
 * What the main job (`backpack run`) evaluates by default: its retrievers, then its profiles (the
 * baseline, the four harnesses and the seed's strategies). The run command takes its defaults from
 * here, and the reports give these names their fixed colours (`report/colours.ts`).
 */
export const MAIN_JOB_RETRIEVERS: readonly string[] = ['bm25', 'bm25-plain', 'hybrid', 'namespace'];

export const MAIN_JOB_PROFILES: readonly string[] = [
  'static',
  'codex',
  'claude-code',
  'hermes',
  'hermes-raw',
  'deepseek-code',
  'deferred',
  'semantic-retrieval',
  'namespace-routing',
  'gated-sticky-deferred',
  'routed-deferred',
];
