/**
 * A profile's description as data: the facts its `describe()` returns (recorded in `results.json`
 * under `profiles.<name>.config`), written once per harness in its `facts.ts`, with the upstream
 * source of each fact beside them. `describe()` copies the data and sets in the values only the
 * run knows (its name, options, catalog counts); docs/harness-facts.md explains the facts in words.
 */

/** Where one fact comes from: what it is, and the upstream source (repository path and commit, or documentation URL). */
export interface Source {
  readonly what: string;
  readonly where: string;
}

/** A description template (what `describe()` returns) and the sources of its facts. */
export interface Facts<D extends Record<string, unknown> = Record<string, unknown>> {
  /** What `describe()` returns, key order included; {@link RUN} marks a value the run sets. */
  readonly description: D;
  readonly sources: readonly Source[];
}

/** Placeholder in a description template for a value `describe()` sets from the run. */
export const RUN = null;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
  return v;
}

/**
 * A fresh copy of `template` with `values` set in: a key of the template keeps its position (an
 * object value given for an object in the template is merged into it the same way), a key the
 * template lacks goes last.
 */
export function describeWith(template: Readonly<Record<string, unknown>>, values: Record<string, unknown> = {}): Record<string, unknown> {
  const out = copy(template) as Record<string, unknown>;
  for (const [k, v] of Object.entries(values)) {
    const t = out[k];
    out[k] = isPlainObject(t) && isPlainObject(v) ? describeWith(t, v) : v;
  }
  return out;
}
