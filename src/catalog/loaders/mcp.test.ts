import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir, writeJsonFile } from '../../../test/helpers.ts';
import { loadMcpBundle, loadMcpFolder, loadMcpToolsList, serverNameFromFile } from './mcp.ts';

const tmp = tempDir('mcp');

describe('loadMcpToolsList', () => {
  const file = join(FIXTURES, 'catalogs/mcp/github.json');

  it('reads a JSON-RPC tools/list response, naming the server after the file', () => {
    const c = loadMcpToolsList(file);
    expect(c.tools.map((t) => t.id)).toEqual(['mcp__github__search_code', 'mcp__github__create_issue', 'mcp__github__get_me']);
    expect(c.servers).toEqual([{ name: 'github', source: 'mcp', description: '', instructions: '' }]);
    const [search, create, me] = c.tools;
    expect(search).toMatchObject({
      name: 'search_code',
      source: 'mcp',
      server: 'github',
      namespace: 'github',
      title: 'Search code',
      scopes: [],
      pinned: false,
    });
    expect(search!.summary).toBe('Search for code across GitHub repositories.');
    expect(search!.annotations).toEqual({ readOnlyHint: true });
    expect(search!.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search!.inputSchema.properties as object)).toEqual(['query', 'perPage']);
    expect(create!.title).toBe('Create issue'); // from annotations.title
    expect(me!.summary).toBe('Get details of the authenticated GitHub user');
    expect(me!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes the server name from the option, normalising spaces and dots', () => {
    expect(loadMcpToolsList(file, { server: 'gh' }).tools[0]!.id).toBe('mcp__gh__search_code');
    expect(loadMcpToolsList(file, { server: ' My Server.v2 ' }).servers[0]!.name).toBe('My_Server_v2');
    const err = inputError(() => loadMcpToolsList(file, { server: 'a/b' }));
    expect(err.message).toContain('server name "a/b" is not valid for tool ids');
    expect(err.where).toBe('option "server"');
    expect(inputError(() => loadMcpToolsList(file, { server: 'a__b' })).message).toContain('contains "__"');
  });

  it('strips .json and a .tools suffix from file names', () => {
    expect(serverNameFromFile('/x/github.tools.json')).toBe('github');
    expect(serverNameFromFile('fs.json')).toBe('fs');
  });

  it('rejects a duplicate tool id, naming both places', () => {
    const f = join(FIXTURES, 'faulty/duplicate-tool.json');
    const message = `duplicate tool id "mcp__duplicate-tool__search" (first defined at ${f}: $.tools[0])`;
    expect(inputError(() => loadMcpToolsList(f))).toMatchObject({ message, file: f, where: '$.tools[2]' });
  });

  it('requires inputSchema', () => {
    const f = join(FIXTURES, 'faulty/missing-input-schema.json');
    const message = expect.stringContaining('tool "ping" has no "inputSchema"');
    expect(inputError(() => loadMcpToolsList(f))).toMatchObject({ message, file: f, where: '$.tools[0].inputSchema' });
  });

  it('requires a non-empty name', () => {
    const f = writeJsonFile(join(tmp, 'noname.json'), {
      tools: [
        { name: 'ok', inputSchema: { type: 'object' } },
        { name: '  ', inputSchema: { type: 'object' } },
      ],
    });
    const err = inputError(() => loadMcpToolsList(f));
    expect(err.message).toBe('tool "name" is empty');
    expect(err.where).toBe('$.tools[1].name');
    writeFileSync(f, JSON.stringify({ result: { tools: [{ inputSchema: { type: 'object' } }] } }));
    const err2 = inputError(() => loadMcpToolsList(f));
    expect(err2.message).toBe('tool "name" must be a string (got nothing)');
    expect(err2.where).toBe('$.result.tools[0].name');
  });

  it('reports a missing file and invalid JSON', () => {
    const missing = join(tmp, 'nope.json');
    const err = inputError(() => loadMcpToolsList(missing));
    expect(err.message).toBe('file not found');
    expect(err.file).toBe(missing);
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{"tools": [');
    expect(inputError(() => loadMcpToolsList(bad)).message).toMatch(/^invalid JSON/);
  });
});

describe('loadMcpFolder', () => {
  it('reads one server per file, in file-name order, keeping same-named tools apart', () => {
    const c = loadMcpFolder(join(FIXTURES, 'catalogs/mcp-folder'));
    expect(c.servers.map((s) => s.name)).toEqual(['filesystem', 'github']);
    expect(c.servers[0]!.instructions).toBe('Only paths inside the allowed directories can be read or written.');
    expect(c.tools.map((t) => t.id)).toEqual([
      'mcp__filesystem__read_file',
      'mcp__filesystem__search',
      'mcp__filesystem__write_file',
      'mcp__github__search',
      'mcp__github__read_file',
      'mcp__github__create_pull_request',
    ]);
    const reads = c.tools.filter((t) => t.name === 'read_file');
    expect(reads.map((t) => t.server)).toEqual(['filesystem', 'github']);
    expect(reads[0]!.hash).not.toBe(reads[1]!.hash);
    expect(reads[0]!.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('rejects two files naming the same server', () => {
    const dir = mkdtempSync(join(tmp, 'dup-'));
    writeFileSync(join(dir, 'github.json'), JSON.stringify({ tools: [] }));
    writeFileSync(join(dir, 'github.tools.json'), JSON.stringify({ tools: [] }));
    const err = inputError(() => loadMcpFolder(dir));
    expect(err.message).toBe(`server "github" is defined twice (first by ${join(dir, 'github.json')})`);
    expect(err.file).toBe(join(dir, 'github.tools.json'));
  });

  it('rejects a folder without json files', () => {
    const dir = mkdtempSync(join(tmp, 'empty-'));
    expect(inputError(() => loadMcpFolder(dir)).message).toContain('no *.json files');
  });
});

describe('loadMcpBundle', () => {
  it('reads servers with descriptions and instructions', () => {
    const c = loadMcpBundle(join(FIXTURES, 'catalogs/mcp-bundle.json'));
    expect(c.servers).toEqual([
      {
        name: 'slack',
        source: 'mcp',
        description: 'Read and post messages in a Slack workspace.',
        instructions: 'Prefer threads when replying to an existing message.',
      },
      { name: 'Jira_Cloud', source: 'mcp', description: 'Issues and sprints in Jira Cloud.', instructions: '' },
      { name: 'time', source: 'mcp', description: '', instructions: '' },
    ]);
    expect(c.tools.map((t) => t.id)).toEqual([
      'mcp__slack__post_message',
      'mcp__slack__search',
      'mcp__Jira_Cloud__search',
      'mcp__Jira_Cloud__transition_issue',
      'mcp__time__now',
    ]);
    const jira = c.tools[2]!;
    expect(jira.title).toBe('Search issues with JQL');
    expect(jira.summary).toBe('Search Jira issues with a JQL query!');
    expect(c.tools[3]!.summary).toBe('Move an issue to another status');
    expect(c.tools[4]!.summary).toBe('now'); // empty description: the name stands in
    expect(c.skills).toEqual([]);
  });

  it('reports an invalid input schema at its JSON path', () => {
    const f = join(FIXTURES, 'faulty/invalid-schema.json');
    const err = inputError(() => loadMcpBundle(f));
    expect(err.message).toMatch(/^invalid JSON Schema at properties\.days\.type/);
    expect(err.file).toBe(f);
    expect(err.where).toBe('$.servers[1].tools[4].inputSchema');
  });

  it('rejects duplicate server names and bad server entries', () => {
    const f = join(tmp, 'dupserver.json');
    writeFileSync(
      f,
      JSON.stringify({
        servers: [
          { name: 'a', tools: [] },
          { name: 'a', tools: [] },
        ],
      }),
    );
    const err = inputError(() => loadMcpBundle(f));
    expect(err.message).toBe('duplicate server name "a" (first at $.servers[0].name)');
    expect(err.where).toBe('$.servers[1].name');
    writeFileSync(f, JSON.stringify({ servers: [{ name: 'a' }] }));
    expect(inputError(() => loadMcpBundle(f)).where).toBe('$.servers[0].tools');
  });
});

describe('the real multi-server bundle', () => {
  const c = loadMcpBundle(join(FIXTURES, 'catalogs/mcp-real-bundle.json'));

  it('loads 27 tools of 3 servers with unique ids', () => {
    expect(c.servers.map((s) => s.name)).toEqual(['github', 'sqlite', 'duckdb']);
    expect(c.tools).toHaveLength(27);
    expect(c.tools.filter((t) => t.server === 'github')).toHaveLength(16);
    expect(c.tools.filter((t) => t.server === 'sqlite')).toHaveLength(6);
    expect(c.tools.filter((t) => t.server === 'duckdb')).toHaveLength(5);
    expect(new Set(c.tools.map((t) => t.id)).size).toBe(27);
  });

  it('keeps same-named tools of different servers apart', () => {
    const byName = new Map<string, string[]>();
    for (const t of c.tools) byName.set(t.name, [...(byName.get(t.name) ?? []), t.id]);
    const repeated = [...byName]
      .filter(([, ids]) => ids.length > 1)
      .map(([name]) => name)
      .sort();
    expect(repeated).toEqual(['create-table', 'describe-table', 'list-tables', 'read-query', 'write-query']);
    expect(byName.get('read-query')).toEqual(['mcp__sqlite__read-query', 'mcp__duckdb__read-query']);
    const sqlite = c.tools.find((t) => t.id === 'mcp__sqlite__read-query')!;
    const duck = c.tools.find((t) => t.id === 'mcp__duckdb__read-query')!;
    expect(sqlite.description).toBe('Execute a SELECT query on the SQLite database');
    expect(duck.description).toBe('Execute a SELECT query on the DuckDB database');
    expect(sqlite.hash).not.toBe(duck.hash);
  });

  it('keeps annotations and takes titles from them', () => {
    const search = c.tools.find((t) => t.id === 'mcp__github__search_code')!;
    expect(search.title).toBe('Search code');
    expect(search.annotations).toEqual({ readOnlyHint: true, title: 'Search code' });
    expect(search.summary).toBe("Fast and precise code search across ALL GitHub repositories using GitHub's native search engine.");
    expect(search.scopes).toEqual([]);
  });
});

describe('null optional fields and paged server entries', () => {
  const tool = (name: string) => ({
    name,
    title: null,
    description: null,
    inputSchema: { type: 'object', properties: {} },
    outputSchema: null,
    icons: null,
    annotations: null,
    _meta: null,
  });

  it('reads null optional fields as absent, in a tools/list result and in a bundle', () => {
    const f = join(tmp, 'nulls.json');
    writeFileSync(
      f,
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { _meta: null, nextCursor: null, description: null, instructions: null, tools: [tool('ping')] } }),
    );
    const c = loadMcpToolsList(f);
    expect(c.servers).toEqual([{ name: 'nulls', source: 'mcp', description: '', instructions: '' }]);
    expect(c.tools[0]).toMatchObject({ id: 'mcp__nulls__ping', description: '', summary: 'ping' });
    // absent: undefined in the tool (every tool has every key), not written
    const written = JSON.parse(JSON.stringify(c.tools[0]));
    expect(c.tools[0]!.annotations).toBeUndefined();
    expect(written).not.toHaveProperty('annotations');
    expect(written).not.toHaveProperty('title');
    const b = join(tmp, 'nulls-bundle.json');
    writeFileSync(b, JSON.stringify({ servers: [{ name: 'x', description: null, instructions: null, nextCursor: null, pages: null, tools: [tool('ping')] }] }));
    expect(loadMcpBundle(b).tools[0]!.hash).toBe(loadMcpToolsList(f, { server: 'x' }).tools[0]!.hash);
  });

  it('reads a bundle server given as pages, and refuses one page given as tools', () => {
    const b = join(tmp, 'paged-bundle.json');
    writeFileSync(
      b,
      JSON.stringify({
        servers: [
          {
            name: 'x',
            pages: [
              { tools: [tool('a')], nextCursor: 'c1' },
              { jsonrpc: '2.0', id: 2, result: { tools: [tool('b')], nextCursor: null } },
            ],
          },
        ],
      }),
    );
    expect(loadMcpBundle(b).tools.map((t) => t.id)).toEqual(['mcp__x__a', 'mcp__x__b']);

    writeFileSync(b, JSON.stringify({ servers: [{ name: 'x', nextCursor: 'c1', tools: [tool('a')] }] }));
    const e1 = inputError(() => loadMcpBundle(b));
    expect(e1.message).toContain('"nextCursor": "c1"');
    expect(e1.where).toBe('$.servers[0].nextCursor');

    writeFileSync(b, JSON.stringify({ servers: [{ name: 'x', tools: [tool('a')], pages: [{ tools: [tool('b')] }] }] }));
    const e2 = inputError(() => loadMcpBundle(b));
    expect(e2.message).toBe('server "x" has both "tools" and "pages": give one');
    expect(e2.where).toBe('$.servers[0].pages');

    writeFileSync(b, JSON.stringify({ servers: [{ name: 'x', pages: [{ tools: [tool('a')], nextCursor: 'c1' }] }] }));
    expect(inputError(() => loadMcpBundle(b)).where).toBe('$.servers[0].pages[0].nextCursor');
  });
});
