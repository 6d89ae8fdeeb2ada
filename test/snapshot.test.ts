/**
 * `backpack snapshot` against real MCP servers: the reference servers from node_modules over stdio
 * (everything, memory, filesystem), a paginating server of our own (fixtures/mcp-servers), and
 * server-everything over Streamable HTTP and SSE on free local ports. Servers are shared: one
 * snapshot of the whole configuration, then assertions on its bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, sha256 } from '../src/util/hash.ts';
import { loadCatalog } from '../src/catalog/loaders/registry.ts';
import { main } from '../src/cli/main.ts';
import { runInputSource } from '../src/eval/files.ts';
import { loadEvalInput } from '../src/eval/input.ts';
import type { Results } from '../src/eval/results.ts';
import type { SnapshotBundle } from '../src/snapshot/bundle.ts';
import { BACKPACK_BIN, FIXTURES, tempDir } from './helpers.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'node_modules', '.bin');
const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const PAGING = join(FIXTURES, 'mcp-servers', 'paging-server.mjs');
const RAW = join(FIXTURES, 'mcp-servers', 'raw-server.mjs');
const raw = (mode: string, env: Record<string, string> = {}) => ({ command: process.execPath, args: [RAW, mode], env });
const SECRET = 'sk-test-do-not-write-7f3a9c';
const HEADER_SECRET = 'hdr-secret-91b2e';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => void (out += s), err: (s) => void (err += s) });
  return { code, out, err };
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** server-everything in `mode` on a free port, once it says it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((res, rej) => {
    let text = '';
    child.stderr!.on('data', (c: Buffer) => {
      text += c.toString();
      if (new RegExp(`${port}`).test(text)) res();
    });
    child.once('exit', (code) => rej(new Error(`server-everything ${mode} exited with ${code}: ${text}`)));
  });
  return { child, port };
}

/** Tool names as the SDK lists them directly (following every cursor). */
async function directToolNames(command: string, args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }));
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await client.listTools(cursor !== undefined ? { cursor } : undefined);
      names.push(...r.tools.map((t) => t.name));
      cursor = r.nextCursor;
    } while (cursor !== undefined);
    return names;
  } finally {
    await client.close();
  }
}

const dir = tempDir('snapshot');
const pidFile = join(dir, 'paging.pid');
const configFile = join(dir, 'mcp.json');
const bundleFile = join(dir, 'bundle.json');
const stdio = {
  everything: { command: join(BIN, 'mcp-server-everything'), args: [] as string[] },
  memory: { command: join(BIN, 'mcp-server-memory'), args: [] as string[], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
  filesystem: { command: join(BIN, 'mcp-server-filesystem'), args: [dir] },
  paging: { command: process.execPath, args: [PAGING], env: { PAGING_PID_FILE: pidFile, API_KEY: '${SNAPSHOT_TEST_SECRET}' } },
};
let http: { child: ChildProcess; port: number };
let sse: { child: ChildProcess; port: number };
let first: { code: number; out: string; err: string };
let bundle: SnapshotBundle;

beforeAll(async () => {
  process.env.SNAPSHOT_TEST_SECRET = SECRET;
  process.env.SNAPSHOT_TEST_HEADER = HEADER_SECRET;
  [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        ...stdio,
        broken: { command: join(dir, 'no-such-server') },
        quitter: { command: process.execPath, args: ['-e', 'console.error("missing settings"); process.exit(1)'] },
        remote: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp`, headers: { Authorization: 'Bearer ${SNAPSHOT_TEST_HEADER}' } },
        legacy: { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` },
        fallback: { url: `http://127.0.0.1:${sse.port}/sse` },
      },
    }),
  );
  first = await run(['snapshot', '--config', configFile, '--out', bundleFile, '--timeout', '20']);
  bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as SnapshotBundle;
});

afterAll(() => {
  http?.child.kill();
  sse?.child.kill();
  delete process.env.SNAPSHOT_TEST_SECRET;
  delete process.env.SNAPSHOT_TEST_HEADER;
});

const server = (name: string) => bundle.servers.find((s) => s.name === name)!;

describe('backpack snapshot', () => {
  it('keeps the good servers, names each broken one with its reason, and exits 3', () => {
    expect(first.code).toBe(3);
    expect(first.err).toMatch(/^failed {2}broken: cannot start: command not found: .*no-such-server$/m);
    expect(first.err).toMatch(/^failed {2}quitter: the server exited .* before answering initialize \(stderr: missing settings\)$/m);
    expect(first.err).toMatch(/snapshot incomplete: 2 of 9 servers failed \(broken, quitter\)/);
    expect(bundle.servers.map((s) => s.name)).toEqual(['everything', 'fallback', 'filesystem', 'legacy', 'memory', 'paging', 'remote']);
    expect(bundle.snapshot.failed).toEqual(['broken', 'quitter']);
    expect(first.out).toMatch(/^wrote .*bundle\.json: 7 servers, \d+ tools/);
  });

  it('holds every tool each server lists, in its order (compared with a direct SDK listing)', async () => {
    const direct = await Promise.all(
      (['everything', 'memory', 'filesystem', 'paging'] as const).map(
        async (n) =>
          [n, await directToolNames(stdio[n].command, stdio[n].args, 'env' in stdio[n] ? (stdio[n] as { env: Record<string, string> }).env : {})] as const,
      ),
    );
    for (const [name, names] of direct) {
      expect(names.length).toBeGreaterThan(0);
      expect(server(name).tools.map((t) => t.name)).toEqual(names);
      expect(server(name).snapshot.toolCount).toBe(names.length);
    }
    // The same server over Streamable HTTP and both SSE routes lists the same tools as over stdio.
    for (const name of ['remote', 'legacy', 'fallback']) expect(server(name).tools.map((t) => t.name)).toEqual(server('everything').tools.map((t) => t.name));
  });

  it('follows nextCursor through every page of tools and resources', () => {
    const p = server('paging');
    expect(p.tools.map((t) => t.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    expect(p.resources!.map((r) => r.uri)).toEqual(['test://one', 'test://two', 'test://three']);
    expect(p.snapshot.pages).toEqual({ tools: 3, resources: 3 });
    expect(p.resourceTemplates).toBeUndefined(); // announced with resources, but not implemented: left out
  });

  it('records provenance: server info, protocol, transport, hashes, instructions', () => {
    const p = server('paging');
    expect(p.instructions).toBe('Use alpha first.');
    expect(p.snapshot.serverInfo).toEqual({ name: 'paging-server', version: '1.2.3' });
    expect(p.snapshot.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(p.snapshot.toolsSha256).toBe(sha256(canonicalJson(p.tools)));
    expect(server('everything').prompts!.length).toBeGreaterThan(0);
    expect(server('everything').instructions).not.toBe('');
    expect([server('remote'), server('legacy'), server('fallback'), server('memory')].map((s) => s.snapshot.transport)).toEqual([
      'streamable-http',
      'sse',
      'sse',
      'stdio',
    ]);
    expect(bundle.snapshot.config.sha256).toBe(sha256(readFileSync(configFile)));
    expect(Date.parse(bundle.snapshot.takenAt)).not.toBeNaN();
  });

  it('never writes the values of env or headers, only their names', () => {
    const bytes = readFileSync(bundleFile, 'utf8');
    expect(bytes).not.toContain(SECRET);
    expect(bytes).not.toContain(HEADER_SECRET);
    expect(server('paging').snapshot.envNames).toEqual(['API_KEY', 'PAGING_PID_FILE', 'SNAPSHOT_TEST_SECRET']);
    expect(server('remote').snapshot.headerNames).toEqual(['Authorization']);
  });

  it('ends the servers it started', () => {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('writes a bundle that loads as a catalog', () => {
    const catalog = loadCatalog(bundleFile);
    expect(catalog.tools.length).toBe(bundle.servers.reduce((a, s) => a + s.tools.length, 0));
    expect(catalog.tools.find((t) => t.id === 'mcp__paging__alpha')!.summary).toBe('The alpha tool.');
    expect(catalog.servers.find((s) => s.name === 'paging')!.instructions).toBe('Use alpha first.');
  });

  it('snapshots only the servers asked for, the same apart from the time fields, and exits 0', async () => {
    const out = join(dir, 'two.json');
    const r = await run(['snapshot', '--config', configFile, '--out', out, '--server', 'paging', '--server', 'memory', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const two = JSON.parse(readFileSync(out, 'utf8')) as SnapshotBundle;
    const timeless = (s: SnapshotBundle['servers'][number]) => ({ ...s, snapshot: { ...s.snapshot, takenAt: '' } });
    expect(two.servers.map(timeless)).toEqual([server('memory'), server('paging')].map(timeless));
  });

  it('refuses an unknown --server with a did-you-mean (exit 2), before starting anything', async () => {
    const r = await run(['snapshot', '--config', configFile, '--out', join(dir, 'x.json'), '--server', 'memroy']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--server: no server "memroy" in the configuration \(did you mean memory\?\)/);
  });

  it('gives up on a server that never answers, writes nothing when all failed, and exits 1', async () => {
    const cfg = join(dir, 'silent.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        mcpServers: { silent: { command: process.execPath, args: ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))'] } },
      }),
    );
    const out = join(dir, 'silent-bundle.json');
    const r = await run(['snapshot', '--config', cfg, '--out', out, '--timeout', '0.3']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^failed {2}silent: no answer within 0\.3 s \(while starting the server\)$/m);
    expect(r.err).toMatch(/nothing written/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a malformed configuration with the file and JSON path (exit 2)', async () => {
    const bad = async (value: string) => {
      const f = join(dir, 'bad.json');
      writeFileSync(f, value);
      return (await run(['snapshot', '--config', f, '--out', join(dir, 'y.json')])).err;
    };
    expect(await bad('{"mcpServers":{"github":{"command":"gh","args":["x",2]}}}')).toMatch(
      /^error: .*bad\.json: \$\.mcpServers\.github\.args\[1\]: server "github": args\[1\] must be a string/,
    );
    expect(await bad('{"mcpServers":{"github":{"env":{}}}}')).toMatch(/\$\.mcpServers\.github: server "github" has neither "command"/);
    expect(await bad('{"mcpServers":{"github":{"command":"gh","env":{"T":"${SNAPSHOT_TEST_UNSET}"}}}}')).toMatch(
      /\$\.mcpServers\.github\.env\.T: environment variable SNAPSHOT_TEST_UNSET is not set/,
    );
    expect(await bad('{"servers": 1}')).toMatch(/\$: not an MCP configuration/);
    expect(await bad('{"mcpServers": {')).toMatch(/bad\.json/);
    expect((await run(['snapshot', '--config', join(dir, 'bad.json'), '--out', join(dir, 'y.json')])).code).toBe(2);
  });
});

describe('a configuration as a catalog', () => {
  const memoryConfig = join(dir, 'memory-only.json');
  const cases = join(dir, 'cases.jsonl');
  const results = join(dir, 'results');

  beforeAll(() => {
    writeFileSync(memoryConfig, JSON.stringify({ mcpServers: { memory: stdio.memory } }));
    const rows = [
      { id: 'c1', request: 'create new entities in the knowledge graph', expectedTools: ['mcp__memory__create_entities'] },
      { id: 'c2', request: 'delete relations between entities', expectedTools: ['mcp__memory__delete_relations'] },
      { id: 'c3', request: 'search the graph nodes for a query', expectedTools: ['mcp__memory__search_nodes'] },
    ];
    writeFileSync(cases, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });

  it('eval --catalog CONFIG snapshots it, keeps the snapshot with the results, and reports without the servers', async () => {
    const r = await run(['eval', '--catalog', memoryConfig, '--cases', cases, '--out', results]);
    expect(r.err).toMatch(/snapshot of .*memory-only\.json: 1 server, 9 tools/);
    expect(r.code).toBe(0);
    const res = JSON.parse(readFileSync(join(results, 'results.json'), 'utf8')) as Results;
    expect(res.dataset.source).toMatchObject({ kind: 'files', catalog: join(results, 'catalog-snapshot.json'), format: 'mcp-bundle' });
    expect(res.dataset.tools).toBe(9);
    // The servers are gone: the configuration now names a command that does not exist.
    writeFileSync(memoryConfig, JSON.stringify({ mcpServers: { memory: { command: join(dir, 'gone') } } }));
    const input = loadEvalInput(res.dataset.source);
    expect(input.catalogSha256).toBe(res.dataset.catalogSha256);
    const report = await run(['report', results, '--format', 'md']);
    expect(report.code).toBe(0);
    expect(report.err).toBe('');
    // Moved (or downloaded as a CI artifact): the snapshot is found in the folder itself.
    const moved = `${results}-moved`;
    renameSync(results, moved);
    expect(runInputSource(moved, res)).toMatchObject({ catalog: join(moved, 'catalog-snapshot.json') });
    const movedReport = await run(['report', moved, '--format', 'md']);
    expect(movedReport.err).toBe('');
    expect(movedReport.code).toBe(0);
    renameSync(moved, results);
    writeFileSync(memoryConfig, JSON.stringify({ mcpServers: { memory: stdio.memory } }));
  });

  it('eval --catalog CONFIG with a server that cannot start: exit 1 by default; --server picks the others, --partial evaluates what answered and names the rest', async () => {
    const both = join(dir, 'memory-and-broken.json');
    writeFileSync(both, JSON.stringify({ mcpServers: { memory: stdio.memory, broken: { command: join(dir, 'no-such-server') } } }));
    const refused = await run(['eval', '--catalog', both, '--cases', cases, '--out', join(dir, 'refused'), '--quiet']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/1 of 2 servers could not be snapshotted \(broken\)/);
    const picked = await run(['eval', '--catalog', both, '--cases', cases, '--server', 'memory', '--out', join(dir, 'picked'), '--quiet']);
    expect(picked.code, picked.err).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'picked', 'results.json'), 'utf8')) as Results).dataset.tools).toBe(9);
    const partial = await run(['eval', '--catalog', both, '--cases', cases, '--partial', '--out', join(dir, 'partial'), '--quiet']);
    expect(partial.code, partial.err).toBe(0);
    const res = JSON.parse(readFileSync(join(dir, 'partial', 'results.json'), 'utf8')) as Results;
    expect(res.dataset.tools).toBe(9);
    expect(res.warnings!.some((w) => w.startsWith('--partial: 1 server of') && w.includes('not in the catalog: broken'))).toBe(true);
    const bad = await run(['eval', '--catalog', both, '--cases', cases, '--server', 'memroy', '--out', join(dir, 'bad'), '--quiet']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/no server "memroy".*did you mean memory/);
  });

  it('merge of sharded eval --catalog CONFIG keeps the snapshot: the merged folder reports once the shards are gone', async () => {
    const shards = [1, 2].map((i) => join(dir, `shard-${i}`));
    for (const [i, out] of shards.entries()) {
      const r = await run(['eval', '--catalog', memoryConfig, '--cases', cases, '--out', out, '--shard', `${i + 1}/2`, '--quiet']);
      expect(r.code).toBe(0);
    }
    const merged = join(dir, 'merged');
    const m = await run(['merge', ...shards, '--out', merged]);
    expect(m.err).toBe('');
    expect(m.code).toBe(0);
    expect(readFileSync(join(merged, 'catalog-snapshot.json'), 'utf8')).toBe(readFileSync(join(shards[0]!, 'catalog-snapshot.json'), 'utf8'));
    const res = JSON.parse(readFileSync(join(merged, 'results.json'), 'utf8')) as Results;
    expect(res.dataset.source).toMatchObject({ kind: 'files', catalog: join(merged, 'catalog-snapshot.json'), format: 'mcp-bundle' });
    for (const d of shards) rmSync(d, { recursive: true, force: true });
    const report = await run(['report', merged, '--format', 'md']);
    expect(report.err).toBe('');
    expect(report.code).toBe(0);
  });

  it('merge refuses shards whose snapshots list other tools', async () => {
    const shards = [1, 2].map((i) => join(dir, `odd-shard-${i}`));
    for (const [i, out] of shards.entries())
      expect((await run(['eval', '--catalog', memoryConfig, '--cases', cases, '--out', out, '--shard', `${i + 1}/2`, '--quiet'])).code).toBe(0);
    const snapFile = join(shards[1]!, 'catalog-snapshot.json');
    const b = JSON.parse(readFileSync(snapFile, 'utf8')) as SnapshotBundle;
    b.servers[0]!.instructions += ' (changed)';
    writeFileSync(snapFile, JSON.stringify(b, null, 2));
    const m = await run(['merge', ...shards, '--out', join(dir, 'odd-merged')]);
    expect(m.code).toBe(2);
    expect(m.err).toMatch(/odd-shard-2: its catalog-snapshot\.json differs from the first shard's/);
  });

  it('eval and diff say when the configuration names no server to start (exit 2)', async () => {
    const none = join(dir, 'none.json');
    writeFileSync(none, JSON.stringify({ mcpServers: { off: { command: 'x', disabled: true } } }));
    const e = await run(['eval', '--catalog', none, '--cases', cases, '--out', join(dir, 'results-none')]);
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/none\.json: \$\.mcpServers: no server to snapshot: every server is disabled/);
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify({ mcpServers: {} }));
    const d = await run(['diff', '--old', bundleFile, '--new', empty, '--cases', cases, '--no-cache']);
    expect(d.code).toBe(2);
    expect(d.err).toMatch(/empty\.json: \$\.mcpServers: the configuration names no server/);
  });

  it('eval stops with exit 1 when a server of the configuration fails', async () => {
    const cfg = join(dir, 'half.json');
    writeFileSync(cfg, JSON.stringify({ mcpServers: { memory: stdio.memory, broken: { command: join(dir, 'nope') } } }));
    const r = await run(['eval', '--catalog', cfg, '--cases', cases, '--out', join(dir, 'results-half'), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^failed {2}broken: cannot start/m);
    expect(existsSync(join(dir, 'results-half'))).toBe(false);
  });

  it('diff --old BUNDLE --new CONFIG compares against what the servers list now', async () => {
    const r = await run(['diff', '--old', bundleFile, '--new', memoryConfig, '--cases', cases, '--json', '--no-cache']);
    expect([0, 100]).toContain(r.code);
    const report = JSON.parse(r.out) as { changes: { added: unknown[]; removed: Array<{ id: string }>; changed: unknown[]; unchanged: number } };
    // The memory server's tools are the same as in the bundle; every other server's are gone.
    expect(report.changes.added).toEqual([]);
    expect(report.changes.changed).toEqual([]);
    expect(report.changes.unchanged).toBe(server('memory').tools.length);
    expect(report.changes.removed.length).toBe(bundle.servers.reduce((a, x) => a + x.tools.length, 0) - server('memory').tools.length);
    expect(report.changes.removed.map((t) => t.id)).toContain('mcp__paging__alpha');
  });

  it('other commands explain that a configuration needs a snapshot (exit 2)', async () => {
    const r = await run(['inspect', '--catalog', memoryConfig]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/backpack snapshot --config FILE --out bundle\.json/);
  });
});

describe('what live servers answer that the SDK client alone rejects', () => {
  const cfg = join(dir, 'raw.json');
  const out = join(dir, 'raw-bundle.json');
  let r: { code: number; out: string; err: string };
  let b: SnapshotBundle;
  const of = (name: string) => b.servers.find((s) => s.name === name)!;

  beforeAll(async () => {
    const modes = ['out04', 'null-fields', 'null-cursor', 'empty-cursor', 'prompts-err'];
    writeFileSync(cfg, JSON.stringify({ mcpServers: Object.fromEntries(modes.map((m) => [m.replace('-', '_'), raw(m)])) }));
    r = await run(['snapshot', '--config', cfg, '--out', out, '--timeout', '20']);
    b = JSON.parse(readFileSync(out, 'utf8')) as SnapshotBundle;
  });

  it('snapshots a tool whose outputSchema is draft-04 (Backpack never compiles output schemas)', () => {
    expect(r.code).toBe(0);
    expect(of('out04').tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect((of('out04').tools[0]!.outputSchema as { $schema: string }).$schema).toMatch(/draft-04/);
  });

  it('keeps null fields as the server sent them, and the bundle still loads', () => {
    expect(of('null_fields').tools[0]).toMatchObject({ name: 'a', description: null, title: null, annotations: null, outputSchema: null, _meta: null });
    expect(loadCatalog(out).tools.find((t) => t.id === 'mcp__null_fields__a')).toBeDefined();
  });

  it('ends the list at a null or empty nextCursor', () => {
    expect(of('null_cursor').snapshot.pages).toEqual({ tools: 1 });
    expect(of('empty_cursor').snapshot.pages).toEqual({ tools: 1 });
    expect(of('empty_cursor').tools.map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('keeps the tools of a server whose prompts/list fails, recording and printing why', () => {
    expect(of('prompts_err').tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(of('prompts_err').prompts).toBeUndefined();
    expect(of('prompts_err').snapshot.listErrors).toEqual({ prompts: 'MCP error -32603: internal boom' });
    expect(r.err).toMatch(/^warning prompts_err: prompts\/list failed \(MCP error -32603: internal boom\); left out, its tools are kept$/m);
  });

  it('names the path and the problem of a result it cannot read', async () => {
    const bad = join(dir, 'raw-bad.json');
    writeFileSync(bad, JSON.stringify({ mcpServers: { tools: raw('bad-tools'), init: raw('bad-init') } }));
    const x = await run(['snapshot', '--config', bad, '--out', join(dir, 'raw-bad-bundle.json')]);
    expect(x.code).toBe(1);
    expect(x.err).toMatch(/^failed {2}tools: tools\/list: invalid result: \$\.tools: must be an array \(got a string\)$/m);
    expect(x.err).toMatch(/^failed {2}init: starting the server: invalid result: \$\.serverInfo: .*null/m);
  });
});

describe('snapshot configuration handling', () => {
  it('--server skips another server whose variable is not set or whose cwd is missing', async () => {
    const cfg = join(dir, 'partial.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        mcpServers: {
          good: raw('ok'),
          github: { command: 'gh-mcp', env: { GITHUB_TOKEN: '${SNAPSHOT_TEST_UNSET}' } },
          elsewhere: { command: 'x', cwd: 'no-such-folder' },
        },
      }),
    );
    const ok = await run(['snapshot', '--config', cfg, '--out', join(dir, 'partial-bundle.json'), '--server', 'good', '--quiet']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const all = await run(['snapshot', '--config', cfg, '--out', join(dir, 'partial-bundle.json')]);
    expect(all.code).toBe(2);
    expect(all.err).toMatch(/partial\.json: \$\.mcpServers\.elsewhere\.cwd: server "elsewhere": "cwd" is not an existing folder: .*no-such-folder/);
    const gh = await run(['snapshot', '--config', cfg, '--out', join(dir, 'partial-bundle.json'), '--server', 'github']);
    expect(gh.code).toBe(2);
    expect(gh.err).toMatch(/\$\.mcpServers\.github\.env\.GITHUB_TOKEN: environment variable SNAPSHOT_TEST_UNSET is not set/);
  });

  it("reads VS Code's JSONC (comments, trailing commas), with errors at the original line and column", async () => {
    const cfg = join(dir, 'mcp.jsonc.json');
    writeFileSync(
      cfg,
      `{\n  // the servers\n  "servers": {\n    "raw": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(RAW)}, "ok",], }, /* done */\n  },\n}\n`,
    );
    const r = await run(['snapshot', '--config', cfg, '--out', join(dir, 'jsonc-bundle.json'), '--quiet']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    writeFileSync(cfg, '{\n  // the servers\n  "servers": {\n    "raw": { "command" "x" }\n  }\n}\n');
    const bad = await run(['snapshot', '--config', cfg, '--out', join(dir, 'jsonc-bundle.json')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/mcp\.jsonc\.json: line 4, column 24: invalid JSON/);
  });

  it('refuses --out naming the configuration itself (exit 2), leaving it as it was', async () => {
    const cfg = join(dir, 'self.json');
    const text = JSON.stringify({ mcpServers: { good: raw('ok') } });
    writeFileSync(cfg, text);
    const r = await run(['snapshot', '--config', cfg, '--out', join(dir, '.', 'self.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--out is the configuration file itself/);
    expect(readFileSync(cfg, 'utf8')).toBe(text);
  });

  it('ends its servers and exits 143 when killed with SIGTERM mid-snapshot', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const cfg = join(dir, 'stubborn.json');
    // The server ignores SIGTERM and the end of its stdin: only SIGKILL ends it.
    writeFileSync(cfg, JSON.stringify({ mcpServers: { stubborn: raw('stubborn', { RAW_PID_FILE: pidFile }) } }));
    const child = spawn(process.execPath, [BACKPACK_BIN, 'snapshot', '--config', cfg, '--out', join(dir, 'stubborn-bundle.json'), '--timeout', '60'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => void (stderr += c.toString()));
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    // Wait (bounded) for the server to be started: it writes its pid first thing.
    for (let i = 0; i < 600 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== ''); i++) await new Promise((res) => setTimeout(res, 50));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toMatch(/SIGTERM: ending the MCP servers this snapshot started/);
    const gone = () => {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      // A zombie (ended, not yet reaped by whatever adopted it) is gone too.
      return /^\d+ \(.*\) Z/.test(existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '');
    };
    for (let i = 0; i < 100 && !gone(); i++) await new Promise((res) => setTimeout(res, 50));
    const survived = !gone();
    if (survived) process.kill(pid, 'SIGKILL');
    expect(survived).toBe(false);
    expect(existsSync(join(dir, 'stubborn-bundle.json'))).toBe(false);
  });
});
