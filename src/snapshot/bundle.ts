/**
 * The snapshot bundle: Backpack's MCP bundle `{"servers":[{"name","description","instructions",
 * "tools":[…]}]}` (src/catalog/loaders/mcp.ts reads it as any bundle), with provenance beside the
 * fields the loader reads:
 *
 *   snapshot   {tool, version, takenAt, config: {file, sha256, shape}, servers, failed[], disabled[]}
 *   servers[i].description  the server's self-description (serverInfo description, else its title)
 *   servers[i].instructions the instructions it answered `initialize` with
 *   servers[i].snapshot  {server, serverInfo, protocolVersion, transport, takenAt, toolCount,
 *                         toolsSha256, pages, envNames, headerNames, listErrors?}
 *                         (listErrors: the optional lists the server failed to give, with why)
 *   servers[i].prompts / resources / resourceTemplates   as listed, when the server offers them
 *
 * Deterministic apart from the `takenAt` fields: servers in name order, tools in the order the
 * server listed them, keys in a fixed order. No value of `env` or `headers` is ever written, only
 * their names; nor are `args`, `url` or `cwd` (they can carry tokens too).
 */
import { basename } from 'node:path';
import { canonicalJson, sha256 } from '../util/hash.ts';
import { mcpBundleParts } from '../catalog/loaders/mcp.ts';
import type { Catalog } from '../catalog/types.ts';
import { assembleCatalog } from '../catalog/validate.ts';
import { VERSION } from '../util/version.ts';
import type { McpConfig } from './config.ts';
import type { ServerSnapshot } from './server.ts';

export const SNAPSHOT_TOOL = 'backpack snapshot';

export interface SnapshotBundle {
  snapshot: {
    tool: string;
    version: string;
    takenAt: string;
    config: { file: string; sha256: string; shape: McpConfig['shape'] };
    servers: number;
    /** Servers of the configuration that could not be snapshotted (names only; reasons go to stderr). */
    failed: string[];
    /** Servers left out with `"disabled": true`. */
    disabled: string[];
  };
  servers: BundleServer[];
}

export interface BundleServer {
  name: string;
  description: string;
  instructions: string;
  tools: Array<Record<string, unknown>>;
  prompts?: Array<Record<string, unknown>>;
  resources?: Array<Record<string, unknown>>;
  resourceTemplates?: Array<Record<string, unknown>>;
  snapshot: {
    server: string;
    serverInfo: { name: string; version: string; title?: string; description?: string };
    protocolVersion: string | null;
    transport: string;
    takenAt: string;
    toolCount: number;
    toolsSha256: string;
    pages: Record<string, number>;
    envNames: string[];
    headerNames: string[];
    /** Optional lists (prompts, resources, resourceTemplates) the server failed to give, with why. */
    listErrors?: Record<string, string>;
  };
}

/** sha256 of the canonical JSON (sorted keys, no whitespace) of a server's tools array. */
export function toolsSha256(tools: readonly unknown[]): string {
  return sha256(canonicalJson(tools));
}

export function bundleServer(s: ServerSnapshot): BundleServer {
  return {
    name: s.name,
    description: s.serverInfo.description ?? s.serverInfo.title ?? '',
    instructions: s.instructions,
    tools: s.tools,
    ...(s.prompts ? { prompts: s.prompts } : {}),
    ...(s.resources ? { resources: s.resources } : {}),
    ...(s.resourceTemplates ? { resourceTemplates: s.resourceTemplates } : {}),
    snapshot: {
      server: s.spec.key,
      serverInfo: s.serverInfo,
      protocolVersion: s.protocolVersion,
      transport: s.transport,
      takenAt: s.takenAt,
      toolCount: s.tools.length,
      toolsSha256: toolsSha256(s.tools),
      pages: s.pages,
      envNames: s.spec.envNames,
      headerNames: s.spec.transport === 'stdio' ? [] : Object.keys(s.spec.headers).sort(),
      ...(s.listErrors ? { listErrors: s.listErrors } : {}),
    },
  };
}

/**
 * Why this server's tools would not load as a Backpack catalog (an invalid `inputSchema`, a tool
 * name listed twice), or null when they load.
 */
export function bundleServerProblem(server: BundleServer, file: string): string | null {
  try {
    const parts = mcpBundleParts({ servers: [server] }, file);
    assembleCatalog({ tools: parts.flatMap((p) => p.tools), servers: parts.map((p) => p.server) });
    return null;
  } catch (err) {
    return (err as Error & { describe?: () => string }).describe?.() ?? (err as Error).message;
  }
}

export function makeBundle(config: McpConfig, servers: readonly BundleServer[], failed: readonly string[], takenAt: string): SnapshotBundle {
  const sorted = [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    snapshot: {
      tool: SNAPSHOT_TOOL,
      version: VERSION,
      takenAt,
      config: { file: basename(config.file), sha256: config.sha256, shape: config.shape },
      servers: sorted.length,
      failed: [...failed].sort(),
      disabled: config.disabled,
    },
    servers: sorted,
  };
}

/** The bundle as the file's text: two-space JSON and a final newline. */
export function bundleText(bundle: SnapshotBundle): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/** The catalog of a bundle, read as `loadCatalog` reads a bundle file (`file` names it in errors). */
export function bundleCatalog(bundle: SnapshotBundle, file: string): Catalog {
  const parts = mcpBundleParts(JSON.parse(JSON.stringify(bundle)), file);
  return assembleCatalog({ tools: parts.flatMap((p) => p.tools), servers: parts.map((p) => p.server) });
}
