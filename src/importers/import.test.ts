/** The import's choices: which calls are gold, the time window, the sample, the splits, the catalog, id-only tools. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputError, tempDir } from '../../test/helpers.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { type ImportOptions, importTranscripts } from './import.ts';

const root = tempDir('import-unit');

/** A Claude Code session file: each turn a typed prompt at an hour of 2026-11-01, then its calls. */
function session(dir: string, id: string, turns: Array<{ text: string; hour: number; calls: string[] }>): void {
  mkdirSync(dir, { recursive: true });
  const rows: unknown[] = [];
  let n = 0;
  for (const t of turns) {
    const at = `2026-11-01T${String(t.hour).padStart(2, '0')}:00:00.000Z`;
    rows.push({ type: 'user', sessionId: id, uuid: `${id}-${n++}`, timestamp: at, message: { role: 'user', content: t.text } });
    for (const c of t.calls)
      rows.push({
        type: 'assistant',
        sessionId: id,
        uuid: `${id}-${n++}`,
        timestamp: at,
        message: { content: [{ type: 'tool_use', id: `${id}-t${n}`, name: c, input: {} }] },
      });
  }
  writeFileSync(join(dir, `${id}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n'));
}

const src = join(root, 'projects');
session(join(src, 'p'), 's1', [
  { text: 'open a PR for the fix', hour: 9, calls: ['Bash', 'mcp__github__create_pull_request', 'Bash'] },
  { text: 'and label it urgent', hour: 10, calls: ['mcp__github__add_labels', 'ToolSearch'] },
]);
session(join(src, 'p'), 's2', [
  { text: 'what time is it', hour: 11, calls: [] },
  { text: 'read the changelog', hour: 12, calls: ['Read'] },
]);
session(join(src, 'p'), 's3', [{ text: 'search for slack threads', hour: 13, calls: ['ToolSearch', 'mcp__slack__search'] }]);

const base: ImportOptions = { gold: { kind: 'all' }, seed: 7, testShare: 0.5, redact: [], name: 'unit' };
const byText = (r: ReturnType<typeof importTranscripts>) => new Map(r.dataset.cases.map((c) => [c.request, c]));

describe('importTranscripts', () => {
  it('gold: the distinct calls in first-call order, never the harness search; calls kept in order with repeats', () => {
    const r = importTranscripts([src], base);
    const c = byText(r).get('open a PR for the fix')!;
    expect(c).toMatchObject({
      expectedTools: ['Bash', 'mcp__github__create_pull_request'],
      goldMode: 'all',
      calls: ['Bash', 'mcp__github__create_pull_request', 'Bash'],
      sessionId: 's1',
      turn: 0,
    });
    expect(c.slices).toEqual(['multi-tool', 'multi-turn']);
    expect(byText(r).get('and label it urgent')!.expectedTools).toEqual(['mcp__github__add_labels']);
    expect(byText(r).get('what time is it')).toMatchObject({ expectedTools: [], slices: ['no-tool', 'multi-turn'] });
    expect(byText(r).get('search for slack threads')!.slices).toEqual([]); // one turn, one gold tool
  });

  it('--tools mcp: only MCP calls are gold; a request with other calls only is a no-tool case, marked', () => {
    const r = importTranscripts([src], { ...base, gold: { kind: 'mcp' } });
    expect(byText(r).get('open a PR for the fix')!.expectedTools).toEqual(['mcp__github__create_pull_request']);
    expect(byText(r).get('read the changelog')).toMatchObject({ expectedTools: [], slices: ['no-tool', 'other-tools-only', 'multi-turn'], calls: ['Read'] });
    expect(r.manifest.import!.tools.gold).toBe('mcp');
  });

  it('--tools REGEX: the tool ids it matches', () => {
    const r = importTranscripts([src], { ...base, gold: { kind: 'regex', pattern: /^mcp__github__/, source: '^mcp__github__' } });
    expect(r.dataset.cases.filter((c) => c.expectedTools!.length).map((c) => c.request)).toEqual(['open a PR for the fix', 'and label it urgent']);
  });

  it('--since/--until keep the requests in [since, until); turns keep their numbers', () => {
    const r = importTranscripts([src], { ...base, since: new Date('2026-11-01T10:00:00Z'), until: new Date('2026-11-01T12:00:00Z') });
    expect(r.dataset.cases.map((c) => [c.request, c.turn])).toEqual([
      ['and label it urgent', 1],
      ['what time is it', 0],
    ]);
    expect(r.manifest.import!.requests).toMatchObject({ read: 5, kept: 2, outsideWindow: 3 });
    expect(() => importTranscripts([src], { ...base, since: new Date('2030-01-01') })).toThrow(/no typed request is left after --since/);
  });

  it('--sample N: exactly N cases of whole sessions drawn with the seed (the last one cut), the same for the same seed', () => {
    const a = importTranscripts([src], { ...base, sample: 3 });
    expect(a.dataset.cases).toHaveLength(3);
    expect(a.manifest.import!.requests.sampledOut).toBe(2);
    const again = importTranscripts([src], { ...base, sample: 3 });
    expect(again.dataset.cases.map((c) => c.id)).toEqual(a.dataset.cases.map((c) => c.id));
    // every session kept is whole but possibly the last drawn, cut after its first turns
    const turns = new Map<string, number[]>();
    for (const c of a.dataset.cases) turns.set(c.sessionId!, [...(turns.get(c.sessionId!) ?? []), c.turn!]);
    for (const t of turns.values()) expect(t).toEqual(t.map((_, i) => i));
  });

  it('splits by session: no session in both splits, both splits used, the same with the same seed', () => {
    const r = importTranscripts([src], base);
    const split = new Map<string, Set<string>>();
    for (const c of r.dataset.cases) split.set(c.sessionId!, new Set([...(split.get(c.sessionId!) ?? []), c.split!]));
    expect([...split.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(r.dataset.cases.map((c) => c.split))).toEqual(new Set(['train', 'test']));
    expect(r.manifest.splits).toEqual({
      test: r.dataset.cases.filter((c) => c.split === 'test').length,
      train: r.dataset.cases.filter((c) => c.split === 'train').length,
    });
  });

  it('catalog: the one given first, the core tools, then every other called tool by id only (warned once), matched by loose name where unique', () => {
    const given: Catalog = {
      tools: [makeTool({ name: 'create-pull-request', source: 'mcp', server: 'github', summary: 'Open a PR.', description: 'Open a PR.' })],
      skills: [],
      servers: [{ name: 'github', source: 'mcp', description: '', instructions: '' }],
      plugins: [],
    };
    const warnings: string[] = [];
    const r = importTranscripts([src], { ...base, catalog: given, onWarning: (w) => warnings.push(w) });
    const ids = r.dataset.catalog.tools.map((t) => t.id);
    expect(ids[0]).toBe('mcp__github__create-pull-request');
    // Claude Code names it mcp__github__create_pull_request: the same tool once '-' and '_' are alike
    expect(byText(r).get('open a PR for the fix')!.expectedTools).toEqual(['Bash', 'mcp__github__create-pull-request']);
    expect(r.dataset.catalog.tools.find((t) => t.id === 'Bash')).toMatchObject({ source: 'core' });
    const idOnly = r.dataset.catalog.tools.filter((t) => t.idOnly);
    expect(idOnly.map((t) => t.id)).toEqual(['mcp__github__add_labels', 'mcp__slack__search']);
    expect(idOnly[1]).toMatchObject({ source: 'mcp', server: 'slack', namespace: 'slack', description: '' });
    expect(r.dataset.catalog.servers.map((s) => s.name)).toEqual(['github', 'slack']);
    expect(r.manifest.import!.tools).toMatchObject({ fromCatalog: 1, idOnly: 2, matchedByName: 1 });
    expect(warnings.filter((w) => w.includes('kept by id only'))).toEqual([
      '2 called tools are in no catalog given: kept by id only, with no description or schema (mcp__github__add_labels, mcp__slack__search); give --catalog for their definitions',
    ]);
  });

  it('a request recorded twice (same time and text, e.g. a resumed copy) is kept once', () => {
    const dup = join(root, 'dup');
    session(join(dup, 'a'), 'd1', [{ text: 'deploy', hour: 9, calls: ['Bash'] }]);
    session(join(dup, 'b'), 'd2', [
      { text: 'deploy', hour: 9, calls: ['Bash'] },
      { text: 'and now roll back', hour: 10, calls: ['Bash'] },
    ]);
    const r = importTranscripts([dup], base);
    expect(r.dataset.cases.map((c) => c.request)).toEqual(['deploy', 'and now roll back']);
    expect(r.manifest.import!.requests.duplicates).toBe(1);
  });

  it('redacts request texts and counts it; an id that would need redacting is replaced by a hash', () => {
    const sec = join(root, 'sec');
    session(join(sec, 'p'), 'alice@example.com', [{ text: 'email bob@example.com the report', hour: 9, calls: [] }]);
    const r = importTranscripts([sec], base);
    expect(r.dataset.cases[0]).toMatchObject({ request: 'email [REDACTED:email] the report' });
    expect(r.dataset.cases[0]!.sessionId).toMatch(/^claude-code-[0-9a-f]{16}$/);
    expect(r.manifest.import!.redactions.email).toBe(1);
  });

  it('an input with no typed request is an InputError naming the sources', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(inputError(() => importTranscripts([empty], base)).message).toBe('no typed request found (no .jsonl or .json file found): nothing to import');
  });
});
