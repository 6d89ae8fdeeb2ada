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
    expect(() => importTranscripts([src], { ...base, since: new Date('2030-01-01') })).toThrow(/no typed request is left after since\/until/);
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

  it('writes the names of what it skipped redacted, then cut to 64 characters', () => {
    const dir = join(root, 'skip-names', 'p');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 's.jsonl'),
      [
        { type: 'user', sessionId: 'k', message: { role: 'user', content: 'hello there' } },
        { type: `xxxxxxxxxxxxxxxxxxxxxxxx mail to alice.smith@example.com and ${'y'.repeat(100)}`, sessionId: 'k' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const r = importTranscripts([join(root, 'skip-names')], base);
    const names = Object.keys(r.manifest.import!.skipped);
    expect(names).toEqual(['unknown-type:xxxxxxxxxxxxxxxxxxxxxxxx mail to [REDACTED:email] …']);
    expect(names[0]!.length).toBe(64);
  });

  it('an input with no typed request is an InputError naming the sources', () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(inputError(() => importTranscripts([empty], base)).message).toBe('no typed request found (no .jsonl or .json file found): nothing to import');
  });
});

/** A file of JSON lines under `root`. */
function lines(rel: string, rows: unknown[]): string {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return p;
}

describe('what the review of issue 29 found, held', () => {
  it('tool names: a part redaction would change is hashed, whitespace and control characters become _, an empty name is dropped', () => {
    lines('names/p/n.jsonl', [
      { type: 'user', sessionId: 'n', message: { role: 'user', content: 'deploy it' } },
      ...['mcp__alice@example.com__deploy', 'mcp__srv__ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'my\ttool\nname', '   '].map((name, i) => ({
        type: 'assistant',
        sessionId: 'n',
        message: { content: [{ type: 'tool_use', id: `t${i}`, name, input: {} }] },
      })),
    ]);
    const r = importTranscripts([join(root, 'names')], base);
    const calls = r.dataset.cases[0]!.calls!;
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatch(/^mcp__redacted-[0-9a-f]{12}__deploy$/);
    expect(calls[1]).toMatch(/^mcp__srv__redacted-[0-9a-f]{12}$/);
    expect(calls[2]).toBe('my_tool_name');
    expect(JSON.stringify(r)).not.toMatch(/alice@example\.com|ghp_abcdef/);
    expect(r.manifest.import!.skipped['tool-use-without-name']).toBe(1); // the reader drops a call with no name
    expect(r.manifest.import!.tools.renamed).toBe(3);
  });

  it('an advertised schema: enum values, defaults, examples and property names redacted; its structure kept', () => {
    lines('schema/log.jsonl', [
      {
        request: {
          body: {
            model: 'm',
            messages: [{ role: 'user', content: 'save it' }],
            tools: [
              {
                type: 'function',
                function: {
                  name: 'save',
                  parameters: {
                    type: 'object',
                    properties: {
                      where: { type: 'string', enum: ['/home/alice/secret-project', 'bob@corp.example.com'], default: 'x' },
                      '/home/dave/notes': { type: 'object', default: { token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', path: '/Users/alice/x' } },
                    },
                    required: ['/home/dave/notes'],
                    examples: [{ email: 'carol@example.org' }],
                  },
                },
              },
            ],
          },
        },
        response: {
          body: { choices: [{ message: { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'save', arguments: '{}' } }] } }] },
        },
      },
    ]);
    const r = importTranscripts([join(root, 'schema')], base);
    const save = r.dataset.catalog.tools.find((t) => t.id === 'save')!;
    const text = JSON.stringify(save.inputSchema);
    expect(text).not.toMatch(/alice|bob@|dave|ghp_|carol@/);
    expect(save.inputSchema).toMatchObject({ type: 'object', required: ['/home/[REDACTED:user]/notes'] });
    expect(Object.keys(save.inputSchema.properties as object)).toEqual(['where', '/home/[REDACTED:user]/notes']);
  });

  it('OTel: one trace a turn, each resending the history, is one session of two turns with the right calls', () => {
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const chat = (trace: string, id: string, start: number, input: unknown[], output: unknown[]) => ({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: trace,
                  spanId: id,
                  startTimeUnixNano: String(start),
                  attributes: [
                    attr('gen_ai.operation.name', 'chat'),
                    attr('gen_ai.input.messages', JSON.stringify(input)),
                    attr('gen_ai.output.messages', JSON.stringify(output)),
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const u1 = { role: 'user', parts: [{ type: 'text', content: 'find the weather in Paris' }] };
    const a1 = { role: 'assistant', parts: [{ type: 'tool_call', name: 'get_weather', arguments: {} }] };
    const u2 = { role: 'user', parts: [{ type: 'text', content: 'and book a flight there' }] };
    const a2 = { role: 'assistant', parts: [{ type: 'tool_call', name: 'book_flight', arguments: {} }] };
    lines('otel-turns/t.jsonl', [chat('a'.repeat(32), '1', 1e18, [u1], [a1]), chat('b'.repeat(32), '2', 1e18 + 1e9, [u1, a1, u2], [a2])]);
    const r = importTranscripts([join(root, 'otel-turns')], base);
    expect(r.dataset.cases.map((c) => [c.request, c.turn, c.expectedTools])).toEqual([
      ['find the weather in Paris', 0, ['get_weather']],
      ['and book a flight there', 1, ['book_flight']],
    ]);
  });

  it('API logs: a conversation over two files is one session; a call without an id resent in the history counts once', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const u1 = { role: 'user', content: 'weather in Paris?' };
    const a1 = { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{}' } }] };
    const t1 = { role: 'tool', content: 'sunny' };
    const call = (messages: unknown[], answer: unknown) => ({
      request: { body: { model: 'm', tools, messages } },
      response: { body: { choices: [{ message: answer }] } },
    });
    lines('split/a.jsonl', [call([u1], a1), call([u1, a1, t1], { role: 'assistant', content: 'Sunny.' })]);
    lines('split/b.jsonl', [call([u1, a1, t1, { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'and tomorrow?' }], a1)]);
    const r = importTranscripts([join(root, 'split')], base);
    expect(r.dataset.cases.map((c) => [c.request, c.turn, c.calls])).toEqual([
      ['weather in Paris?', 0, ['get_weather']],
      ['and tomorrow?', 1, ['get_weather']],
    ]);
    expect(new Set(r.dataset.cases.map((c) => c.sessionId)).size).toBe(1);
  });

  it('API logs of Claude Code: a subagent conversation goes to the turn whose Task call started it; a compaction summary is no request', () => {
    const tools = [
      { name: 'Task', input_schema: { type: 'object' } },
      { name: 'Grep', input_schema: { type: 'object' } },
    ];
    const msg = (system: string, messages: unknown[], content: unknown[]) => ({
      request: { body: { model: 'c', system, tools, messages } },
      response: { body: { type: 'message', content } },
    });
    lines('sub/log.jsonl', [
      msg(
        'main agent',
        [{ role: 'user', content: 'find where the config is read' }],
        [{ type: 'tool_use', id: 'tu1', name: 'Task', input: { prompt: 'Search the repo for config loading', description: 'search' } }],
      ),
      msg(
        'sub agent',
        [{ role: 'user', content: 'Search the repo for config loading' }],
        [{ type: 'tool_use', id: 'tu2', name: 'Grep', input: { pattern: 'config' } }],
      ),
      msg(
        'main agent',
        [{ role: 'user', content: 'This session is being continued from a previous conversation that ran out of context.' }],
        [{ type: 'text', text: 'ok' }],
      ),
    ]);
    const r = importTranscripts([join(root, 'sub')], base);
    expect(r.dataset.cases.map((c) => [c.request, c.expectedTools, c.slices.includes('subagent')])).toEqual([
      ['find where the config is read', ['Task', 'Grep'], true],
    ]);
    expect(r.manifest.import!.subagents.linked).toBe(1);
    expect(r.manifest.import!.skipped['compaction-summary']).toBe(1);
  });

  it('Claude Code: the calls a slash command leads to answer no typed request', () => {
    lines('cmd/p/c.jsonl', [
      { type: 'user', sessionId: 'c', message: { role: 'user', content: 'fix the typo in README' } },
      { type: 'assistant', sessionId: 'c', message: { content: [{ type: 'tool_use', id: 'a', name: 'Edit', input: {} }] } },
      { type: 'user', sessionId: 'c', message: { role: 'user', content: '<command-name>/review-pr</command-name>\n<command-args>123</command-args>' } },
      { type: 'user', sessionId: 'c', isMeta: true, message: { role: 'user', content: 'Review pull request 123 …' } },
      { type: 'assistant', sessionId: 'c', message: { content: [{ type: 'tool_use', id: 'b', name: 'mcp__github__get_pull_request', input: {} }] } },
    ]);
    const r = importTranscripts([join(root, 'cmd')], base);
    expect(r.dataset.cases.map((c) => c.calls)).toEqual([['Edit']]);
    expect(r.manifest.import!.skipped['call-after-slash-command']).toBe(1);
  });

  it('Codex: a fork of a fork keeps only its own requests, whatever order the files are read in', () => {
    const meta = (id: string, forked?: string) => ({
      timestamp: '2026-01-01T00:00:00Z',
      type: 'session_meta',
      payload: { id, ...(forked ? { forked_from_id: forked } : {}) },
    });
    const ask = (text: string, minute: number, fork: string) => ({
      timestamp: `2026-01-0${fork.length}T00:${String(minute).padStart(2, '0')}:00Z`,
      type: 'event_msg',
      payload: { type: 'user_message', message: text },
    });
    lines('forks/a-f2.jsonl', [meta('F2', 'F1'), ask('one', 1, 'ccc'), ask('two', 2, 'ccc'), ask('three', 3, 'ccc'), ask('four', 4, 'ccc')]);
    lines('forks/b-f1.jsonl', [meta('F1', 'P'), ask('one', 1, 'bb'), ask('two', 2, 'bb'), ask('three', 3, 'bb')]);
    lines('forks/c-p.jsonl', [meta('P'), ask('one', 1, 'a'), ask('two', 2, 'a')]);
    const r = importTranscripts([join(root, 'forks')], base);
    expect(r.dataset.cases.map((c) => `${c.sessionId}:${c.request}`).sort()).toEqual(['F1:three', 'F2:four', 'P:one', 'P:two']);
    expect(r.manifest.import!.requests.forkCopies).toBe(5);
  });

  it('OTel: a span’s own conversation id comes before its trace’s', () => {
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const span = (id: string, start: number, conv: string, text: string) => ({
      traceId: 't'.repeat(32),
      spanId: id,
      startTimeUnixNano: String(start),
      attributes: [
        attr('gen_ai.conversation.id', conv),
        attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: text }] }])),
      ],
    });
    lines('otel-conv/t.jsonl', [
      { resourceSpans: [{ scopeSpans: [{ spans: [span('1', 1, 'conv-A', 'question for A'), span('2', 2, 'conv-B', 'question for B')] }] }] },
    ]);
    const r = importTranscripts([join(root, 'otel-conv')], base);
    expect(r.dataset.cases.map((c) => [c.sessionId, c.request])).toEqual([
      ['conv-A', 'question for A'],
      ['conv-B', 'question for B'],
    ]);
  });

  it('two spellings of one MCP tool no catalog defines are one id-only tool', () => {
    lines('loose/p/l.jsonl', [
      { type: 'user', sessionId: 'l', message: { role: 'user', content: 'check n8n' } },
      { type: 'assistant', sessionId: 'l', message: { content: [{ type: 'tool_use', id: 'a', name: 'mcp__n8n-mcp__n8n_health_check', input: {} }] } },
      { type: 'assistant', sessionId: 'l', message: { content: [{ type: 'tool_use', id: 'b', name: 'mcp__n8n_mcp__n8n_health_check', input: {} }] } },
    ]);
    const r = importTranscripts([join(root, 'loose')], base);
    expect(r.dataset.cases[0]!.calls).toEqual(['mcp__n8n-mcp__n8n_health_check', 'mcp__n8n-mcp__n8n_health_check']);
    expect(r.dataset.catalog.tools.filter((t) => t.idOnly).map((t) => t.id)).toEqual(['mcp__n8n-mcp__n8n_health_check']);
  });

  it('a Claude Code session that opens with a file snapshot and hook progress records is still recognised', () => {
    lines('det/p/d.jsonl', [
      { type: 'file-history-snapshot', messageId: 'm', snapshot: { messageId: 'm', trackedFileBackups: {} }, isSnapshotUpdate: false },
      ...Array.from({ length: 12 }, (_, i) => ({ type: 'progress', sessionId: 'd', uuid: `p${i}`, data: { type: 'hook_progress' } })),
      { type: 'user', sessionId: 'd', uuid: 'u', message: { role: 'user', content: 'start the server' } },
    ]);
    expect(importTranscripts([join(root, 'det')], base).dataset.cases.map((c) => c.request)).toEqual(['start the server']);
  });

  it('an OTel span time out of range is read as no time, not a crash', () => {
    lines('otel-time/t.jsonl', [
      {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: 't',
                    spanId: 's',
                    startTimeUnixNano: '99999999999999999999999999',
                    attributes: [
                      {
                        key: 'gen_ai.input.messages',
                        value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi there' }] }]) },
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ]);
    expect(importTranscripts([join(root, 'otel-time')], base).dataset.cases[0]).not.toHaveProperty('at');
  });

  it('gives the same dataset whatever the order of the SOURCE arguments', () => {
    const a = importTranscripts([join(root, 'split'), join(root, 'schema')], base);
    const b = importTranscripts([join(root, 'schema'), join(root, 'split')], base);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
