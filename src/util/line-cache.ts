/**
 * Per-line memos for long texts that are rebuilt many times with most lines in common (a catalog
 * listing built once per caller): each line is looked up as a slice of the text (no copy), and a
 * line kept as a key is copied first, so a memo never holds a whole text alive through a slice.
 */

/** Calls `each` with the lines of `text` in order, each with its newline (the last without one; none for an empty text). */
export function forEachLine(text: string, each: (line: string) => void): void {
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl + 1;
    each(text.slice(start, end));
    start = end;
  }
}

/** A copy of `s` that shares no memory with the string it was sliced from (every code unit kept). */
export function detached(s: string): string {
  return s.length < 16 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}

/** A memo from line to value that holds at most `limit` lines (it starts again when full). */
export class LineMemo<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly limit: number) {}

  /** The memo of `line`, computed by `make` (and kept) the first time. */
  of(line: string, make: (line: string) => V): V {
    let v = this.map.get(line);
    if (v === undefined) {
      v = make(line);
      if (this.map.size >= this.limit) this.map.clear();
      this.map.set(detached(line), v);
    }
    return v;
  }
}
