/** The shapes real MCP servers and provider APIs emit (fixtures/real-mcp/, see its README.md). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir, writeJsonFile } from '../../../test/helpers.ts';
import { DRAFT_2020_12 } from '../schema-drafts.ts';
import { detectCatalogFormat, loadCatalog } from './registry.ts';

const REAL = join(FIXTURES, 'real-mcp');
const tmp = tempDir('real-mcp');

/** Load `name` from fixtures/real-mcp, collecting the warnings. */
function load(name: string): { catalog: ReturnType<typeof loadCatalog>; warnings: string[] } {
  const warnings: string[] = [];
  const catalog = loadCatalog(join(REAL, name), { onWarning: (w) => warnings.push(w) });
  return { catalog, warnings };
}

describe('a Python client dump of real MCP servers', () => {
  const file = join(REAL, 'python-client-dump.json');

  it('loads every server and tool as written, nulls read as absent, with no warning', () => {
    expect(detectCatalogFormat(file)).toBe('mcp-bundle');
    const { catalog, warnings } = load('python-client-dump.json');
    expect(warnings).toEqual([]);
    expect(catalog.servers.map((s) => `${s.name}:${catalog.tools.filter((t) => t.server === s.name).length}`)).toEqual([
      'everything:13',
      'memory:9',
      'filesystem:14',
      'github:26',
      'gitlab:9',
      'slack:8',
      'brave-search:2',
      'google-maps:7',
      'sequential-thinking:1',
      'puppeteer:7',
      'postgres:1',
      'everart:1',
      'aws-kb-retrieval:1',
      'playwright:25',
    ]);
    expect(catalog.tools).toHaveLength(124);
    expect(catalog.servers.find((s) => s.name === 'github')).toEqual({ name: 'github', source: 'mcp', description: '', instructions: '' });
    expect(catalog.servers.find((s) => s.name === 'everything')!.instructions).toMatch(/^# Everything Server/);
    const byId = new Map(catalog.tools.map((t) => [t.id, t]));
    // "annotations": null → no annotations; an annotations object keeps only its non-null hints
    expect(byId.get('mcp__github__create_or_update_file')!.annotations).toBeUndefined();
    expect(byId.get('mcp__filesystem__read_text_file')).toMatchObject({ title: 'Read Text File', annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(Object.keys(byId.get('mcp__filesystem__read_text_file')!.annotations!)).toEqual(['readOnlyHint', 'openWorldHint']);
    expect(byId.get('mcp__github__create_or_update_file')!.title).toBeUndefined(); // "title": null
    // draft-07 schemas as zod emits them are kept as they are
    expect(byId.get('mcp__github__list_commits')!.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });
});

describe('older JSON Schema drafts', () => {
  it('normalises draft-04 forms to 2020-12 and warns once for the catalog', () => {
    const { catalog, warnings } = load('draft04-tools-list.json');
    expect(catalog.tools.map((t) => t.name)).toEqual(['maps_search_places', 'maps_geocode', 'maps_elevation']);
    expect(warnings).toEqual([
      '1 tool uses older JSON Schema forms: draft-04 boolean exclusiveMinimum/exclusiveMaximum, draft-04 "id" (first: mcp__draft04-tools-list__maps_search_places at $.tools[0].inputSchema); normalised to 2020-12',
    ]);
    const search = catalog.tools[0]!.inputSchema as { $schema: string; $id: string; properties: Record<string, unknown> };
    expect(search.$schema).toBe(DRAFT_2020_12);
    expect(search.$id).toBe('https://example.invalid/maps_search_places.json');
    expect(search.properties.radius).toEqual({ type: 'number', description: 'Search radius in meters (max 50000)', exclusiveMinimum: 0, maximum: 50000 });
    // a draft-04 `$schema` with no draft-04 form in the schema needs no change
    expect(catalog.tools[1]!.inputSchema.$schema).toBe('http://json-schema.org/draft-04/schema#');
  });

  it('counts every tool that used older forms in one warning, naming the first', () => {
    const raw = JSON.parse(readFileSync(join(REAL, 'draft04-tools-list.json'), 'utf8')) as {
      tools: Array<{ name: string; inputSchema: Record<string, unknown> }>;
    };
    const more = {
      servers: [
        { name: 'a', tools: raw.tools },
        {
          name: 'b',
          tools: raw.tools.map((t) => ({
            ...t,
            inputSchema: { ...t.inputSchema, properties: { xy: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } },
          })),
        },
      ],
    };
    const f = join(tmp, 'bundle.json');
    writeFileSync(f, JSON.stringify(more));
    const warnings: string[] = [];
    expect(loadCatalog(f, { onWarning: (w) => warnings.push(w) }).tools).toHaveLength(6);
    expect(warnings).toEqual([
      '4 tools use older JSON Schema forms: draft-04 boolean exclusiveMinimum/exclusiveMaximum, draft-04 "id", array-form "items" (drafts 04 to 2019-09) (first: mcp__a__maps_search_places at $.servers[0].tools[0].inputSchema); normalised to 2020-12',
    ]);
  });

  it('reads draft-06 as it is and brings 2019-09 array-form items to 2020-12', () => {
    const { catalog, warnings } = load('draft06-2019-09-tools-list.json');
    const [hist, click] = catalog.tools;
    expect(hist!.inputSchema.$schema).toBe('http://json-schema.org/draft-06/schema#');
    expect((hist!.inputSchema.properties as Record<string, unknown>).limit).toMatchObject({ exclusiveMinimum: 0 });
    expect(click!.inputSchema.$schema).toBe(DRAFT_2020_12);
    expect((click!.inputSchema.properties as Record<string, unknown>).offset).toMatchObject({
      prefixItems: [{ type: 'number' }, { type: 'number' }],
      items: false,
    });
    expect(warnings).toEqual([
      '1 tool uses older JSON Schema forms: array-form "items" (drafts 04 to 2019-09) (first: mcp__draft06-2019-09-tools-list__puppeteer_click at $.tools[1].inputSchema); normalised to 2020-12',
    ]);
  });

  it('still refuses what cannot be read, at its JSON path', () => {
    const f = writeJsonFile(join(tmp, 'bad.json'), {
      tools: [
        { name: 'ok', inputSchema: { type: 'object' } },
        { name: 's', annotations: null, inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' } },
      ],
    });
    const e1 = inputError(() => loadCatalog(f));
    expect(e1.message).toBe('input schema must describe an object (type is "string")');
    expect([e1.file, e1.where]).toEqual([f, '$.tools[1].inputSchema']);
    writeFileSync(
      f,
      JSON.stringify({ tools: [{ name: 'n', inputSchema: { type: 'object', properties: { x: { minimum: 'zero', exclusiveMinimum: true } } } }] }),
    );
    const e2 = inputError(() => loadCatalog(f));
    expect(e2.message).toMatch(/^invalid JSON Schema at properties\.x\.exclusiveMinimum: must be number/);
    expect(e2.where).toBe('$.tools[0].inputSchema');
    writeFileSync(f, JSON.stringify({ tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: 'read-only' }] }));
    const e3 = inputError(() => loadCatalog(f));
    expect(e3.message).toBe('tool "a": "annotations" must be an object (got a string)');
    expect(e3.where).toBe('$.tools[0].annotations');
  });
});

describe('tools/list pagination', () => {
  it('refuses one page of several, naming the cursor and how to get every page', () => {
    const f = join(REAL, 'tools-list-page.json');
    const err = inputError(() => loadCatalog(f));
    expect(err.message).toContain('it has "nextCursor": "4", so the server has more tools');
    expect(err.message).toContain('`backpack snapshot`');
    expect([err.file, err.where]).toEqual([f, '$.nextCursor']);
  });

  it('reads an array of every page (JSON-RPC responses) in order', () => {
    const f = join(REAL, 'tools-list-pages.json');
    expect(detectCatalogFormat(f)).toBe('mcp-tools-list');
    const { catalog, warnings } = load('tools-list-pages.json');
    expect(warnings).toEqual([]);
    expect(catalog.tools.map((t) => t.name)).toEqual([
      'create_entities',
      'create_relations',
      'add_observations',
      'delete_entities',
      'delete_observations',
      'delete_relations',
      'read_graph',
      'search_nodes',
      'open_nodes',
    ]);
    expect(catalog.tools[4]!.id).toBe('mcp__tools-list-pages__delete_observations');
  });

  it('refuses an array of pages that is not one whole listing', () => {
    const pages = JSON.parse(readFileSync(join(REAL, 'tools-list-pages.json'), 'utf8')) as unknown[];
    const f = join(tmp, 'pages.json');
    writeFileSync(f, JSON.stringify([pages[0]]));
    expect(inputError(() => loadCatalog(f)).where).toBe('$[0].result.nextCursor');
    writeFileSync(f, JSON.stringify([pages[1], pages[1]]));
    const e = inputError(() => loadCatalog(f));
    expect(e.message).toBe('page 1 of 2 has no "nextCursor", yet pages follow it: the pages of one listing end with the only page without a cursor');
    expect(e.where).toBe('$[0].result');
  });
});

describe('provider request bodies', () => {
  it('tells OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and MCP tools/list apart', () => {
    expect(detectCatalogFormat(join(REAL, 'openai-chat-request.json'))).toBe('openai');
    expect(detectCatalogFormat(join(REAL, 'openai-responses-request.json'))).toBe('openai');
    expect(detectCatalogFormat(join(REAL, 'anthropic-messages-request.json'))).toBe('anthropic');
    expect(detectCatalogFormat(join(REAL, 'draft04-tools-list.json'))).toBe('mcp-tools-list');
  });

  it('keeps the function tools of a Chat Completions body and skips its custom tool', () => {
    const { catalog, warnings } = load('openai-chat-request.json');
    expect(catalog.tools.map((t) => t.id)).toEqual(['list_commits', 'read_text_file']);
    expect(warnings).toEqual(['skipped 1 OpenAI tool that is not a function (built-in or custom): custom']);
  });

  it('keeps the function tools of a Responses body and skips the built-in ones with one warning', () => {
    const { catalog, warnings } = load('openai-responses-request.json');
    expect(catalog.tools.map((t) => [t.id, t.source])).toEqual([
      ['list_directory', 'core'],
      ['brave_web_search', 'core'],
    ]);
    expect(catalog.tools[1]!.description).toBe(''); // "description": null
    expect(warnings).toEqual(['skipped 4 OpenAI tools that are not functions (built-in or custom): web_search_preview, file_search, code_interpreter, mcp']);
  });

  it('keeps the custom tools of a Messages body and skips the server and client tools with one warning', () => {
    const { catalog, warnings } = load('anthropic-messages-request.json');
    expect(catalog.tools.map((t) => t.id)).toEqual(['read_text_file', 'list_commits']);
    expect(warnings).toEqual(['skipped 3 Anthropic server/client tools: web_search_20250305, bash_20250124, text_editor_20250728']);
  });
});

describe("a request body that is neither provider's", () => {
  it('is not taken for an MCP listing', () => {
    const f = join(tmp, 'empty-body.json');
    writeFileSync(f, JSON.stringify({ model: 'gpt-4.1', messages: [], tools: [] }));
    expect(detectCatalogFormat(f)).toBeUndefined();
    expect(inputError(() => loadCatalog(f)).message).toContain('cannot tell the catalog format of this file');
  });
});
