/**
 * `backpack import` end to end, on the real transcripts of fixtures/transcripts: the cases are the
 * typed requests, counted here by a reader of the test's own (not the importer's code); the
 * sessions are kept; eval, report and audit run on the result; audit's per-tool calls equal the
 * transcripts' own; sticky retrieval keeps a set on real sessions. Bad input exits 2 or warns,
 * never half-writes.
 */
import { readdirSync, readFileSync, statSync, existsSync, mkdirSync, cpSync, writeFileSync, truncateSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from './helpers.ts';

const TRANSCRIPTS = join(FIXTURES, 'transcripts');
const tmp = tempDir('import');

/** Every file under `dir`, sorted. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

const records = (file: string): Array<Record<string, any>> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

// ---------------------------------------------------------------------------------------------
// The independent reader: the rules of docs/import.md, written again from the formats' shapes.

interface Counted {
  /** Typed requests per session id. */
  typed: Map<string, number>;
  /** Typed requests followed by at least one call of a tool that is not the harness's search. */
  withCalls: number;
  /** Calls per tool id, made after a session's first typed request (subagents' included). */
  calls: Map<string, number>;
}

const add = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
const SEARCH = new Set(['ToolSearch', 'tool_search']);

function claudeText(content: unknown): string {
  const parts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.filter((b) => b?.type === 'text').map((b) => String(b.text)) : [];
  return parts
    .map((t) => t.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim())
    .filter(Boolean)
    .join('\n');
}

function countClaude(files: string[], into: Counted): void {
  for (const f of files.filter((p) => p.endsWith('.jsonl'))) {
    const isAgent = /agent-[^/]*\.jsonl$/.test(f);
    const rs = records(f);
    if (isAgent) {
      // a subagent's work, unless it is a compaction run or a warm-up
      if (/agent-acompact/.test(f) || claudeText(rs.find((r) => r.type === 'user')?.message?.content) === 'Warmup') continue;
      const ids = new Set<string>();
      for (const r of rs)
        for (const b of r.type === 'assistant' ? (r.message?.content ?? []) : [])
          if (b.type === 'tool_use' && !ids.has(b.id)) ids.add(b.id) && add(into.calls, b.name);
      continue;
    }
    let open = false;
    let called = false;
    const ids = new Set<string>();
    const close = () => {
      if (open && called) into.withCalls++;
    };
    for (const r of rs) {
      if (r.type === 'user' && !r.isSidechain) {
        const c = r.message?.content;
        if (Array.isArray(c) && c.some((b) => b.type === 'tool_result')) continue;
        if (r.isMeta || r.isCompactSummary) continue;
        const t = claudeText(c);
        if (/^<command-(name|message)>/.test(t)) {
          // a slash command: what follows answers no typed request
          close();
          open = false;
          continue;
        }
        if (t === '' || /^(<local-command-|Caveat: The messages below|<bash-|<task-notification>|\[Request interrupted by user)/.test(t)) continue;
        close();
        open = true;
        called = false;
        add(into.typed, r.sessionId);
      }
      if (r.type === 'assistant' && open)
        for (const b of r.message?.content ?? [])
          if (b.type === 'tool_use' && !ids.has(b.id)) {
            ids.add(b.id);
            add(into.calls, b.name);
            if (!SEARCH.has(b.name)) called = true;
          }
    }
    close();
  }
}

const CODEX_CONTEXT =
  /^(# AGENTS\.md instructions for |<user_instructions>|<environment_context>|<skill>|<user_shell_command>|<turn_aborted>|<subagent_notification>|<hook_prompt)/i;

function codexName(p: Record<string, any>): string | undefined {
  if (p.type === 'function_call') {
    const q = `${p.namespace ?? ''}${p.name}`;
    return q.startsWith('mcp__') ? q : q.includes('__') ? `mcp__${q}` : q;
  }
  if (p.type === 'custom_tool_call') return p.name;
  return { local_shell_call: 'local_shell', web_search_call: 'web_search', tool_search_call: 'tool_search', image_generation_call: 'image_generation' }[
    String(p.type)
  ];
}

function countCodex(files: string[], into: Counted): void {
  for (const f of files.filter((p) => p.endsWith('.jsonl'))) {
    const rs = records(f);
    const envelope = rs[0]?.type === 'session_meta';
    const id = envelope ? rs[0]!.payload.id : rs[0]!.id;
    const events = rs.some((r) => r.type === 'event_msg' && r.payload?.type === 'user_message');
    let open = false;
    let called = false;
    for (const r of rs) {
      const item = envelope ? (r.type === 'response_item' ? r.payload : undefined) : r.type ? r : undefined;
      const typedText = events
        ? r.type === 'event_msg' && r.payload?.type === 'user_message'
          ? String(r.payload.message)
          : undefined
        : item?.type === 'message' && item.role === 'user'
          ? item.content.map((c: { text: string }) => c.text).join('\n')
          : undefined;
      if (typedText !== undefined) {
        if (CODEX_CONTEXT.test(typedText.trim())) continue;
        if (open && called) into.withCalls++;
        open = true;
        called = false;
        add(into.typed, id);
        continue;
      }
      const name = item ? codexName(item) : undefined;
      if (name && open) {
        add(into.calls, name);
        if (!SEARCH.has(name)) called = true;
      }
    }
    if (open && called) into.withCalls++;
  }
}

function independentCount(claudeDir: string, codexDir: string): Counted {
  const into: Counted = { typed: new Map(), withCalls: 0, calls: new Map() };
  countClaude(walk(claudeDir), into);
  countCodex(walk(codexDir), into);
  return into;
}

// ---------------------------------------------------------------------------------------------

// Budget: 120 s a test of the two describes whose tests evaluate the imported dataset (measured
// 2026-12-07 on 2 cores: at most 4.1 s quiet, 59 s at load 12–17).
const EVAL_BUDGET = 120_000;
describe('backpack import on real Claude Code and Codex transcripts', { timeout: EVAL_BUDGET }, async () => {
  const out = join(tmp, 'real');
  const r = await runCli('import', join(TRANSCRIPTS, 'claude-code'), join(TRANSCRIPTS, 'codex'), '--out', out, '--name', 'real', '--quiet');
  const want = independentCount(join(TRANSCRIPTS, 'claude-code'), join(TRANSCRIPTS, 'codex'));
  const cases = records(join(out, 'queries.jsonl'));
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));

  it('writes a dataset whose cases are the typed requests, as an independent reader counts them', () => {
    expect(r.code, r.err).toBe(0);
    const typed = [...want.typed.values()].reduce((a, b) => a + b, 0);
    expect(typed).toBe(31); // 13 Claude Code (2+2+2+4 real, 3 written by hand), 18 Codex (2+3+10+1 real, 2 by hand)
    expect(cases.length).toBe(typed);
    const graded = cases.filter((c) => c.expectedTools.length > 0);
    expect(graded.length).toBe(want.withCalls);
    expect(cases.filter((c) => c.expected === 'none').length).toBe(typed - want.withCalls);
    expect(manifest.counts).toMatchObject({ cases: typed, sessions: want.typed.size });
  });

  it('keeps the sessions: every case has its session and turn, turns in order, one split per session', () => {
    const bySession = new Map<string, Array<Record<string, any>>>();
    for (const c of cases) bySession.set(c.sessionId, [...(bySession.get(c.sessionId) ?? []), c]);
    expect(new Set([...bySession.values()].map((l) => l.length))).toEqual(new Set([...want.typed.values()]));
    for (const list of bySession.values()) {
      expect(list.map((c) => c.turn)).toEqual([...list.map((c) => c.turn)].sort((a, b) => a - b));
      expect(new Set(list.map((c) => c.split)).size).toBe(1);
    }
    expect(new Set(cases.map((c) => c.split))).toEqual(new Set(['train', 'test']));
  });

  it('keeps the calls in order, the gold the distinct ones (no harness search), and no tool argument', () => {
    const c = cases.find((x) => x.text.startsWith('Which open pull requests'))!;
    expect(c.calls).toEqual(['ToolSearch', 'mcp__github__list_pull_requests', 'mcp__github__get_pull_request_files']);
    expect(c.expectedTools).toEqual(['mcp__github__list_pull_requests', 'mcp__github__get_pull_request_files']);
    const sub = cases.find((x) => x.text.startsWith('Review it with a subagent'))!;
    expect(sub.slices).toContain('subagent');
    expect(sub.expectedTools).toEqual(['Agent', 'mcp__github__add_issue_comment', 'mcp__github__get_pull_request_diff', 'Read']);
    const text = readFileSync(join(out, 'queries.jsonl'), 'utf8');
    expect(text).not.toContain('LGTM'); // an argument of mcp__github__add_issue_comment
    expect(text).not.toContain('diff --git'); // a tool result
  });

  it('counts what it skipped, with the unknown record types, in the manifest', () => {
    expect(manifest.import.skipped['unknown-type:future-record-kind']).toBe(1);
    expect(manifest.import.skipped['slash-command']).toBeGreaterThan(0);
    expect(manifest.import.subagents).toEqual({ linked: 9, linkedByTime: 0, unlinked: 0 });
    expect(r.err).toContain('future-record-kind ×1');
  });

  it('is deterministic: the same transcripts give the same bytes', async () => {
    const again = join(tmp, 'real-again');
    expect((await runCli('import', join(TRANSCRIPTS, 'claude-code'), join(TRANSCRIPTS, 'codex'), '--out', again, '--name', 'real', '--quiet')).code).toBe(0);
    for (const f of walk(out)) expect(readFileSync(join(again, relative(out, f))).equals(readFileSync(f)), relative(out, f)).toBe(true);
  });

  it('audit gives per-tool call counts equal to the transcripts’ own', async () => {
    const a = await runCli('audit', '--dataset', out, '--json');
    expect(a.code, a.err).toBe(0);
    const json = JSON.parse(a.out);
    const got = new Map<string, number>(json.tools.filter((t: { calls: number }) => t.calls > 0).map((t: { id: string; calls: number }) => [t.id, t.calls]));
    // the localpush rollouts hold tool names their authors replaced by "[REDACTED_NAME len=… sha=…]": written with
    // "_" for the spaces, or hashed where that text looks like a secret; compared by their total
    const placeholder = (id: string) => id.startsWith('[REDACTED_NAME') || id.startsWith('redacted-');
    const named = (m: Map<string, number>) => Object.fromEntries([...m].filter(([id]) => !placeholder(id)).sort());
    const total = (m: Map<string, number>) => [...m].filter(([id]) => placeholder(id)).reduce((n, [, v]) => n + v, 0);
    expect(named(got)).toEqual(named(want.calls));
    expect(total(got)).toBe(total(want.calls));
    expect(total(got)).toBe(5);
    expect(json.totals.requests).toBe(cases.length);
  });

  it('eval and report run on it; sticky retrieval keeps a set on the real sessions', async () => {
    const res = join(tmp, 'real-results');
    const e = await runCli(
      'eval',
      '--dataset',
      out,
      '--retrievers',
      'bm25,hybrid',
      '--split',
      'test',
      '--calibrate-on',
      'train',
      '--sticky',
      '--out',
      res,
      '--quiet',
    );
    expect(e.code, e.err).toBe(0);
    const results = JSON.parse(readFileSync(join(res, 'results.json'), 'utf8'));
    for (const name of ['bm25', 'hybrid']) {
      const s = results.retrievers[name].sessions;
      expect(s.sticky.keptRate).toBeGreaterThan(0);
      expect(s.perTurn.keptRate).toBe(0);
    }
    const rep = await runCli('report', res, '--out', join(tmp, 'real-report'));
    expect(rep.code, rep.err).toBe(0);
    const html = readFileSync(join(tmp, 'real-report', 'report.html'), 'utf8');
    expect(html).toContain('<section id="tool-use">');
    expect(existsSync(join(tmp, 'real-report', 'tool-use.png'))).toBe(true);
  });
});

describe('the imported dataset is read by every command like any other', { timeout: EVAL_BUDGET }, async () => {
  const ds = join(tmp, 'all');
  const i = await runCli('import', TRANSCRIPTS, '--out', ds, '--quiet');

  it('run --dataset evaluates it (test split, floors calibrated on train) and writes the report with its Tool use section', async () => {
    expect(i.code, i.err).toBe(0);
    const res = join(tmp, 'all-run');
    const r = await runCli('run', '--dataset', ds, '--results', res, '--retrievers', 'bm25', '--profiles', 'codex', '--workers', '1', '--quiet');
    expect(r.code, r.err).toBe(0);
    const results = JSON.parse(readFileSync(join(res, 'results.json'), 'utf8'));
    expect(results.config.floors.bm25.mode).toBe('auto');
    expect(results.dataset.cases).toBe(records(join(ds, 'queries.jsonl')).filter((c) => c.split === 'test').length);
    expect(readFileSync(join(res, 'report', 'summary.md'), 'utf8')).toMatch(/\*\*Tool use:\*\* \d+ of \d+ tools called/);
    const refused = await runCli('run', '--dataset', ds, '--out', join(tmp, 'x'), '--quiet');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--dataset runs on a dataset that exists, so --out');
  });

  it('bless and gate check its figures; diff compares it with another catalog', async () => {
    const res = join(tmp, 'all-eval');
    expect((await runCli('eval', '--dataset', ds, '--retrievers', 'bm25', '--out', res, '--quiet')).code).toBe(0);
    const expect_ = join(tmp, 'expected.yaml');
    expect((await runCli('bless', '--results', res, '--expect', expect_, '--reason', 'first import')).code).toBe(0);
    const g = await runCli('gate', '--results', res, '--expect', expect_);
    expect(g.code, g.err).toBe(0);
    expect(g.out).toMatch(/→ passed/);
    const d = await runCli('diff', '--old', ds, '--new', join(FIXTURES, 'catalogs', 'mcp-real-bundle.json'));
    expect([0, 100]).toContain(d.code);
    expect(d.err).not.toMatch(/\n\s+at /);
  });
});

describe('--catalog: the tools the agents had', () => {
  it('snapshots an mcpServers configuration; called tools get its definitions, the others are kept by id only', async () => {
    const dir = join(tmp, 'with-config');
    const project = join(dir, 'projects', 'p');
    mkdirSync(project, { recursive: true });
    const base = { sessionId: 'cccccccc-1111-4222-8333-444444444444', isSidechain: false };
    writeFileSync(
      join(project, 'cccccccc-1111-4222-8333-444444444444.jsonl'),
      [
        { ...base, type: 'user', timestamp: '2026-11-02T09:00:00Z', message: { role: 'user', content: 'run alpha on the queue' } },
        { ...base, type: 'assistant', message: { content: [{ type: 'tool_use', id: 't1', name: 'mcp__paging__alpha', input: {} }] } },
        { ...base, type: 'assistant', message: { content: [{ type: 'tool_use', id: 't2', name: 'mcp__paging__zulu', input: {} }] } },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { paging: { command: process.execPath, args: [join(FIXTURES, 'mcp-servers', 'paging-server.mjs')] } } }),
    );
    const ds = join(dir, 'ds');
    const r = await runCli('import', join(dir, 'projects'), '--catalog', config, '--out', ds, '--quiet');
    expect(r.code, r.err).toBe(0);
    const corpus = records(join(ds, 'corpus.jsonl'));
    expect(corpus.find((t) => t._id === 'mcp__paging__alpha')).toMatchObject({ description: 'The alpha tool. Second sentence.', server: 'paging' });
    expect(corpus.find((t) => t._id === 'mcp__paging__zulu')).toMatchObject({ idOnly: true, description: '' });
    expect(corpus.filter((t) => t.server === 'paging').map((t) => t._id)).toEqual([
      'mcp__paging__alpha',
      'mcp__paging__bravo',
      'mcp__paging__charlie',
      'mcp__paging__delta',
      'mcp__paging__echo',
      'mcp__paging__zulu',
    ]);
    expect(r.err).toContain('1 called tool is in no catalog given: kept by id only, with no description or schema (mcp__paging__zulu)');
    const m = JSON.parse(readFileSync(join(ds, 'manifest.json'), 'utf8'));
    expect(m.import.tools).toMatchObject({ fromCatalog: 5, idOnly: 1 });
  });
});

// ---------------------------------------------------------------------------------------------
// Privacy: a key, an e-mail address and a home path planted in every format appear in no file
// Backpack writes; neither do tool arguments and results.

const KEY = 'sk-proj-PLANTEDkey0123456789abcdefXYZ';
const EMAIL = 'planted.person@example.org';
const HOME = '/home/plantuser/secret-project';
const ARG = 'ARGMARKER4711';
const RESULT = 'RESULTMARKER0815';
const SECRETS = [KEY, EMAIL, 'plantuser', ARG, RESULT];
const leak = `my key is ${KEY}, mail ${EMAIL}, repo ${HOME}`;

function plantAll(dir: string): void {
  // Claude Code: the typed prompt, a tool's arguments and its result, in a project folder named after the home path
  const cc = join(dir, 'claude', '-home-plantuser-secret-project');
  mkdirSync(cc, { recursive: true });
  const base = { isSidechain: false, userType: 'external', cwd: HOME, sessionId: 'aaaaaaaa-1111-4222-8333-444444444444', version: '2.1.114' };
  writeFileSync(
    join(cc, 'aaaaaaaa-1111-4222-8333-444444444444.jsonl'),
    [
      { ...base, type: 'user', uuid: 'u1', timestamp: '2026-11-01T10:00:00Z', message: { role: 'user', content: `fix the build: ${leak}` } },
      {
        ...base,
        type: 'assistant',
        uuid: 'u2',
        timestamp: '2026-11-01T10:00:01Z',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `cat ${HOME}/.env ${ARG} ${KEY}` } }] },
      },
      {
        ...base,
        type: 'user',
        uuid: 'u3',
        timestamp: '2026-11-01T10:00:02Z',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `${RESULT} ${EMAIL} ${KEY}` }] },
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  // Codex: the typed message, a call's arguments, its output; the session's cwd
  const cx = join(dir, 'codex', '2026', '11', '01');
  mkdirSync(cx, { recursive: true });
  writeFileSync(
    join(cx, 'rollout-2026-11-01T10-00-00-bbbbbbbb-1111-4222-8333-444444444444.jsonl'),
    [
      {
        timestamp: '2026-11-01T10:00:00Z',
        type: 'session_meta',
        payload: { id: 'bbbbbbbb-1111-4222-8333-444444444444', timestamp: '2026-11-01T10:00:00Z', cwd: HOME },
      },
      { timestamp: '2026-11-01T10:00:01Z', type: 'event_msg', payload: { type: 'user_message', message: `deploy it: ${leak}` } },
      {
        timestamp: '2026-11-01T10:00:02Z',
        type: 'response_item',
        payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `${ARG} ${KEY}` }), call_id: 'c1' },
      },
      { timestamp: '2026-11-01T10:00:03Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: `${RESULT} ${EMAIL}` } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  // API logs (the three APIs): the user message, a tool's description, the call's arguments and the tool result, the auth header
  const tools = [
    {
      type: 'function',
      function: {
        name: 'send_report',
        description: `Send a report. Contact ${EMAIL} with key ${KEY}`,
        parameters: { type: 'object', properties: { to: { type: 'string', description: `default ${HOME}` } } },
      },
    },
  ];
  const chat = {
    request: {
      headers: { authorization: `Bearer ${KEY}` },
      body: {
        model: 'gpt',
        tools,
        messages: [
          { role: 'user', content: `send it: ${leak}` },
          { role: 'assistant', tool_calls: [{ id: 'k1', type: 'function', function: { name: 'send_report', arguments: `{"to":"${ARG}"}` } }] },
          { role: 'tool', tool_call_id: 'k1', content: RESULT },
        ],
      },
    },
    response: {
      body: {
        choices: [
          { message: { role: 'assistant', tool_calls: [{ id: 'k2', type: 'function', function: { name: 'send_report', arguments: `{"to":"${ARG}"}` } }] } },
        ],
      },
    },
  };
  const messages = {
    request: {
      body: {
        model: 'claude',
        system: `You help ${EMAIL}`,
        tools: [{ name: 'lookup', description: `Look up ${HOME}`, input_schema: { type: 'object', properties: {} } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: `look: ${leak}` }] }],
      },
    },
    response: { body: { type: 'message', content: [{ type: 'tool_use', id: 'x1', name: 'lookup', input: { q: ARG } }] } },
  };
  const responses = {
    request: {
      body: {
        model: 'gpt',
        input: `find: ${leak}`,
        tools: [{ type: 'function', name: 'find', description: `Find in ${HOME}`, parameters: { type: 'object', properties: {} } }],
      },
    },
    response: { body: { id: 'resp_1', output: [{ type: 'function_call', call_id: 'f1', name: 'find', arguments: `{"q":"${ARG}"}` }] } },
  };
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileSync(join(dir, 'logs', 'gateway.jsonl'), [chat, messages, responses].map((r) => JSON.stringify(r)).join('\n'));
  // OTel: the input messages, a tool call's arguments, the tool definitions, a tool span's result
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const span = (id: string, start: number, attributes: unknown[]) => ({
    traceId: 'c'.repeat(32),
    spanId: id,
    name: 'x',
    startTimeUnixNano: String(start),
    attributes,
  });
  const otel = {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              span('a'.repeat(16), 1, [
                attr('gen_ai.operation.name', 'chat'),
                attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `trace: ${leak}` }] }])),
                attr(
                  'gen_ai.output.messages',
                  JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'o1', name: 'probe', arguments: { x: ARG } }] }]),
                ),
                attr('gen_ai.tool.definitions', JSON.stringify([{ type: 'function', name: 'probe', description: `Probe for ${EMAIL}` }])),
              ]),
              span('b'.repeat(16), 2, [
                attr('gen_ai.operation.name', 'execute_tool'),
                attr('gen_ai.tool.name', 'probe'),
                attr('gen_ai.tool.call.id', 'o1'),
                attr('gen_ai.tool.call.result', RESULT),
              ]),
            ],
          },
        ],
      },
    ],
  };
  mkdirSync(join(dir, 'otel'), { recursive: true });
  writeFileSync(join(dir, 'otel', 'traces.json'), JSON.stringify(otel));
}

describe('privacy: nothing planted in a transcript reaches a file Backpack writes', () => {
  it('redacts keys, e-mail addresses and home paths in every format, and never writes arguments or results', async () => {
    const src = join(tmp, 'planted');
    plantAll(src);
    const ds = join(tmp, 'planted-ds');
    const i = await runCli('import', src, '--out', ds, '--quiet');
    expect(i.code, i.err).toBe(0);
    const manifest = JSON.parse(readFileSync(join(ds, 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.import.formats).sort()).toEqual(['api-log', 'claude-code', 'codex', 'otel']);
    expect(manifest.counts.cases).toBe(6); // one typed request in each file of the four formats, three APIs in the log
    // each typed request holds the three, and descriptions hold more: everything counted
    expect(manifest.import.redactions['api-key']).toBeGreaterThanOrEqual(6);
    expect(manifest.import.redactions.email).toBeGreaterThanOrEqual(6);
    expect(manifest.import.redactions['home-path']).toBeGreaterThanOrEqual(6);
    const res = join(tmp, 'planted-res');
    const e = await runCli('eval', '--dataset', ds, '--retrievers', 'bm25', '--profiles', 'static,codex', '--out', res, '--quiet');
    expect(e.code, e.err).toBe(0);
    // the PNGs draw text as pixels: the formats a secret could be read from are the others
    const rep = await runCli('report', res, '--out', join(tmp, 'planted-report'), '--format', 'html,md,junit');
    expect(rep.code, rep.err).toBe(0);
    const a = await runCli('audit', '--dataset', ds, '--json');
    expect(a.code).toBe(0);
    const written = [...walk(ds), ...walk(res), ...walk(join(tmp, 'planted-report'))];
    expect(written.length).toBeGreaterThan(20);
    for (const f of written) {
      const text = readFileSync(f).toString('latin1');
      for (const s of SECRETS) expect(text.includes(s), `${relative(tmp, f)} holds ${s}`).toBe(false);
    }
    for (const s of SECRETS) expect(`${i.out}${a.out}`).not.toContain(s);
  });
});

// ---------------------------------------------------------------------------------------------

describe('bad input: exit 2 or a counted warning, never a stack trace, nothing half written', () => {
  const copyOf = (name: string, rel: string): string => {
    const dir = join(tmp, name);
    mkdirSync(dir, { recursive: true });
    cpSync(join(TRANSCRIPTS, rel), join(dir, rel.split('/').pop()!));
    return dir;
  };
  const CODEX = 'codex/sessions/2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl';

  it('a truncated last line and unknown record types are counted and warned, the rest imported', async () => {
    const dir = copyOf('truncated', CODEX);
    const f = join(dir, readdirSync(dir)[0]!);
    const text = readFileSync(f, 'utf8');
    writeFileSync(
      f,
      `${text}{"timestamp":"2026-02-23T20:00:00Z","type":"brand_new_kind","payload":{}}\n{"timestamp":"2026-02-23T20:00:01Z","type":"event_msg","pay`,
    );
    const r = await runCli('import', dir, '--out', join(tmp, 'truncated-ds'), '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('truncated-last-line ×1');
    expect(r.err).toContain('brand_new_kind ×1');
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('a transcript with no typed request: exit 2 alone, a counted warning beside others', async () => {
    const alone = copyOf('no-typed', 'claude-code/sample-project/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    const r = await runCli('import', alone, '--out', join(tmp, 'no-typed-ds'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no typed request found \(1 file read\)/);
    expect(existsSync(join(tmp, 'no-typed-ds'))).toBe(false);
    cpSync(join(TRANSCRIPTS, CODEX), join(alone, 'codex.jsonl'));
    const both = await runCli('import', alone, '--out', join(tmp, 'no-typed-ds'), '--quiet');
    expect(both.code, both.err).toBe(0);
    expect(both.err).toContain('1 session has no typed request, left out');
  });

  it('a 200 MB transcript of one unreadable line is read in bounded memory and refused with exit 2', async () => {
    const dir = join(tmp, 'huge');
    mkdirSync(dir);
    const f = join(dir, 'huge.jsonl');
    writeFileSync(f, '');
    truncateSync(f, 200 * 1024 * 1024); // sparse: nothing is written to disk
    const r = await runCli('import', f, '--from', 'claude-code', '--out', join(tmp, 'huge-ds'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toContain('record-too-large ×1');
    expect(r.err).toMatch(/no typed request found/);
    expect(existsSync(join(tmp, 'huge-ds'))).toBe(false);
  });

  it('several formats in one folder are each detected; a file in none is counted', async () => {
    const dir = join(tmp, 'mixed');
    cpSync(TRANSCRIPTS, dir, { recursive: true });
    writeFileSync(join(dir, 'notes.jsonl'), '{"hello":"world"}\n');
    const r = await runCli('import', dir, '--out', join(tmp, 'mixed-ds'), '--quiet');
    expect(r.code, r.err).toBe(0);
    const m = JSON.parse(readFileSync(join(tmp, 'mixed-ds', 'manifest.json'), 'utf8'));
    expect(Object.keys(m.import.formats).sort()).toEqual(['api-log', 'claude-code', 'codex', 'otel']);
    expect(m.import.files.unrecognised).toBe(1);
    expect(r.err).toMatch(/1 file is in no transcript format Backpack reads, left out \(first: notes\.jsonl\)/);
    const cases = records(join(tmp, 'mixed-ds', 'queries.jsonl'));
    expect(new Set(cases.flatMap((c) => c.slices.filter((s: string) => s.startsWith('from:'))))).toEqual(
      new Set(['from:api-log', 'from:claude-code', 'from:codex', 'from:otel']),
    );
  });

  it('a file named on the command line in no known format is exit 2, naming it', async () => {
    const f = join(tmp, 'plain.jsonl');
    writeFileSync(f, '{"a":1}\n');
    const r = await runCli('import', f, '--out', join(tmp, 'plain-ds'));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${f}: not a transcript in any format Backpack reads`);
  });
});
