import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir, writeJsonFile } from '../../../test/helpers.ts';
import { loadAnthropicTools } from './anthropic.ts';

const file = join(FIXTURES, 'catalogs/anthropic-tools.json');
const tmp = tempDir('anthropic');

describe('loadAnthropicTools', () => {
  it('reads custom tools as core tools', () => {
    const c = loadAnthropicTools(file);
    expect(c.tools.map((t) => t.id)).toEqual(['get_stock_price', 'translate']);
    const [stock, translate] = c.tools;
    expect(stock).toMatchObject({ source: 'core', namespace: 'core', summary: 'Retrieves the current stock price for a given ticker symbol.' });
    expect(stock!.inputSchema.required).toEqual(['ticker']);
    expect(Object.keys(translate!.inputSchema.properties as object)).toEqual(['text', 'target_language']);
  });

  it('places the tools under a server with the server option', () => {
    const c = loadAnthropicTools(file, { server: 'markets' });
    expect(c.tools.map((t) => t.id)).toEqual(['mcp__markets__get_stock_price', 'mcp__markets__translate']);
    expect(c.servers.map((s) => s.name)).toEqual(['markets']);
  });

  it('accepts {"tools":[…]} and type "custom"', () => {
    const f = join(tmp, 'wrapped.json');
    writeFileSync(f, JSON.stringify({ tools: [{ type: 'custom', name: 'ping', description: 'Ping.', input_schema: { type: 'object' } }] }));
    expect(loadAnthropicTools(f).tools[0]).toMatchObject({ id: 'ping', summary: 'Ping.' });
  });

  it('requires input_schema, refuses a file of Anthropic-defined tools only, and locates schema errors', () => {
    const f = writeJsonFile(join(tmp, 'bad.json'), {
      tools: [
        { name: 'ok', input_schema: { type: 'object' } },
        { name: 'nope', description: 'x' },
      ],
    });
    const e1 = inputError(() => loadAnthropicTools(f));
    expect(e1.message).toContain('tool "nope" has no "input_schema"');
    expect(e1.file).toBe(f);
    expect(e1.where).toBe('$.tools[1].input_schema');

    writeFileSync(f, JSON.stringify([{ type: 'web_search_20250305', name: 'web_search' }]));
    const e2 = inputError(() => loadAnthropicTools(f));
    expect(e2.message).toBe(
      'no custom tool to index (skipped 1 Anthropic server/client tool: web_search_20250305): only tools with an "input_schema" have a schema',
    );
    expect(e2.where).toBe('$');

    writeFileSync(f, JSON.stringify([{ name: 'x', description: null, input_schema: { type: 'string' } }]));
    const e4 = inputError(() => loadAnthropicTools(f));
    expect(e4.message).toBe('input schema must describe an object (type is "string")');
    expect(e4.where).toBe('$[0].input_schema');

    writeFileSync(f, JSON.stringify([{ name: 'x', input_schema: { type: 'object', properties: 5 } }]));
    const e3 = inputError(() => loadAnthropicTools(f));
    expect(e3.message).toMatch(/^invalid JSON Schema/);
    expect(e3.where).toBe('$[0].input_schema');
  });
});
