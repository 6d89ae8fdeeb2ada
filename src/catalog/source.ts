/**
 * Where an evaluation's cases and catalog came from (recorded in results.json as
 * `dataset.source`), so `merge`, worker threads and people can find them again. In catalog/
 * because the readers of inputs (the snapshot of an mcpServers configuration among them) name
 * their source with it; eval/results.ts re-exports it as part of the results format.
 */
export type DatasetSource =
  | { kind: 'dataset'; ref: string; split: string | null }
  | { kind: 'files'; catalog: string; cases: string; format: string | null; skills?: string | null };
