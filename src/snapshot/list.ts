/**
 * Paging through an MCP list method (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`): the MCP specification's cursor-based pagination — ask again with the
 * `nextCursor` of the last page until a page has none (absent, null or `""`). A server that hands back a cursor it already
 * gave, or more than `maxPages` pages, is an error (it would never end).
 */

export interface Page<T> {
  items: T[];
  nextCursor?: string | null | undefined;
}

export interface Listed<T> {
  items: T[];
  pages: number;
}

export const MAX_PAGES = 10_000;

/** Every item of a paginated list, in the order the server listed them. */
export async function listAll<T>(method: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>, maxPages = MAX_PAGES): Promise<Listed<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await fetchPage(cursor);
    pages++;
    items.push(...page.items);
    const next = page.nextCursor;
    // An empty cursor ends the list too, as the file loader's `cursorOf` reads it (src/catalog/loaders/mcp.ts).
    if (next === undefined || next === null || next === '') return { items, pages };
    if (seen.has(next)) throw new Error(`${method}: the server returned cursor ${JSON.stringify(next.slice(0, 40))} twice (its pagination loops)`);
    if (pages >= maxPages) throw new Error(`${method}: more than ${maxPages} pages`);
    seen.add(next);
    cursor = next;
  }
}
