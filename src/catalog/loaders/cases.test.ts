import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir } from '../../../test/helpers.ts';
import { InputErrors } from '../../util/errors.ts';
import type { Catalog } from '../types.ts';
import { CSV_OPTIONAL_COLUMNS, CSV_REQUIRED_COLUMNS, loadCases, readCases } from './cases.ts';
import { loadMcpFolder } from './mcp.ts';
import { loadSkillsFolder } from './skills.ts';

const tmp = tempDir('cases');

const tools = loadMcpFolder(join(FIXTURES, 'catalogs/mcp-folder'));
const catalog: Catalog = { ...tools, skills: loadSkillsFolder(join(FIXTURES, 'skills')).skills };

function tmpFile(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

describe('CSV cases', () => {
  const cases = loadCases(join(FIXTURES, 'cases/cases.csv'), catalog);

  it('reads every column', () => {
    expect(cases.map((c) => c.id)).toEqual(['c-read', 'row-3', 'c-none', 'c-any', 'c-skill', 'c-multi']);
    expect(cases[0]).toEqual({
      id: 'c-read',
      request: 'Show me README.md from the acme/api repo',
      expectedTools: ['mcp__github__read_file'],
      callerScopes: ['repo:read'],
      slices: ['lexical'],
      hardNegatives: ['mcp__filesystem__read_file'],
      split: 'test',
    });
    expect(cases[1]).toMatchObject({ request: 'Open ./notes.txt on my machine', slices: ['paraphrase', 'near-duplicate'] });
    expect(cases[5]).toEqual({
      id: 'c-multi',
      request: 'Save the PR diff locally, then open a PR',
      expectedTools: ['mcp__filesystem__write_file', 'mcp__github__create_pull_request'],
      goldMode: 'all',
      callerScopes: ['repo:write', 'fs:write'],
      slices: ['multi-tool'],
      sessionId: 's1',
      turn: 1,
      split: 'test',
    });
  });

  it('an empty expected_tools cell is "no tool needed", or skill-only on a skill row', () => {
    expect(cases[2]).toEqual({ id: 'c-none', request: "Thanks, that's all for today", expectedTools: [], slices: ['no-tool'], split: 'test' });
    expect(cases[4]).toEqual({ id: 'c-skill', request: 'Write the release notes for v2.3', expectedSkill: 'release-notes', slices: ['skill'], split: 'train' });
  });

  it('splits lists on | and trims them; reads gold_mode, role, session and turn', () => {
    expect(cases[3]).toEqual({
      id: 'c-any',
      request: 'Find where the login bug is discussed',
      expectedTools: ['mcp__github__search', 'mcp__filesystem__search'],
      goldMode: 'any',
      role: 'triage',
      slices: [],
      sessionId: 's1',
      turn: 0,
      split: 'test',
    });
  });

  it('rejects bad headers and cells', () => {
    const e1 = inputError(() => readCases(tmpFile('h.csv', 'request,expected_tool\nhi,\n')));
    expect(e1.message).toContain('unknown column "expected_tool" (did you mean expected_tools, expected_skill?)');
    expect(e1.where).toBe('row 1');
    expect(inputError(() => readCases(tmpFile('h2.csv', 'id,request\na,hi\n'))).message).toContain('missing required column "expected_tools"');
    const e2 = inputError(() => readCases(tmpFile('g.csv', 'request,expected_tools,gold_mode\nhi,,any\nho,,sometimes\n')));
    expect(e2.message).toBe('case "row-3": "gold_mode" must be "all" or "any" (got "sometimes")');
    expect(e2.where).toBe('row 3');
    expect(inputError(() => readCases(tmpFile('t.csv', 'request,expected_tools,turn\nhi,,soon\n'))).message).toContain('"turn" must be a whole number');
    const e3 = inputError(() => readCases(tmpFile('r.csv', 'request,expected_tools\n  ,x\n')));
    expect(e3.message).toBe('"request" is empty');
    expect(e3.where).toBe('row 2');
    const e4 = inputError(() => readCases(tmpFile('q.csv', 'request,expected_tools\n"unterminated,x\n')));
    expect(e4.message).toMatch(/^invalid CSV/);
    const e5 = inputError(() => readCases(tmpFile('n.csv', 'request,expected_tools\na,b,c\n')));
    expect(e5.message).toMatch(/^invalid CSV/);
    expect(e5.where).toBe('line 2');
  });
});

describe('JSONL and JSON cases', () => {
  it('reads JSONL cases with line-based default ids', () => {
    const cases = loadCases(join(FIXTURES, 'cases/cases.jsonl'), catalog);
    expect(cases.map((c) => c.id)).toEqual(['j-search', 'line-2', 'j-skill', 'j-turn']);
    expect(cases[0]).toEqual({
      id: 'j-search',
      request: 'search my files for TODO',
      expectedTools: ['mcp__filesystem__search'],
      slices: ['lexical'],
      hardNegatives: ['mcp__github__search'],
      split: 'test',
    });
    expect(cases[1]).toEqual({ id: 'line-2', request: "what's 2 + 2?", expectedTools: [], slices: ['no-tool'] });
    expect(cases[2]).toEqual({ id: 'j-skill', request: 'summarise data.csv for me', expectedSkill: 'csv-summary', slices: ['skill'] });
    expect(cases[3]).toMatchObject({ goldMode: 'all', callerScopes: ['repo:write'], role: 'developer', sessionId: 's9', turn: 2, split: 'train' });
  });

  it('reads a JSON array of cases', () => {
    const f = tmpFile('cases.json', JSON.stringify([{ request: 'write notes.md', expectedTools: ['mcp__filesystem__write_file'] }]));
    expect(loadCases(f, catalog)).toEqual([{ id: 'case-1', request: 'write notes.md', expectedTools: ['mcp__filesystem__write_file'], slices: [] }]);
    const bad = tmpFile('bad.json', JSON.stringify([{ request: 'x', expectedTools: [] }, 'nope']));
    expect(inputError(() => readCases(bad)).where).toBe('$[1]');
  });

  it('rejects unknown fields, missing labels and bad types', () => {
    const e1 = inputError(() => readCases(tmpFile('u.jsonl', '{"request":"x","expected_tools":[]}\n')));
    expect(e1.message).toContain('unknown field "expected_tools" (did you mean expectedTools?)');
    expect(e1.where).toBe('line 1');
    const e2 = inputError(() => readCases(tmpFile('m.jsonl', '{"id":"a","request":"x"}\n')));
    expect(e2.message).toBe('case "a": "expectedTools" is required (use [] for "no tool needed") unless "expectedSkill" is given');
    const e3 = inputError(() => readCases(tmpFile('t.jsonl', '{"id":"a","request":"x","expectedTools":"mcp__github__search"}\n')));
    expect(e3.message).toBe('case "a": "expectedTools" must be a list of strings (got a string)');
    const e4 = inputError(() => loadCases(tmpFile('s.jsonl', '{"id":"a","request":"x","expectedSkill":"release-note"}\n'), catalog));
    expect(e4.message).toBe('case "a": unknown expected skill "release-note" (did you mean release-notes?)');
    const e5 = inputError(() =>
      loadCases(tmpFile('d.jsonl', '{"id":"a","request":"x","expectedTools":[]}\n{"id":"a","request":"y","expectedTools":[]}\n'), catalog),
    );
    expect(e5.where).toBe('line 2');
    expect(e5.message).toContain('duplicate case id "a"');
  });

  it('rejects other extensions and missing files', () => {
    expect(inputError(() => readCases(tmpFile('cases.txt', ''))).message).toContain('use .csv, .jsonl or .json');
    expect(inputError(() => readCases(join(tmp, 'none.csv'))).message).toBe('file not found');
  });
});

describe('faulty case files: the error names the file and the row or line', () => {
  it.each([
    {
      what: 'an unknown expected tool, with a suggestion',
      fixture: 'unknown-tool.csv',
      message: 'case "bad-1": unknown expected tool id "mcp__github__serch" (did you mean mcp__github__search?)',
      where: 'row 3',
    },
    { what: 'an empty request', fixture: 'empty-request.jsonl', message: 'case "e2": "request" is empty', where: 'line 2' },
    { what: 'invalid JSON', fixture: 'invalid-json.jsonl', message: expect.stringMatching(/^invalid JSON: /), where: 'line 3' },
  ])('$what', ({ fixture, message, where }) => {
    const f = join(FIXTURES, 'faulty', fixture);
    expect(inputError(() => loadCases(f, catalog))).toMatchObject({ message, file: f, where });
  });
});

describe('a cases file with several problems reports them all at once', () => {
  it('lists every problem of every row (parse and check), each with its place, in file order', () => {
    const f = tmpFile(
      'many.csv',
      [
        'id,request,expected_tools,gold_mode',
        'a,open the readme,mcp__github__read_file,all',
        'b,,mcp__github__read_file,all',
        'c,search files,mcp__github__serch,all',
        'd,one,two,three,four',
        'e,write notes,mcp__filesystem__write_file,sometimes',
        'a,duplicate id,mcp__github__read_file,all',
      ].join('\n'),
    );
    const e = inputError(() => loadCases(f, catalog));
    expect(e).toBeInstanceOf(InputErrors);
    expect(e.message).toBe('5 problems');
    expect(e.describe()).toBe(
      [
        `${f}: 5 problems`,
        '  row 3: "request" is empty',
        '  row 4: case "c": unknown expected tool id "mcp__github__serch" (did you mean mcp__github__search?)',
        '  line 5: invalid CSV: 5 cells where the header has 4 columns',
        '  row 6: case "e": "gold_mode" must be "all" or "any" (got "sometimes")',
        '  row 7: duplicate case id "a" (first at ' + f + ': row 2)',
      ].join('\n'),
    );
  });

  it('stops listing at 50 and says how many more', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `x${i},do thing ${i},mcp__nope__tool${i}`);
    const e = inputError(() => loadCases(tmpFile('sixty.csv', ['id,request,expected_tools', ...rows].join('\n')), catalog)) as InputErrors;
    expect(e.total).toBe(60);
    expect(e.problems).toHaveLength(50);
    expect(e.describe().split('\n').at(-1)).toBe('  … and 10 more');
  });

  it('reports every bad line of a JSONL file too', () => {
    const f = tmpFile('many.jsonl', '{"id":"a","request":"x"}\nnot json\n{"id":"b","request":"y","expectedTools":[],"split":"dev"}\n');
    const e = inputError(() => loadCases(f, catalog)) as InputErrors;
    expect(e.problems.map((p) => p.where)).toEqual(['line 1', 'line 2', 'line 3']);
  });
});

describe('examples/cases-template.csv', () => {
  it('has every column, in the documented order, and reads without a problem', () => {
    const f = join(FIXTURES, '..', 'examples', 'cases-template.csv');
    const header = readFileSync(f, 'utf8').split('\n')[0]!.split(',');
    expect(header.slice(0, 3)).toEqual(['id', 'request', 'expected_tools']); // the rest in the order of docs/cases.md
    expect(new Set(header)).toEqual(new Set([...CSV_REQUIRED_COLUMNS, ...CSV_OPTIONAL_COLUMNS]));
    const cases = readCases(f);
    expect(cases.map((c) => c.value.id)).toEqual(['pr-1', 'find-1', 'chat-1', 'notes-1', 's1-0', 's1-1']);
    expect(cases[1]!.value).toMatchObject({ expectedTools: ['mcp__slack__search_messages', 'mcp__github__search_issues'], goldMode: 'any' });
    expect(cases[2]!.value).toMatchObject({ expectedTools: [], slices: ['no-tool'] });
    expect(cases[3]!.value.expectedTools).toBeUndefined();
  });
});

describe('calls', () => {
  it('reads a case’s calls, and keeps a called tool the catalog lacks (a record, never scored)', () => {
    const f = tmpFile('calls.jsonl', '{"id":"a","request":"x","expectedTools":["mcp__github__search"],"calls":["mcp__github__search","mcp__gone__tool"]}\n');
    expect(loadCases(f, catalog)[0]).toMatchObject({ calls: ['mcp__github__search', 'mcp__gone__tool'] });
    expect(inputError(() => readCases(tmpFile('calls-bad.jsonl', '{"id":"a","request":"x","expectedTools":[],"calls":"x"}\n'))).message).toBe(
      'case "a": "calls" must be a list of strings (got a string)',
    );
  });
});
