import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir } from '../../../test/helpers.ts';
import { readDataset } from '../dataset-files.ts';
import { CATALOG_FORMATS, DETECTION_ORDER, detectCatalogFormat, loadCatalog } from './registry.ts';

const METATOOL = fileURLToPath(new URL('../../../datasets/metatool/', import.meta.url));
const tmp = tempDir('registry');

describe('CATALOG_FORMATS', () => {
  it('has one entry per format, each tried once in detection', () => {
    expect(Object.keys(CATALOG_FORMATS).sort()).toEqual([
      'anthropic',
      'beir',
      'mcp-bundle',
      'mcp-config',
      'mcp-folder',
      'mcp-tools-list',
      'metatool',
      'openai',
      'skills-folder',
    ]);
    expect([...DETECTION_ORDER].sort()).toEqual(Object.keys(CATALOG_FORMATS).sort());
    for (const f of Object.values(CATALOG_FORMATS)) expect(f.description.length).toBeGreaterThan(10);
  });

  it('detects every fixture format', () => {
    const cases: Array<[string, string]> = [
      ['catalogs/openai-tools.json', 'openai'],
      ['catalogs/anthropic-tools.json', 'anthropic'],
      ['catalogs/mcp-bundle.json', 'mcp-bundle'],
      ['catalogs/mcp-real-bundle.json', 'mcp-bundle'],
      ['catalogs/mcp/github.json', 'mcp-tools-list'],
      ['faulty/duplicate-tool.json', 'mcp-tools-list'],
      ['catalogs/mcp-folder', 'mcp-folder'],
      ['skills', 'skills-folder'],
      ['beir-mini', 'beir'],
    ];
    for (const [path, format] of cases) expect([path, detectCatalogFormat(join(FIXTURES, path))]).toEqual([path, format]);
    expect(detectCatalogFormat(METATOOL)).toBe('metatool');
    expect(detectCatalogFormat(join(FIXTURES, 'cases/cases.csv'))).toBeUndefined();
  });

  it('detects an mcpServers configuration written as JSON with comments (VS Code), and nothing else as one', () => {
    const dir = mkdtempSync(join(tempDir('registry-jsonc'), 'x-'));
    const vscode = join(dir, 'mcp.json');
    writeFileSync(vscode, '{\n  // VS Code\n  "servers": {\n    "memory": { "type": "stdio", "command": "mcp-server-memory", }, /* trailing */\n  },\n}\n');
    expect(detectCatalogFormat(vscode)).toBe('mcp-config');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{\n  // not a config\n  "servers": 3,\n}\n');
    expect(detectCatalogFormat(broken)).toBeUndefined();
  });

  it('detects {"tools":[…]} of Anthropic tools as anthropic, not MCP', () => {
    const f = join(tmp, 'wrapped.json');
    writeFileSync(f, JSON.stringify({ tools: [{ name: 'a', input_schema: { type: 'object' } }] }));
    expect(detectCatalogFormat(f)).toBe('anthropic');
    expect(loadCatalog(f).tools.map((t) => t.id)).toEqual(['a']);
  });
});

describe('loadCatalog', () => {
  it('loads each format by detection', () => {
    expect(loadCatalog(join(FIXTURES, 'catalogs/openai-tools.json')).tools).toHaveLength(3);
    expect(loadCatalog(join(FIXTURES, 'catalogs/anthropic-tools.json')).tools).toHaveLength(2);
    expect(loadCatalog(join(FIXTURES, 'catalogs/mcp-bundle.json')).servers).toHaveLength(3);
    expect(loadCatalog(join(FIXTURES, 'catalogs/mcp-real-bundle.json')).tools).toHaveLength(27);
    expect(loadCatalog(join(FIXTURES, 'catalogs/mcp/github.json')).tools[0]!.id).toBe('mcp__github__search_code');
    expect(loadCatalog(join(FIXTURES, 'catalogs/mcp-folder')).tools).toHaveLength(6);
    expect(loadCatalog(join(FIXTURES, 'skills')).skills).toHaveLength(4);
    expect(loadCatalog(METATOOL).tools).toHaveLength(199);
  });

  it('loads a plain BEIR folder (no-tool query outside qrels included)', () => {
    const c = loadCatalog(join(FIXTURES, 'beir-mini'));
    expect(c.tools.map((t) => t.id)).toEqual(['get_weather', 'send_email', 'mcp__calendar__create_event']);
    expect(c.tools[2]).toMatchObject({ source: 'mcp', server: 'calendar', name: 'create_event' });
    const d = readDataset(join(FIXTURES, 'beir-mini'));
    expect(d.cases.map((x) => [x.id, x.expectedTools])).toEqual([
      ['q1', ['get_weather']],
      ['q2', ['send_email']],
      ['q3', ['mcp__calendar__create_event', 'send_email']],
      ['q4', []],
    ]);
  });

  it('passes server/namespace to the formats that take them', () => {
    expect(loadCatalog(join(FIXTURES, 'catalogs/openai-tools.json'), { server: 'acme' }).tools[0]!.id).toBe('mcp__acme__get_weather');
    expect(loadCatalog(join(FIXTURES, 'catalogs/anthropic-tools.json'), { namespace: 'fin' }).tools[0]!.id).toBe('mcp__fin__get_stock_price');
    expect(loadCatalog(join(FIXTURES, 'catalogs/mcp/github.json'), { server: 'gh' }).tools[0]!.id).toBe('mcp__gh__search_code');
    const err = inputError(() => loadCatalog(join(FIXTURES, 'catalogs/mcp-bundle.json'), { server: 'x' }));
    expect(err.message).toBe('option "server" does not apply to the mcp-bundle format (only to mcp-tools-list, openai and anthropic)');
  });

  it('uses a named format, with "did you mean" for an unknown one', () => {
    expect(loadCatalog(join(FIXTURES, 'catalogs/mcp/github.json'), { format: 'mcp-tools-list' }).tools).toHaveLength(3);
    const err = inputError(() => loadCatalog(join(FIXTURES, 'catalogs/mcp-bundle.json'), { format: 'mcp-bundel' }));
    expect(err.message).toBe(
      'unknown catalog format "mcp-bundel" (did you mean mcp-bundle?); formats are mcp-tools-list, mcp-folder, mcp-bundle, mcp-config, openai, anthropic, skills-folder, beir, metatool',
    );
    // A named format that does not fit the file fails in its loader.
    expect(inputError(() => loadCatalog(join(FIXTURES, 'catalogs/openai-tools.json'), { format: 'mcp-bundle' })).message).toContain('not an MCP bundle');
  });

  it('says which formats it tried when nothing matches', () => {
    const dir = mkdtempSync(join(tmp, 'plain-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const err = inputError(() => loadCatalog(dir));
    expect(err.message).toBe(
      'cannot tell the catalog format of this folder: tried openai, anthropic, mcp-bundle, mcp-tools-list, metatool, beir, mcp-folder, skills-folder, mcp-config; name one with a format option',
    );
    expect(err.file).toBe(dir);
    const bad = join(tmp, 'broken.json');
    writeFileSync(bad, '{"tools": [');
    // a file that is not JSON at all gets the parser's error, with where it broke
    const e = inputError(() => loadCatalog(bad));
    expect(e.message).toMatch(/^invalid JSON: /);
    expect(e.where).toBe('line 1');
    const other = join(tmp, 'other.json');
    writeFileSync(other, '{"hello": 1}');
    expect(inputError(() => loadCatalog(other)).message).toContain('cannot tell the catalog format of this file');
  });

  it('reports a missing path as file not found', () => {
    const missing = join(tmp, 'nope.json');
    const err = inputError(() => loadCatalog(missing));
    expect(err.message).toBe('file not found');
    expect(err.file).toBe(missing);
    expect(inputError(() => loadCatalog(missing, { format: 'openai' })).message).toBe('file not found');
  });
});
