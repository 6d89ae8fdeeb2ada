import { describe, expect, it } from 'vitest';
import { bundleCatalog, bundleServer, bundleServerProblem, bundleText, makeBundle, toolsSha256 } from './bundle.ts';
import type { McpConfig, StdioSpec } from './config.ts';
import type { ServerSnapshot } from './server.ts';

const spec = (name: string, env: Record<string, string> = {}): StdioSpec => ({
  name,
  key: name,
  where: `$.mcpServers.${name}`,
  transport: 'stdio',
  command: 'x',
  args: ['--token', 'argsecret'],
  env,
  envNames: Object.keys(env).sort(),
});
const snap = (name: string, tools: Array<Record<string, unknown>>, env: Record<string, string> = {}): ServerSnapshot => ({
  name,
  spec: spec(name, env),
  transport: 'stdio',
  serverInfo: { name: `${name}-server`, version: '1.0.0', title: `${name} title` },
  protocolVersion: '2025-06-18',
  instructions: `use ${name}`,
  tools,
  pages: { tools: 1 },
  takenAt: '2026-01-01T00:00:00.000Z',
});
const config: McpConfig = { file: '/p/.mcp.json', sha256: 'abc', shape: 'mcpServers', servers: [], disabled: [] };
const tool = (name: string) => ({ name, description: `Does ${name}. More.`, inputSchema: { type: 'object' } });

describe('the snapshot bundle', () => {
  it('hashes the canonical tools JSON: key order does not matter, content does', () => {
    expect(toolsSha256([{ a: 1, b: 2 }])).toBe(toolsSha256([{ b: 2, a: 1 }]));
    expect(toolsSha256([tool('a'), tool('b')])).not.toBe(toolsSha256([tool('b'), tool('a')]));
  });

  it('puts servers in name order, writes no env value nor args, and loads as a catalog', () => {
    const b = makeBundle(
      config,
      [bundleServer(snap('zeta', [tool('z')], { KEY: 'envsecret' })), bundleServer(snap('alpha', [tool('b'), tool('a')]))],
      ['broken'],
      '2026-01-01T00:00:00.000Z',
    );
    expect(b.servers.map((s) => s.name)).toEqual(['alpha', 'zeta']);
    expect(b.snapshot).toMatchObject({ config: { file: '.mcp.json', sha256: 'abc', shape: 'mcpServers' }, servers: 2, failed: ['broken'] });
    const text = bundleText(b);
    expect(text).not.toContain('envsecret');
    expect(text).not.toContain('argsecret');
    expect(b.servers[1]!.snapshot.envNames).toEqual(['KEY']);
    const catalog = bundleCatalog(b, 'x.json');
    expect(catalog.tools.map((t) => t.id)).toEqual(['mcp__alpha__b', 'mcp__alpha__a', 'mcp__zeta__z']);
    expect(catalog.servers.map((s) => [s.name, s.description, s.instructions])).toEqual([
      ['alpha', 'alpha title', 'use alpha'],
      ['zeta', 'zeta title', 'use zeta'],
    ]);
  });

  it("says why a server's tools would not load", () => {
    expect(bundleServerProblem(bundleServer(snap('s', [tool('a')])), 'c.json')).toBeNull();
    expect(bundleServerProblem(bundleServer(snap('s', [tool('a'), tool('a')])), 'c.json')).toMatch(/duplicate tool id "mcp__s__a"/);
    expect(bundleServerProblem(bundleServer(snap('s', [{ name: 'a', inputSchema: { type: 'string' } }])), 'c.json')).toMatch(/inputSchema/);
  });
});
