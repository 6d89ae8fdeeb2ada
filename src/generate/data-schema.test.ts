import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatorDataErrors, type GeneratorDataKind } from './data-schema.ts';

const DATA = new URL('./data/', import.meta.url);
const KIND: Record<string, GeneratorDataKind> = {
  'surface.json': 'surface',
  'no-tool.json': 'noTool',
  'workflows.json': 'workflows',
  'phrasing.json': 'phrasing',
  'lexicon.json': 'lexicon',
  'departments.json': 'departments',
};

describe('generator data files', () => {
  it('every data file has a definition in the one schema and validates against it', () => {
    const files = readdirSync(DATA).filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json')).sort();
    expect(files).toEqual(Object.keys(KIND).sort());
    for (const f of files) expect(generatorDataErrors(KIND[f]!, JSON.parse(readFileSync(new URL(f, DATA), 'utf8'))), f).toEqual([]);
    // one schema file, nothing else
    expect(readdirSync(DATA).filter((f) => f.endsWith('.schema.json'))).toEqual(['generator-data.schema.json']);
  });

  it('a file checked against another kind fails, naming the place', () => {
    const surface = JSON.parse(readFileSync(new URL('surface.json', DATA), 'utf8'));
    expect(generatorDataErrors('phrasing', surface).length).toBeGreaterThan(0);
    const departments = JSON.parse(readFileSync(new URL('departments.json', DATA), 'utf8'));
    departments.departments[0].systems[0].products = 0;
    expect(generatorDataErrors('departments', departments).join('\n')).toMatch(/\/departments\/0\/systems\/0\/products/);
  });
});
