import { describe, expect, it } from 'vitest';
import type { StdioSpec } from './config.ts';
import { outcomeLine, warningLines } from './report.ts';
import type { ServerSnapshot } from './server.ts';

const spec: StdioSpec = { name: 's', key: 's', where: '$.mcpServers.s', transport: 'stdio', command: 'x', args: [], env: {}, envNames: [] };
const snap = (over: Partial<ServerSnapshot>): ServerSnapshot => ({
  name: 's',
  spec,
  transport: 'stdio',
  serverInfo: { name: 'srv', version: '1' },
  protocolVersion: null,
  instructions: '',
  tools: [],
  pages: { tools: 1 },
  takenAt: '',
  ...over,
});

describe('report lines', () => {
  it('counts in the singular and the plural', () => {
    expect(outcomeLine({ ok: true, snapshot: snap({ tools: [{}], prompts: [{}], resources: [{}] }) })).toBe(
      'ok      s: 1 tool, 1 prompt, 1 resource (stdio, srv 1)',
    );
    expect(outcomeLine({ ok: true, snapshot: snap({ tools: [{}, {}], prompts: [], resources: [{}, {}] }) })).toBe(
      'ok      s: 2 tools, 0 prompts, 2 resources (stdio, srv 1)',
    );
  });

  it('warns of each optional list the server failed to give', () => {
    expect(warningLines({ ok: true, snapshot: snap({}) })).toEqual([]);
    expect(warningLines({ ok: true, snapshot: snap({ listErrors: { prompts: 'MCP error -32603: boom', resourceTemplates: 'x' } }) })).toEqual([
      'warning s: prompts/list failed (MCP error -32603: boom); left out, its tools are kept',
      'warning s: resources/templates/list failed (x); left out, its tools are kept',
    ]);
  });
});
