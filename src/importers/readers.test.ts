/**
 * The transcript readers on the real fixtures and on small inputs in each format's shapes: what is
 * a typed request, which calls belong to it, how tools are named, what is skipped.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../test/helpers.ts';
import { codexNotTyped, codexToolId } from './codex.ts';
import { anyTime } from './records.ts';
import { detectTranscriptFormat, transcriptFormats } from './registry.ts';
import type { FileRead } from './types.ts';

const T = join(FIXTURES, 'transcripts');
const dir = tempDir('readers');
const read = (format: string, file: string): FileRead => transcriptFormats.require(format).read({ file, relative: file });
const jsonl = (name: string, rows: unknown[]): string => {
  const p = join(dir, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n'));
  return p;
};
const summary = (r: FileRead) => r.sessions.flatMap((s) => s.requests.map((q) => ({ text: q.text.slice(0, 40), calls: q.calls.map((c) => c.id) })));

describe('format detection', () => {
  it('tells each real fixture by its first records', () => {
    expect(detectTranscriptFormat(join(T, 'claude-code/-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl'))).toBe('claude-code');
    expect(detectTranscriptFormat(join(T, 'codex/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'))).toBe('codex');
    expect(detectTranscriptFormat(join(T, 'codex/sessions/2025/08/01/rollout-2025-08-01T12-00-00-0198b1c2-aaaa-7bbb-8ccc-123456789abc.jsonl'))).toBe('codex');
    expect(detectTranscriptFormat(join(T, 'api-logs/claude-trace.anthropic-messages.jsonl'))).toBe('api-log');
    expect(detectTranscriptFormat(join(T, 'otel/genai-interlingua.openllmetry.otlp.json'))).toBe('otel');
    expect(detectTranscriptFormat(join(T, 'otel/handwritten.genai-agent.otlp.jsonl'))).toBe('otel');
    expect(detectTranscriptFormat(jsonl('other.jsonl', [{ hello: 'world' }]))).toBeUndefined();
  });
});

describe('claude-code', () => {
  it('reads typed prompts, not tool results, meta, slash commands, interrupts or compaction summaries', () => {
    const r = read('claude-code', join(T, 'claude-code/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl'));
    expect(summary(r).map((q) => q.text)).toEqual(['start phoenix in background', 'scrolling back in xterm.js still does no']);
    expect(r.skipped.toJSON()).toMatchObject({ interrupted: 2, meta: 1, 'slash-command': 2, 'queue-operation': 2 });
  });

  it('gives a subagent file its parent session and the ids that link it to the turn that started it', () => {
    const sub = read(
      'claude-code',
      join(T, 'claude-code/-home-USER-work-handwritten-mcp/5b1f0c2e-8d3a-4c1e-9f00-1a2b3c4d5e6f/subagents/agent-a1b2c3d4e5f6a7b8c.jsonl'),
    );
    expect(sub.sessions).toHaveLength(1);
    expect(sub.sessions[0]).toMatchObject({ requests: [], parent: { sessionId: '5b1f0c2e-8d3a-4c1e-9f00-1a2b3c4d5e6f', links: ['a1b2c3d4e5f6a7b8c', 'p-2'] } });
    expect(sub.sessions[0]!.leading.map((c) => c.id)).toEqual(['mcp__github__get_pull_request_diff', 'Read']);
    const main = read('claude-code', join(T, 'claude-code/-home-USER-work-handwritten-mcp/5b1f0c2e-8d3a-4c1e-9f00-1a2b3c4d5e6f.jsonl'));
    expect(main.sessions[0]!.requests[1]!.links).toEqual(['p-2', 'a1b2c3d4e5f6a7b8c']);
  });

  it('skips compaction runs, and puts inline sidechain calls (Claude Code 1.0) on the turn, marked', () => {
    const compact = read(
      'claude-code',
      join(T, 'claude-code/-home-USER-projects-spotter-worktrees-spotter-4te/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl'),
    );
    expect(compact.sessions).toEqual([]);
    expect(compact.skipped.get('compaction-agent')).toBe(1);
    const inline = jsonl('inline/s.jsonl', [
      { type: 'user', sessionId: 's', uuid: 'a', isSidechain: false, message: { role: 'user', content: 'research the API' } },
      { type: 'assistant', sessionId: 's', uuid: 'b', isSidechain: false, message: { content: [{ type: 'tool_use', id: 't1', name: 'Task', input: {} }] } },
      { type: 'user', sessionId: 's', uuid: 'c', isSidechain: true, message: { role: 'user', content: 'prompt written by the parent' } },
      { type: 'assistant', sessionId: 's', uuid: 'd', isSidechain: true, message: { content: [{ type: 'tool_use', id: 't2', name: 'WebSearch', input: {} }] } },
      { type: 'assistant', sessionId: 's', uuid: 'd', isSidechain: true, message: { content: [{ type: 'tool_use', id: 't2', name: 'WebSearch', input: {} }] } },
    ]);
    const r = read('claude-code', inline);
    expect(r.sessions[0]!.requests[0]!.calls).toEqual([{ id: 'Task' }, { id: 'WebSearch', subagent: true }]);
    expect(r.skipped.get('subagent-message')).toBe(1);
  });

  it('removes injected context from a prompt and reads an image-only prompt as no request', () => {
    const f = jsonl('inject/s.jsonl', [
      {
        type: 'user',
        sessionId: 's',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
            { type: 'text', text: 'fix the tests' },
          ],
        },
      },
      { type: 'user', sessionId: 's', message: { role: 'user', content: [{ type: 'image', source: {} }] } },
      { type: 'user', sessionId: 's', message: { role: 'user', content: '<task-notification>done</task-notification>' } },
    ]);
    const r = read('claude-code', f);
    expect(summary(r)).toEqual([{ text: 'fix the tests', calls: [] }]);
    expect(r.skipped.toJSON()).toMatchObject({ 'image-only': 1, 'task-notification': 1 });
  });
});

describe('codex', () => {
  it('names MCP calls in each of Codex’s three eras, and leaves built-in names alone', () => {
    expect(codexToolId('js', 'mcp__node_repl__')).toBe('mcp__node_repl__js'); // April 2026 on: namespace + name
    expect(codexToolId('mcp__n8n-mcp__n8n_health_check')).toBe('mcp__n8n-mcp__n8n_health_check'); // October 2025 on
    expect(codexToolId('linear__search_issues')).toBe('mcp__linear__search_issues'); // before October 2025
    expect(codexToolId('exec_command')).toBe('exec_command');
    expect(codexToolId('create_event', 'codex_app__')).toBe('codex_app__create_event'); // a dynamic tool's namespace
  });

  it('knows Codex’s injected context from a typed request', () => {
    expect(codexNotTyped('<environment_context>\n<cwd>/x</cwd>\n</environment_context>')).toBe('context');
    expect(codexNotTyped('# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>…')).toBe('context');
    expect(codexNotTyped('Another language model started to solve this problem and produced a summary')).toBe('compaction-summary');
    expect(codexNotTyped('show me the environment_context docs')).toBeUndefined();
  });

  it('reads typed requests from the events when the rollout has them, the IDE prefix removed', () => {
    const r = read('codex', join(T, 'codex/sessions/2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'));
    expect(r.sessions[0]!.requests.map((q) => q.text.slice(0, 30))).toEqual([
      'analyze trascript and summarzi',
      'there is a need for nikita to ',
      'use app tools to go to Analyti',
    ]);
    // the file's 17 function calls: 11 after the first request, none after the second, 6 after the third
    expect(r.sessions[0]!.requests.map((q) => q.calls.length)).toEqual([11, 0, 6]);
    expect(r.sessions[0]!.requests[2]!.calls.map((c) => c.id)).toEqual([
      'exec_command',
      'exec_command',
      'exec_command',
      'mcp__node_repl__js',
      'exec_command',
      'exec_command',
    ]);
  });

  it('reads the layout before the envelope: a bare session meta, bare items, context preambles skipped', () => {
    const r = read('codex', join(T, 'codex/sessions/2025/08/01/rollout-2025-08-01T12-00-00-0198b1c2-aaaa-7bbb-8ccc-123456789abc.jsonl'));
    expect(r.sessions[0]!.id).toBe('0198b1c2-aaaa-7bbb-8ccc-123456789abc');
    expect(summary(r)).toEqual([
      { text: 'list the failing tests in the web packag', calls: ['shell', 'mcp__linear__search_issues'] },
      { text: 'ok thanks', calls: [] },
    ]);
    expect(r.skipped.toJSON()).toMatchObject({ context: 2, state: 2 });
  });

  it('renames a call by the raw names of its mcp_tool_call_end, and reads a subagent thread and a fork', () => {
    const meta = (id: string, extra: object = {}) => ({
      timestamp: '2026-01-01T00:00:00Z',
      type: 'session_meta',
      payload: { id, timestamp: '2026-01-01T00:00:00Z', ...extra },
    });
    const ev = (message: string, at: string) => ({ timestamp: at, type: 'event_msg', payload: { type: 'user_message', message } });
    const call = (name: string, id: string) => ({
      timestamp: '2026-01-01T00:00:05Z',
      type: 'response_item',
      payload: { type: 'function_call', name, arguments: '{}', call_id: id },
    });
    const end = {
      timestamp: '2026-01-01T00:00:06Z',
      type: 'event_msg',
      payload: { type: 'mcp_tool_call_end', call_id: 'c1', invocation: { server: 'my-server', tool: 'do.thing' } },
    };
    const main = read('codex', jsonl('cx/main.jsonl', [meta('P'), ev('first', '2026-01-01T00:00:01Z'), call('mcp__my_server__do_thing', 'c1'), end]));
    expect(main.sessions[0]!.requests[0]!.calls).toEqual([{ id: 'mcp__my-server__do.thing' }]);
    const child = read(
      'codex',
      jsonl('cx/child.jsonl', [
        meta('C', { source: { subagent: { thread_spawn: { parent_thread_id: 'P', depth: 1 } } } }),
        ev('parent wrote this', '2026-01-01T00:00:02Z'),
        call('shell', 'c9'),
      ]),
    );
    expect(child.sessions[0]).toMatchObject({ requests: [], parent: { sessionId: 'P', links: [] }, leading: [{ id: 'shell' }] });
    const review = read('codex', jsonl('cx/review.jsonl', [meta('R', { source: { subagent: 'review' } }), ev('review this', '2026-01-01T00:00:02Z')]));
    expect(review.sessions).toEqual([]);
    const fork = read('codex', jsonl('cx/fork.jsonl', [meta('F', { forked_from_id: 'P' })]));
    expect(fork.sessions[0]!.forkedFrom).toBe('P');
  });
});

describe('api-log', () => {
  it('reads the claude-trace capture: side calls without tools skipped, the typed text out of its reminders, calls from the stream', () => {
    const r = read('api-log', join(T, 'api-logs/claude-trace.anthropic-messages.jsonl'));
    expect(summary(r)).toEqual([{ text: 'create a folder weather and generate a s', calls: ['TodoWrite', 'LS'] }]);
    expect(r.skipped.get('side-call-without-tools')).toBe(2);
    expect(r.tools.map((t) => t.id)).toContain('mcp__ide__getDiagnostics');
    expect(r.tools.find((t) => t.id === 'mcp__ide__getDiagnostics')).toMatchObject({ source: 'mcp', server: 'ide', name: 'getDiagnostics' });
    expect(r.tools.filter((t) => t.id === 'Bash')).toHaveLength(2); // advertised on both main-thread calls
  });

  it('reads the recorded Responses calls: a remote MCP call and the tools its mcp_list_tools lists; a later request with no call', () => {
    const r = read('api-log', join(T, 'api-logs/pydantic-ai.openai-responses-mcp.jsonl'));
    expect(summary(r)).toEqual([
      { text: 'Can you tell me more about the pydantic/', calls: ['mcp__deepwiki__ask_question'] },
      { text: 'What packages does the repo contain?', calls: [] },
    ]);
    // the mcp_list_tools of call 1 (allowed_tools: ask_question); call 2 resends it with tools: [], which adds nothing
    expect(r.tools.map((t) => t.id)).toEqual(['mcp__deepwiki__ask_question']);
    expect(r.tools[0]).toMatchObject({ source: 'mcp', server: 'deepwiki', description: 'Ask any question about a GitHub repository' });
  });

  it('merges a streamed Chat Completions call from its deltas', () => {
    const r = read('api-log', join(T, 'api-logs/pydantic-ai.openai-chat-stream-tool-call.jsonl'));
    expect(summary(r)).toEqual([{ text: 'What is the capital of the UK? Use the t', calls: ['get_capital'] }]);
  });

  it('counts a call the history and a response both show once, and gives each typed message its turn', () => {
    const r = read('api-log', join(T, 'api-logs/handwritten.openai-chat.jsonl'));
    expect(summary(r)).toEqual([
      { text: 'Find the open invoices for Acme and emai', calls: ['list_invoices', 'send_email'] },
      { text: "thanks, that's all", calls: [] },
    ]);
    expect(r.sessions[0]!.requests[0]!.at).toBe('2025-11-24T16:00:00.500Z');
  });

  it('reads the other envelopes: Helicone, LiteLLM, OpenPipe; chains Responses by previous_response_id', () => {
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
    const chatBody = { model: 'm', tools, messages: [{ role: 'user', content: 'find order 7' }] };
    const answer = {
      choices: [{ message: { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'lookup', arguments: '{}' } }] } }],
    };
    const f = jsonl('envelopes.jsonl', [
      { request_body: JSON.stringify(chatBody), response_body: answer, request_created_at: '2026-01-01T00:00:00Z' },
      { call_type: 'acompletion', messages: [{ role: 'user', content: 'litellm says hi' }], model_parameters: { tools }, response: answer },
      { input: { ...chatBody, messages: [{ role: 'user', content: 'openpipe asks' }] }, output: answer },
      {
        request: { body: { input: 'step one', tools: [{ type: 'function', name: 'a' }] } },
        response: { body: { id: 'r1', output: [{ type: 'function_call', name: 'a', call_id: 'f1' }] } },
      },
      {
        request: { body: { input: [{ role: 'user', content: 'step two' }], previous_response_id: 'r1', tools: [{ type: 'function', name: 'a' }] } },
        response: { body: { id: 'r2', output: [{ type: 'web_search_call', id: 'w' }] } },
      },
    ]);
    const r = read('api-log', f);
    expect(summary(r)).toEqual([
      { text: 'find order 7', calls: ['lookup'] },
      { text: 'litellm says hi', calls: ['lookup'] },
      { text: 'openpipe asks', calls: ['lookup'] },
      { text: 'step one', calls: ['a'] },
      { text: 'step two', calls: ['web_search'] },
    ]);
    expect(r.sessions.find((s) => s.requests.some((q) => q.text === 'step two'))!.requests.map((q) => q.text)).toEqual(['step one', 'step two']);
  });

  it('reads times as the loggers write them: seconds, milliseconds, ISO with and without a zone', () => {
    expect(anyTime(1748554704.293)).toBe('2025-05-29T21:38:24.293Z');
    expect(anyTime(1748554704293)).toBe('2025-05-29T21:38:24.293Z');
    expect(anyTime('2025-05-29T23:38:25.033061')).toBe('2025-05-29T23:38:25.033Z');
    expect(anyTime('2025-05-29T23:38:25+02:00')).toBe('2025-05-29T21:38:25.000Z');
    expect(anyTime('soon')).toBeUndefined();
  });
});

describe('otel', () => {
  it('reads the real captures of three instrumentations (current conventions, openai-v2, OpenInference)', () => {
    for (const f of ['genai-interlingua.openllmetry.otlp.json', 'genai-interlingua.openai-v2.otlp.json', 'genai-interlingua.openinference.otlp.json']) {
      const r = read('otel', join(T, 'otel', f));
      expect(summary(r), f).toEqual([{ text: 'Where is order A-1187?', calls: ['lookup_order'] }]);
    }
    expect(read('otel', join(T, 'otel/genai-interlingua.openllmetry.otlp.json')).tools.map((t) => t.id)).toEqual(['lookup_order']);
  });

  it('joins traces by conversation id, and counts a tool span the model span already showed once', () => {
    const r = read('otel', join(T, 'otel/handwritten.genai-agent.otlp.jsonl'));
    expect(r.sessions.map((s) => s.id)).toEqual(['conv-7f3a']);
    expect(summary(r)).toEqual([
      { text: 'Is there already an issue about the logi', calls: ['search_issues'] },
      { text: "Then open one in acme/web titled 'Login ", calls: ['mcp__github__create_issue'] },
    ]);
  });

  it('reads OpenLLMetry’s older indexed attributes', () => {
    const a = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const f = join(dir, 'legacy.json');
    writeFileSync(
      f,
      JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: 't',
                    spanId: 's',
                    startTimeUnixNano: '1',
                    attributes: [
                      a('gen_ai.prompt.0.role', 'user'),
                      a('gen_ai.prompt.0.content', 'what is the weather'),
                      a('gen_ai.completion.0.tool_calls.0.name', 'get_weather'),
                      a('llm.request.functions.0.name', 'get_weather'),
                      a('llm.request.functions.0.description', 'Weather now'),
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const r = read('otel', f);
    expect(summary(r)).toEqual([{ text: 'what is the weather', calls: ['get_weather'] }]);
    expect(r.tools[0]).toMatchObject({ id: 'get_weather', description: 'Weather now' });
  });
});

describe('what is skipped is counted within bounds', () => {
  it('clips a record type used as a count name, and folds names past 200 into "other"', () => {
    const rows = [
      { type: 'user', sessionId: 's', message: { role: 'user', content: 'hello' } },
      { type: `x${'y'.repeat(5000)}\u0007`, sessionId: 's' },
      ...Array.from({ length: 300 }, (_, i) => ({ type: `kind-${i}`, sessionId: 's' })),
    ];
    const r = read('claude-code', jsonl('many-types/s.jsonl', rows));
    const names = Object.keys(r.skipped.toJSON());
    expect(names.length).toBe(201); // 200 kept apart, and other
    expect(Math.max(...names.map((n) => n.length))).toBe(4096); // the import redacts, then cuts to 64
    expect(names.find((n) => n.startsWith('unknown-type:xyyy'))!.endsWith('…')).toBe(true);
    expect(r.skipped.get('other')).toBe(101); // 301 unknown types, 200 kept apart
  });
});
