import { describe, expect, it } from 'vitest';
import { inputError } from '../../test/helpers.ts';
import { chooseServersFromFlags, parseMcpConfig, type RemoteSpec, type StdioSpec } from './config.ts';
import { isMcpConfigShape } from '../catalog/loaders/config-shape.ts';

const parse = (v: unknown, env: Record<string, string> = {}) => parseMcpConfig(v, '/p/.mcp.json', 'sha', env);
const where = (v: unknown, env: Record<string, string> = {}) => inputError(() => parse(v, env)).describe();

describe('isMcpConfigShape', () => {
  it('tells configurations from bundles and other catalogs', () => {
    expect(isMcpConfigShape({ mcpServers: {} })).toBe(true);
    expect(isMcpConfigShape({ servers: { a: { type: 'stdio', command: 'x' } } })).toBe(true);
    expect(isMcpConfigShape({ servers: [{ name: 'a', tools: [] }] })).toBe(false);
    expect(isMcpConfigShape({ tools: [] })).toBe(false);
    expect(isMcpConfigShape([])).toBe(false);
  });
});

describe('parseMcpConfig', () => {
  it('reads stdio and remote servers in name order, expanding variables, keeping names of secrets', () => {
    const c = parse(
      {
        mcpServers: {
          zeta: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
          alpha: { command: 'npx', args: ['-y', 'pkg', '${env:DIR}'], env: { API_KEY: 'k' }, cwd: 'sub', disabled: false },
          off: { command: 'x', disabled: true },
          'my server': { type: 'sse', url: 'http://127.0.0.1:1/sse', env: null },
        },
      },
      { TOKEN: 't0k', DIR: '/data' },
    );
    expect(c.shape).toBe('mcpServers');
    expect(c.servers.map((s) => s.name)).toEqual(['alpha', 'my_server', 'zeta']);
    expect(c.disabled).toEqual(['off']);
    const alpha = c.servers[0] as StdioSpec;
    expect(alpha).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg', '/data'],
      env: { API_KEY: 'k' },
      cwd: '/p/sub',
      envNames: ['API_KEY', 'DIR'],
    });
    expect(c.servers[1]).toMatchObject({ key: 'my server', transport: 'sse' });
    const zeta = c.servers[2] as RemoteSpec;
    expect(zeta).toMatchObject({ transport: 'auto', headers: { Authorization: 'Bearer t0k' }, envNames: ['TOKEN'] });
  });

  it("reads VS Code's servers object and its types", () => {
    const c = parse({ servers: { gh: { type: 'http', url: 'http://127.0.0.1:9/mcp' }, fs: { type: 'stdio', command: 'node', args: [] } } });
    expect(c.shape).toBe('servers');
    expect(c.servers.map((s) => [s.name, s.transport])).toEqual([
      ['fs', 'stdio'],
      ['gh', 'streamable-http'],
    ]);
  });

  it('names the file and JSON path of what is wrong', () => {
    expect(where({ mcpServers: { github: { command: 'gh', args: ['a', 7] } } })).toBe(
      '/p/.mcp.json: $.mcpServers.github.args[1]: server "github": args[1] must be a string (got a number)',
    );
    expect(where({ mcpServers: { 'my-x': {} } })).toMatch(/^\/p\/\.mcp\.json: \$\.mcpServers\["my-x"\]: server "my-x" has neither "command"/);
    expect(where({ mcpServers: { a: { command: 'x', env: { K: 1 } } } })).toMatch(/\$\.mcpServers\.a\.env\.K: .*must be a string/);
    expect(where({ mcpServers: { a: { url: 'http://x', type: 'websocket' } } })).toMatch(/\$\.mcpServers\.a\.type: .*unknown type "websocket"/);
    expect(where({ mcpServers: { a: { url: 'ftp://x' } } })).toMatch(/\$\.mcpServers\.a\.url: .*http: or https:/);
    expect(where({ mcpServers: { a: { command: 'x', url: 'http://x' } } })).toMatch(/both "command" and "url"/);
    expect(where({ mcpServers: { 'a/b': { command: 'x' } } })).toMatch(/not valid for tool ids/);
    expect(where({ mcpServers: { 'a b': { command: 'x' }, a_b: { command: 'y' } } })).toMatch(/same name/);
    expect(where({ mcpServers: [] })).toMatch(/\$\.mcpServers: "mcpServers" must be an object/);
    expect(where({ servers: [] })).toMatch(/bundle/);
    expect(where({ tools: [] })).toMatch(/^\/p\/\.mcp\.json: \$: not an MCP configuration/);
  });

  it('fails on a variable that is not set, or a cwd that is not a folder, only for the servers chosen', () => {
    const c = parse({
      mcpServers: {
        a: { command: '${NOPE}' },
        b: { command: 'x', env: { T: '${env:NOPE}' } },
        c: { command: 'x', cwd: 'no-such-folder' },
        d: { url: 'https://${NOPE}/mcp' },
        ok: { command: 'x' },
      },
    });
    expect(chooseServersFromFlags(c, ['ok']).map((s) => s.name)).toEqual(['ok']);
    const chosen = (n: string) => inputError(() => chooseServersFromFlags(c, [n])).describe();
    expect(chosen('a')).toMatch(/\$\.mcpServers\.a\.command: environment variable NOPE is not set/);
    expect(chosen('b')).toMatch(/\$\.mcpServers\.b\.env\.T: environment variable NOPE is not set/);
    expect(chosen('c')).toBe('/p/.mcp.json: $.mcpServers.c.cwd: server "c": "cwd" is not an existing folder: /p/no-such-folder');
    expect(chosen('d')).toMatch(/\$\.mcpServers\.d\.url: environment variable NOPE/);
    expect(inputError(() => chooseServersFromFlags(c, [])).describe()).toMatch(/\$\.mcpServers\.a\.command: environment variable NOPE/);
    // Shape errors still fail the whole configuration, chosen or not.
    expect(where({ mcpServers: { a: { command: 'x', args: '${NOPE}' }, ok: { command: 'x' } } })).toMatch(/\$\.mcpServers\.a\.args: .*must be an array/);
  });

  it('chooses servers by key or name, with a did-you-mean for an unknown one', () => {
    const c = parse({ mcpServers: { memory: { command: 'm' }, filesystem: { command: 'f' }, off: { command: 'o', disabled: true } } });
    expect(chooseServersFromFlags(c, ['memory']).map((s) => s.name)).toEqual(['memory']);
    expect(chooseServersFromFlags(c, []).length).toBe(2);
    expect(inputError(() => chooseServersFromFlags(c, ['memroy'])).message).toMatch(/no server "memroy".*did you mean memory\?/);
    expect(inputError(() => chooseServersFromFlags(c, ['off'])).message).toMatch(/disabled/);
  });
});
