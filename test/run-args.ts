/** The arguments of `backpack run` on the tiny preset that the kill tests use (test/kill.test.ts, test/fuzz/kill-series.test.ts). */

/** `backpack run` on the tiny preset, seed `seed`, into `dataset` and `results`. */
export function tinyRunArgs(seed: number, dataset: string, results: string, format = 'html,md,junit'): string[] {
  return [
    'run',
    '--preset',
    'tiny',
    '--seed',
    String(seed),
    '--out',
    dataset,
    '--results',
    results,
    // one retriever and one profile, fixed floors, no PNG charts: every stage is reached (the kill
    // points do not depend on what is evaluated or drawn) at a fraction of the work
    '--retrievers',
    'bm25',
    '--profiles',
    'deferred',
    '--floor',
    'none',
    '--workers',
    '1',
    '--format',
    format,
    '--quiet',
  ];
}

/** `eval`'s arguments for scoring `dataset`'s test split with floors calibrated (`auto`) on its train split. */
export function calibratedEvalArgs(dataset: string): string[] {
  return ['--dataset', dataset, '--split', 'test', '--calibrate-on', 'train', '--floor', 'auto'];
}
