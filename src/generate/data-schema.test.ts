import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkedGeneratorData, generatorDataErrors, type GeneratorDataKind } from './data-schema.ts';
import { readHandTools, sharedParams } from './vocab/hand-tools.ts';

const DATA = new URL('./data/', import.meta.url);
const KIND: Record<string, GeneratorDataKind> = {
  'surface.json': 'surface',
  'no-tool.json': 'noTool',
  'workflows.json': 'workflows',
  'phrasing.json': 'phrasing',
  'lexicon.json': 'lexicon',
  'departments.json': 'departments',
  'archetypes.json': 'archetypes',
  'servers.json': 'servers',
  'operations.json': 'operations',
  'core-tools.json': 'coreTools',
  'plugins.json': 'plugins',
  'voice.json': 'voice',
};
const read = (file: string) => JSON.parse(readFileSync(new URL(file, DATA), 'utf8'));

describe('generator data files', () => {
  it('every data file has a definition in the one schema and validates against it', () => {
    const files = readdirSync(DATA)
      .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
      .sort();
    expect(files).toEqual(Object.keys(KIND).sort());
    for (const f of files) expect(generatorDataErrors(KIND[f]!, read(f)), f).toEqual([]);
    // one schema file, nothing else
    expect(readdirSync(DATA).filter((f) => f.endsWith('.schema.json'))).toEqual(['generator-data.schema.json']);
  });

  it('a file checked against another kind fails, naming the place', () => {
    expect(generatorDataErrors('phrasing', read('surface.json')).length).toBeGreaterThan(0);
    const departments = read('departments.json');
    departments.departments[0].systems[0].products = 0;
    expect(generatorDataErrors('departments', departments).join('\n')).toMatch(/\/departments\/0\/systems\/0\/products/);
  });

  it.each([
    [
      'archetypes.json',
      (d: any) => {
        d.archetypes[2].objects[5].casual = [];
      },
      /\/archetypes\/2\/objects\/5\/casual must NOT have fewer than 1 items/,
    ],
    [
      'servers.json',
      (d: any) => {
        d.servers[9].name = 'Not Id Safe';
      },
      /\/servers\/9\/name must match pattern/,
    ],
    [
      'operations.json',
      (d: any) => {
        d.operations[3].name = 'create_thing';
      },
      /\/operations\/3\/name must match pattern/,
    ],
    [
      'core-tools.json',
      (d: any) => {
        d.sections[0].tools[1].params[1].type = 'text';
      },
      /\/sections\/0\/tools\/1\/params\/1\/type must be equal to one of the allowed values/,
    ],
    [
      'plugins.json',
      (d: any) => {
        delete d.sections[1].plugins[0].tools[0].summary;
      },
      /\/sections\/1\/plugins\/0\/tools\/0 must have required property 'summary'/,
    ],
  ])('a bad %s fails to load with an error naming the file and the JSON path', (file, damage, message) => {
    const data = read(file);
    expect(() => checkedGeneratorData(KIND[file]!, file, data)).not.toThrow();
    damage(data);
    expect(() => checkedGeneratorData(KIND[file]!, file, data)).toThrow(`src/generate/data/${file} is invalid:`);
    expect(() => checkedGeneratorData(KIND[file]!, file, data)).toThrow(message);
  });

  it('a tool naming no shared parameter fails, naming the file and the JSON path', () => {
    const shared = sharedParams([{ name: 'query', type: 'string', description: 'Free-text query.', required: true }]);
    const tool = { name: 'search', summary: 'Search.', description: 'Searches.', params: ['query', 'limit'], casual: ['find it'] };
    expect(readHandTools('plugins.json', shared, [['/sections/0/plugins/0/tools/0', { ...tool, params: ['query'] }]])[0]!.params).toEqual([
      { name: 'query', type: 'string', description: 'Free-text query.', required: true },
    ]);
    expect(() => readHandTools('plugins.json', shared, [['/sections/0/plugins/0/tools/0', tool]])).toThrow(
      'src/generate/data/plugins.json is invalid:\n  /sections/0/plugins/0/tools/0/params/1 names no parameter of sharedParams: "limit"',
    );
  });
});
