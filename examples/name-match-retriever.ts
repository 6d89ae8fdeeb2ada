/**
 * A retriever a user could add to Backpack: it ranks tools by how many request words appear in
 * the tool's name. One file; to register it, add one entry to RETRIEVERS in
 * src/retrievers/registry.ts (see CONTRIBUTING.md). test/examples.test.ts registers it at run time
 * and runs it through the evaluation, so this example keeps working.
 */
import type { Catalog } from '../src/catalog/types.ts';
import { rankStable } from '../src/retrievers/rank.ts';
import type { Hit, Retriever, SearchContext } from '../src/retrievers/types.ts';

export class NameMatchRetriever implements Retriever {
  private names: string[][] = [];
  private ids: string[] = [];

  constructor(readonly name: string) {}

  async index(catalog: Catalog): Promise<void> {
    this.ids = catalog.tools.map((t) => t.id);
    this.names = catalog.tools.map((t) =>
      t.name
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
    );
  }

  async search(request: string, ctx: SearchContext): Promise<Hit[]> {
    const words = new Set(request.toLowerCase().split(/[^a-z0-9]+/));
    const hits: Hit[] = [];
    this.names.forEach((parts, i) => {
      if (ctx.allowed && ctx.allowed[i] !== 1) return; // the scope filter comes first: never score a forbidden tool
      const score = parts.filter((p) => words.has(p)).length;
      if (score > 0) hits.push({ id: this.ids[i]!, score });
    });
    return rankStable(hits).slice(0, ctx.k); // the one tie-break: score, then tool id
  }
}
