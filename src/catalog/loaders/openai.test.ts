import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir } from '../../../test/helpers.ts';
import { loadOpenAiTools } from './openai.ts';

const file = join(FIXTURES, 'catalogs/openai-tools.json');
const tmp = tempDir('openai');

describe('loadOpenAiTools', () => {
  it('reads nested and flat function tools as core tools', () => {
    const c = loadOpenAiTools(file);
    expect(c.tools.map((t) => t.id)).toEqual(['get_weather', 'send_email', 'list_calendars']);
    expect(c.servers).toEqual([]);
    const [weather, email, calendars] = c.tools;
    expect(weather).toMatchObject({ name: 'get_weather', source: 'core', namespace: 'core', summary: 'Get the current weather for a city.' });
    expect(weather!.server).toBeUndefined();
    expect((weather!.inputSchema.properties as Record<string, unknown>).unit).toEqual({ type: 'string', enum: ['celsius', 'fahrenheit'] });
    expect(email!.inputSchema.required).toEqual(['to', 'subject', 'body']);
    expect(calendars!.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(calendars!.description).toBe("List the user's calendars");
  });

  it("turns the tools into one server's tools with the server or namespace option", () => {
    const c = loadOpenAiTools(file, { server: 'acme' });
    expect(c.tools.map((t) => t.id)).toEqual(['mcp__acme__get_weather', 'mcp__acme__send_email', 'mcp__acme__list_calendars']);
    expect(c.tools[0]).toMatchObject({ source: 'mcp', server: 'acme', namespace: 'acme' });
    expect(c.servers).toEqual([{ name: 'acme', source: 'mcp', description: '', instructions: '' }]);
    const ns = loadOpenAiTools(file, { namespace: 'functions' });
    expect(ns.tools[0]).toMatchObject({ id: 'mcp__functions__get_weather', namespace: 'functions', server: 'functions' });
    const both = loadOpenAiTools(file, { server: 'acme', namespace: 'weather' });
    expect(both.tools[0]).toMatchObject({ id: 'mcp__acme__get_weather', namespace: 'weather' });
  });

  it('accepts {"tools":[…]}', () => {
    const f = join(tmp, 'wrapped.json');
    writeFileSync(f, JSON.stringify({ tools: [{ type: 'function', name: 'ping' }] }));
    expect(loadOpenAiTools(f).tools.map((t) => t.id)).toEqual(['ping']);
  });

  it('skips built-in tools with one warning, and refuses a file with no function tool', () => {
    const f = join(tmp, 'builtins.json');
    writeFileSync(
      f,
      JSON.stringify([
        { type: 'web_search' },
        { type: 'function', function: { name: 'a', description: null, parameters: null } },
        { type: 'file_search' },
        { type: 'web_search' },
      ]),
    );
    const warnings: string[] = [];
    const c = loadOpenAiTools(f, { onWarning: (w) => warnings.push(w) });
    expect(c.tools.map((t) => [t.id, t.description, t.inputSchema])).toEqual([['a', '', { type: 'object', properties: {} }]]);
    expect(warnings).toEqual(['skipped 3 OpenAI tools that are not functions (built-in or custom): web_search, file_search']);
    expect(loadOpenAiTools(f).tools).toHaveLength(1); // no callback: the warning goes nowhere

    writeFileSync(f, JSON.stringify({ model: 'gpt-4.1', input: 'hi', tools: [{ type: 'web_search_preview' }] }));
    const e1 = inputError(() => loadOpenAiTools(f));
    expect(e1.message).toBe(
      'no function tool to index (skipped 1 OpenAI tool that is not a function (built-in or custom): web_search_preview): only {"type":"function"} tools have a schema',
    );
    expect(e1.file).toBe(f);
    expect(e1.where).toBe('$.tools');

    writeFileSync(f, JSON.stringify([{ type: 'function', function: { name: 'a' } }, { function: { name: 'b' } }]));
    expect(inputError(() => loadOpenAiTools(f)).where).toBe('$[1].type');
  });

  it('rejects missing names and invalid parameters at their JSON path', () => {
    const f = join(tmp, 'bad.json');

    writeFileSync(f, JSON.stringify([{ type: 'function', function: { description: 'no name' } }]));
    expect(inputError(() => loadOpenAiTools(f)).where).toBe('$[0].function.name');

    writeFileSync(f, JSON.stringify([{ type: 'function', function: { name: 'a', parameters: { type: 'array' } } }]));
    const e3 = inputError(() => loadOpenAiTools(f));
    expect(e3.message).toBe('input schema must describe an object (type is "array")');
    expect(e3.where).toBe('$[0].function.parameters');

    writeFileSync(f, JSON.stringify([{ type: 'function', name: 'a', parameters: { type: 'object', required: 'x' } }]));
    const e4 = inputError(() => loadOpenAiTools(f));
    expect(e4.message).toMatch(/^invalid JSON Schema/);
    expect(e4.where).toBe('$[0].parameters');

    writeFileSync(
      f,
      JSON.stringify([
        { type: 'function', name: 'a' },
        { type: 'function', name: 'a' },
      ]),
    );
    const e5 = inputError(() => loadOpenAiTools(f));
    expect(e5.message).toBe(`duplicate tool id "a" (first defined at ${f}: $[0])`);
    expect(e5.where).toBe('$[1]');
  });
});
