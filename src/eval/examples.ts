/**
 * Example-augmented indexes: each tool's `examples` get the requests of the cases of one split
 * (usually `train`) whose gold it is, and only another split (`test`) is evaluated. A case used as
 * an example is never scored: the two splits are disjoint by construction, and `augmentCatalog`
 * refuses to run on overlapping ones.
 */
import { InputError, setting } from '../util/errors.ts';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';

export interface ExamplesConfig {
  /** The split whose requests become tool examples. */
  from: string;
  /** At most this many added examples per tool (the first ones in dataset order). */
  perTool: number;
}

/**
 * The catalog with up to `perTool` requests of the `from` split added to each gold tool's
 * examples (single-gold cases only: a multi-tool request is not an example of one tool), and the
 * cases left to score: those of `scoreSplit`.
 */
export function augmentCatalog(
  catalog: Catalog,
  cases: readonly Case[],
  examples: ExamplesConfig,
  scoreSplit: string,
): { catalog: Catalog; scored: Case[]; added: number } {
  if (examples.from === scoreSplit)
    throw new InputError(
      `${setting('examplesFrom')} ${examples.from} and ${setting('split')} ${scoreSplit} are the same split: every scored case would also be an example`,
    );
  const byTool = new Map<string, string[]>();
  for (const c of cases) {
    if ((c.split ?? 'test') !== examples.from || c.expectedTools?.length !== 1) continue;
    const id = c.expectedTools[0]!;
    const list = byTool.get(id) ?? [];
    if (list.length < examples.perTool) list.push(c.request);
    byTool.set(id, list);
  }
  let added = 0;
  const tools = catalog.tools.map((t) => {
    const extra = byTool.get(t.id);
    if (!extra?.length) return t;
    added += extra.length;
    const { hash: _h, ...rest } = t;
    return makeTool({ ...rest, examples: [...t.examples, ...extra] });
  });
  const scored = cases.filter((c) => (c.split ?? 'test') === scoreSplit);
  return { catalog: { ...catalog, tools }, scored, added };
}
