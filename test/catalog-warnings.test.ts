/** The CLI prints a catalog loader's warnings once, on stderr, and still refuses what it cannot read. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir, runCli } from './helpers.ts';

const REAL = join(FIXTURES, 'real-mcp');
const tmp = tempDir('catalog-warnings');

const run = runCli;

/** `backpack eval` of `cases` over `catalog` with bm25, quietly, into `out` under the test folder. */
const evalBm25 = (catalog: string, cases: string, out: string) =>
  run('eval', '--catalog', catalog, '--cases', cases, '--retrievers', 'bm25', '--out', join(tmp, out), '--quiet');

describe('catalog warnings in the CLI', () => {
  it('inspect prints one warning line for a catalog with draft-04 schemas', async () => {
    const r = await run('inspect', '--catalog', join(REAL, 'draft04-tools-list.json'));
    expect(r.code).toBe(0);
    expect(r.err.split('\n').filter(Boolean)).toEqual([
      'warning: 1 tool uses older JSON Schema forms: draft-04 boolean exclusiveMinimum/exclusiveMaximum, draft-04 "id" (first: mcp__draft04-tools-list__maps_search_places at $.tools[0].inputSchema); normalised to 2020-12',
    ]);
    expect(r.out).toContain('tools          3');
  });

  it('eval prints the skipped built-in tools once and scores the custom tools', async () => {
    const cases = join(tmp, 'cases.jsonl');
    writeFileSync(cases, `${JSON.stringify({ id: 'readme', request: 'read the text of README.md', expectedTools: ['read_text_file'] })}\n`);
    const r = await evalBm25(join(REAL, 'anthropic-messages-request.json'), cases, 'out');
    expect(r.code).toBe(0);
    expect(r.err.match(/^warning: /gm)).toHaveLength(1);
    expect(r.err).toContain('warning: skipped 3 Anthropic server/client tools: web_search_20250305, bash_20250124, text_editor_20250728\n');
    expect(r.out).toContain('1 cases, 2 tools');
  });

  it('eval reads the Python client dump with no warning', async () => {
    const r = await evalBm25(join(REAL, 'python-client-dump.json'), join(REAL, 'cases.jsonl'), 'dump');
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('warning');
    expect(r.out).toContain('9 cases, 124 tools');
  });

  it('eval reads the dump with the anomalies of a larger real one: null descriptions, a draft-04 tool (one warning)', async () => {
    // The shape the issue reports from a 70-server Python-client dump, laid over the real dump:
    // null descriptions on some tools and one tool using draft-04's boolean exclusiveMinimum.
    const dump = JSON.parse(readFileSync(join(REAL, 'python-client-dump.json'), 'utf8')) as { servers: Array<{ tools: Array<Record<string, unknown>> }> };
    const tools = dump.servers.flatMap((s) => s.tools);
    for (const t of tools.slice(0, 16)) t.description = null;
    tools[20]!.inputSchema = { type: 'object', properties: { limit: { type: 'integer', minimum: 0, exclusiveMinimum: true } } };
    const file = join(tmp, 'dump-with-anomalies.json');
    writeFileSync(file, JSON.stringify(dump));
    const r = await evalBm25(file, join(REAL, 'cases.jsonl'), 'dump-anomalies');
    expect(r.code).toBe(0);
    expect(r.err.match(/^warning: /gm)).toHaveLength(1);
    expect(r.err).toMatch(/^warning: 1 tool uses older JSON Schema forms: draft-04 boolean exclusiveMinimum/m);
    expect(r.out).toContain('9 cases, 124 tools');
  });

  it('inspect accepts a draft-07 $id with a fragment and names the form in the one warning', async () => {
    const file = join(tmp, 'draft07-fragment-id.json');
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { a: { $id: '#item', type: 'string' }, p: { $id: '#/definitions/p' } },
      properties: { q: { $ref: '#item' } },
    };
    writeFileSync(
      file,
      JSON.stringify({
        tools: [
          { name: 'search', description: 'Search the catalog.', inputSchema: schema },
          { name: 'tuple', description: 'Any list.', inputSchema: { type: 'object', properties: { l: { type: 'array', items: [] } } } },
        ],
      }),
    );
    const r = await run('inspect', '--catalog', file);
    expect(r.code).toBe(0);
    expect(r.err.split('\n').filter(Boolean)).toEqual([
      'warning: 2 tools use older JSON Schema forms: "$id" with a fragment (drafts 06/07), array-form "items" (drafts 04 to 2019-09) (first: mcp__draft07-fragment-id__search at $.tools[0].inputSchema); normalised to 2020-12',
    ]);
  });

  it('a one-page tools/list exits 2 naming the file, the JSON path and the cursor', async () => {
    const f = join(REAL, 'tools-list-page.json');
    const r = await run('inspect', '--catalog', f);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(
        `^error: ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\$\\.nextCursor: this tools/list result is one page of several: it has "nextCursor": "4"`,
      ),
    );
  });
});
