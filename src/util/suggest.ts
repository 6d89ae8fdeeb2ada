/** Levenshtein distance, for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * Up to `max` candidates close to `name` (edit distance at most a third of its length, or sharing
 * its last `__` segment), nearest first, ties by name: the one "did you mean" rule of the project.
 */
export function closestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  const tail = name.split('__').pop() ?? name;
  const scored: Array<[number, string]> = [];
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d <= limit) scored.push([d, c]);
    else if (tail.length > 2 && c.endsWith(`__${tail}`)) scored.push([limit + 1, c]);
  }
  scored.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  return scored.slice(0, max).map(([, c]) => c);
}

/** ` (did you mean a, b?)` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestNames(name, candidates);
  return close.length ? ` (did you mean ${close.join(', ')}?)` : '';
}
