/**
 * What an `mcpServers` configuration looks like, told without reading it for real: the one check the
 * catalog format table needs (it must stay cheap and free of the MCP SDK).
 *
 *  - Claude Desktop, Cursor, Claude Code: `{"mcpServers":{"<name>":{…}}}`;
 *  - VS Code: `{"servers":{"<name>":{…}}}` — an object, where Backpack's own bundle has a
 *    `servers` array.
 */

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** True if `value` is an `mcpServers` configuration (Claude Desktop, Cursor, Claude Code or VS Code). */
export function isMcpConfigShape(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (isPlainObject(value.mcpServers)) return true;
  return isPlainObject(value.servers) && Object.values(value.servers).every(isPlainObject);
}

/** The message of the sync catalog loader: a configuration names servers, it holds no tools. */
export const CONFIG_NEEDS_SNAPSHOT =
  'an mcpServers configuration names servers, it holds no tools: the servers must be started and listed first. ' +
  'eval --catalog and diff do that by themselves; elsewhere run `backpack snapshot --config FILE --out bundle.json` and use the bundle (docs/snapshot.md)';
