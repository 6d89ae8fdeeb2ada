/**
 * Reading an `mcpServers` configuration into server specs, every problem an `InputError` naming the
 * file and the JSON path (`$.mcpServers.github.args[1]`).
 *
 * Each server is either
 *   stdio: `{"command", "args"?, "env"?, "cwd"?, "type"?: "stdio"}`
 *   remote: `{"url", "type"?: "http" | "streamable-http" | "sse", "headers"?}`
 * Null stands for an absent optional field. The file may be JSONC (comments, trailing commas).
 * `${VAR}` references are expanded (expand.ts); a relative `cwd` is taken from the configuration's
 * folder. Every entry's shape is checked, but a reference that cannot be expanded or a `cwd` that is
 * not a folder fails only when that server is chosen (`problem`). Other fields (`disabled`, `alwaysAllow`,
 * `envFile`, …) are ignored, except `"disabled": true`, which leaves the server out.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError, setting } from '../util/errors.ts';
import { checkTextFile, MAX_CONFIG_BYTES } from '../util/bounded.ts';
import { parseJson } from '../util/jsonl.ts';
import { didYouMean } from '../util/suggest.ts';
import { stripJsonc } from '../util/jsonc.ts';
import { describeJson, normaliseServerName, requireExists } from '../catalog/loaders/common.ts';
import { expandValue, type Env } from './expand.ts';

/** How a remote server is reached: `auto` tries Streamable HTTP, then SSE. */
export type RemoteTransport = 'streamable-http' | 'sse' | 'auto';

interface SpecBase {
  /** The bundle's server name (normalised for tool ids). */
  name: string;
  /** The key as written in the configuration. */
  key: string;
  /** JSON path of the server's entry. */
  where: string;
  /** Names of the environment variables the entry references or sets: never their values. */
  envNames: string[];
  /**
   * Why this server cannot be started although its entry is well formed: a `${VAR}` that cannot be
   * expanded, a `cwd` that is not a folder. Thrown when the server is chosen (chooseServersFromFlags),
   * so `--server` can skip a server whose secrets are not set here.
   */
  problem?: InputError;
}

export interface StdioSpec extends SpecBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface RemoteSpec extends SpecBase {
  transport: RemoteTransport;
  url: string;
  headers: Record<string, string>;
}

export type ServerSpec = StdioSpec | RemoteSpec;

export interface McpConfig {
  file: string;
  /** sha256 of the file's bytes. */
  sha256: string;
  /** Which host's shape: `mcpServers` (Claude Desktop, Cursor, Claude Code) or `servers` (VS Code). */
  shape: 'mcpServers' | 'servers';
  /** Servers in name order. */
  servers: ServerSpec[];
  /** Keys of servers left out with `"disabled": true`. */
  disabled: string[];
}

/** `$.mcpServers.github` or `$.mcpServers["my-server"]`. */
export function memberPath(base: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Read, validate and expand the configuration at `file`. */
export function readMcpConfig(file: string, env: Env = process.env): McpConfig {
  requireExists(file);
  // A configuration is a few kB: refuse a huge file before reading it (or blanking its comments, which takes a character array).
  checkTextFile(file, MAX_CONFIG_BYTES, 'configuration');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new InputError(`cannot read: ${(err as Error).message}`, { file });
  }
  // JSONC (VS Code's .vscode/mcp.json): comments and trailing commas are blanked out in place, so errors keep their line and column.
  const value = parseJson(stripJsonc(bytes.toString('utf8').replace(/^\uFEFF/, '')), file);
  return parseMcpConfig(value, file, createHash('sha256').update(bytes).digest('hex'), env);
}

/** Validate and expand a configuration value already parsed from `file`. */
export function parseMcpConfig(value: unknown, file: string, sha256: string, env: Env = process.env): McpConfig {
  if (!isObject(value)) throw new InputError(`an MCP configuration must be a JSON object (got ${describeJson(value)})`, { file, where: '$' });
  let shape: McpConfig['shape'];
  if (value.mcpServers !== undefined) {
    if (!isObject(value.mcpServers))
      throw new InputError(`"mcpServers" must be an object of servers by name (got ${describeJson(value.mcpServers)})`, { file, where: '$.mcpServers' });
    shape = 'mcpServers';
  } else if (isObject(value.servers)) {
    shape = 'servers';
  } else if (Array.isArray(value.servers)) {
    throw new InputError('this is a bundle ("servers" is an array), not an mcpServers configuration: use it as a catalog directly', {
      file,
      where: '$.servers',
    });
  } else {
    throw new InputError('not an MCP configuration: expected {"mcpServers":{"<name>":{"command"…} | {"url"…}}} (or VS Code\'s {"servers":{…}})', {
      file,
      where: '$',
    });
  }
  const entries = value[shape] as Record<string, unknown>;
  const base = `$.${shape}`;
  const servers: ServerSpec[] = [];
  const disabled: string[] = [];
  const byName = new Map<string, string>();
  for (const key of Object.keys(entries)) {
    const where = memberPath(base, key);
    const raw = entries[key];
    if (!isObject(raw)) throw new InputError(`server "${key}" must be a JSON object (got ${describeJson(raw)})`, { file, where });
    if (raw.disabled === true) {
      disabled.push(key);
      continue;
    }
    const name = normaliseServerName(key, file, where);
    const first = byName.get(name);
    if (first !== undefined) throw new InputError(`server "${key}" has the same name as ${first} once made fit for tool ids ("${name}")`, { file, where });
    byName.set(name, where);
    servers.push(serverSpec(raw, key, name, file, where, env));
  }
  servers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { file, sha256, shape, servers, disabled: disabled.sort() };
}

const TYPES: Record<string, 'stdio' | RemoteTransport> = {
  stdio: 'stdio',
  local: 'stdio',
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  streamableHttp: 'streamable-http',
  sse: 'sse',
};

function serverSpec(raw: Record<string, unknown>, key: string, name: string, file: string, where: string, env: Env): ServerSpec {
  const used = new Set<string>();
  let problem: InputError | undefined;
  // Expansion problems are kept, not thrown: they matter only if this server is chosen.
  const expand = (text: string, at: string): string => {
    try {
      return expandValue(text, env, file, at, used);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      problem ??= err;
      return text;
    }
  };
  const withProblem = <T extends ServerSpec>(spec: T): T => (problem ? { ...spec, problem } : spec);
  const str = (field: string): string | undefined => {
    const v = raw[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string')
      throw new InputError(`server "${key}": "${field}" must be a string (got ${describeJson(v)})`, { file, where: `${where}.${field}` });
    return expand(v, `${where}.${field}`);
  };
  const strings = (field: string): Record<string, string> => {
    const v = raw[field];
    if (v === undefined || v === null) return {};
    if (!isObject(v))
      throw new InputError(`server "${key}": "${field}" must be an object of strings (got ${describeJson(v)})`, { file, where: `${where}.${field}` });
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      const at = memberPath(`${where}.${field}`, k);
      if (typeof x !== 'string') throw new InputError(`server "${key}": ${field} value "${k}" must be a string (got ${describeJson(x)})`, { file, where: at });
      out[k] = expand(x, at);
    }
    return out;
  };
  const rawType = raw.type ?? raw.transport;
  let type: 'stdio' | RemoteTransport | undefined;
  if (rawType !== undefined && rawType !== null) {
    const at = `${where}.${raw.type !== undefined ? 'type' : 'transport'}`;
    if (typeof rawType !== 'string') throw new InputError(`server "${key}": "type" must be a string (got ${describeJson(rawType)})`, { file, where: at });
    type = TYPES[rawType];
    if (type === undefined)
      throw new InputError(`server "${key}": unknown type "${rawType}" (expected stdio, http, streamable-http or sse)`, { file, where: at });
  }
  const command = str('command');
  const url = str('url') ?? str('serverUrl'); // serverUrl: Windsurf's name for it
  if (command === undefined && url === undefined)
    throw new InputError(`server "${key}" has neither "command" (a program to start) nor "url" (a server to connect to)`, { file, where });
  const stdio = type === 'stdio' || (type === undefined && command !== undefined && url === undefined);
  if (type === undefined && command !== undefined && url !== undefined)
    throw new InputError(`server "${key}" has both "command" and "url": say which with "type"`, { file, where });
  if (stdio) {
    if (command === undefined) throw new InputError(`server "${key}" is of type stdio but has no "command"`, { file, where: `${where}.command` });
    if (command.trim() === '') throw new InputError(`server "${key}": "command" is empty`, { file, where: `${where}.command` });
    const argsRaw = raw.args;
    let args: string[] = [];
    if (argsRaw !== undefined && argsRaw !== null) {
      if (!Array.isArray(argsRaw))
        throw new InputError(`server "${key}": "args" must be an array of strings (got ${describeJson(argsRaw)})`, { file, where: `${where}.args` });
      args = argsRaw.map((a, i) => {
        if (typeof a !== 'string')
          throw new InputError(`server "${key}": args[${i}] must be a string (got ${describeJson(a)})`, { file, where: `${where}.args[${i}]` });
        return expand(a, `${where}.args[${i}]`);
      });
    }
    const envVars = strings('env');
    for (const k of Object.keys(envVars)) used.add(k);
    const cwdRaw = str('cwd');
    const cwd = cwdRaw !== undefined ? resolve(dirname(resolve(file)), cwdRaw) : undefined;
    if (cwd !== undefined && problem === undefined && !(existsSync(cwd) && statSync(cwd).isDirectory())) {
      problem = new InputError(`server "${key}": "cwd" is not an existing folder: ${cwd}`, { file, where: `${where}.cwd` });
    }
    return withProblem({
      name,
      key,
      where,
      transport: 'stdio' as const,
      command,
      args,
      env: envVars,
      ...(cwd !== undefined ? { cwd } : {}),
      envNames: [...used].sort(),
    });
  }
  if (url === undefined) throw new InputError(`server "${key}" is of type ${String(rawType)} but has no "url"`, { file, where: `${where}.url` });
  const headers = strings('headers');
  // A url whose ${VAR} could not be expanded is checked once it can be (when the server is chosen).
  if (problem === undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InputError(`server "${key}": "url" is not a URL`, { file, where: `${where}.url` });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new InputError(`server "${key}": "url" must be http: or https: (got ${parsed.protocol})`, { file, where: `${where}.url` });
  }
  return withProblem({
    name,
    key,
    where,
    transport: type === undefined ? ('auto' as const) : (type as RemoteTransport),
    url,
    headers,
    envNames: [...used].sort(),
  });
}

/** The error of a configuration with no server to start (none named, or all disabled): exit 2. */
export function noServerError(config: McpConfig): InputError {
  return new InputError(config.disabled.length ? 'no server to snapshot: every server is disabled' : 'the configuration names no server', {
    file: config.file,
    where: `$.${config.shape}`,
  });
}

/** The servers `names` (config keys or normalised names) choose, in name order; none given = all. */
export function chooseServersFromFlags(config: McpConfig, names: readonly string[]): ServerSpec[] {
  const chosen = names.length === 0 ? config.servers : chooseByName(config, names);
  // The first problem of a chosen server, in name order: an unset variable, a missing cwd (exit 2).
  for (const s of chosen) if (s.problem) throw s.problem;
  return chosen;
}

function chooseByName(config: McpConfig, names: readonly string[]): ServerSpec[] {
  const known = [...new Set(config.servers.flatMap((s) => [s.key, s.name]))];
  const chosen = new Set<ServerSpec>();
  for (const n of names) {
    const spec = config.servers.find((s) => s.key === n || s.name === n);
    if (!spec) {
      const why = config.disabled.includes(n) ? ' (it is disabled there)' : didYouMean(n, known);
      throw new InputError(
        `${setting('server')}: no server "${n}" in the configuration${why}; its servers: ${config.servers.map((s) => s.key).join(', ') || 'none'}`,
        {
          file: config.file,
        },
      );
    }
    chosen.add(spec);
  }
  return config.servers.filter((s) => chosen.has(s));
}
