/**
 * Scope leaks: tools a retriever returned that the caller's scopes do not allow. Any leak is a bug,
 * so leaks are summed over cases into a count (`scopeLeakCount`), never averaged into a rate that
 * a large case set would dilute.
 */

/** Check one case's leak count: a non-negative integer. Returns it. */
export function checkScopeLeaks(leaks: number, caseId: string): number {
  if (!Number.isInteger(leaks) || leaks < 0) {
    throw new Error(`case ${caseId}: scopeLeaks must be a non-negative integer, got ${leaks}`);
  }
  return leaks;
}

/** scopeLeakCount: the sum of the per-case leak counts, in case order (0 for no cases). */
export function scopeLeakCount(perCase: readonly number[]): number {
  let sum = 0;
  for (const n of perCase) sum += n;
  return sum;
}
