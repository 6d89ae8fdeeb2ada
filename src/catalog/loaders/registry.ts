/**
 * The one table of catalog formats Backpack reads, and `loadCatalog`, which picks a format by name
 * or by looking at the path.
 *
 * Detection order (the first format whose `detect` says yes wins):
 *   1. openai          a JSON file holding a non-empty array of tools, or an object (a request body)
 *                      with one in `tools`, whose every entry has a string `type` (`"function"` or a
 *                      built-in such as `"web_search"`, not an Anthropic one) and no
 *                      `input_schema` / `inputSchema`
 *   2. anthropic       the same holders, every entry with `input_schema` or an Anthropic-defined
 *                      `type` (`web_search_20250305`…), none with `inputSchema` or `"type":"function"`
 *   3. mcp-bundle      a JSON file holding `{"servers":[…]}`
 *   4. mcp-tools-list  a JSON file holding `{"tools":[…]}` or `{"result":{"tools":[…]}}`, or a JSON
 *                      array of such pages
 * So `{"model","messages","tools":[{"type":"function",…}]}` is OpenAI, `{"model","messages",
 * "tools":[{"name","input_schema"}]}` is Anthropic and `{"tools":[{"name","inputSchema"}]}` is MCP.
 *   5. metatool        a folder containing `plugin_des.json`
 *   6. beir            a folder containing `corpus.jsonl` (or a Backpack `manifest.json`)
 *   7. mcp-folder      a folder containing at least one `*.json` file
 *   8. skills-folder   a folder with a `SKILL.md` in it or up to 6 levels below (`*\/SKILL.md`, …)
 *   9. mcp-config      a JSON file holding `{"mcpServers":{…}}` (or VS Code's `{"servers":{…}}`): it names
 *                      servers and holds no tools, so loading it throws; eval and diff snapshot it first
 * Detection never throws: an unreadable or invalid JSON file simply matches no JSON format.
 *
 * Loaders report what they accepted but changed or skipped (older JSON Schema forms, built-in
 * tools) through `LoadOptions.onWarning`, a few lines per catalog; without it nothing is reported.
 */
import { readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_CONFIG_BYTES, readTextFile } from '../../util/bounded.ts';
import { InputError } from '../../util/errors.ts';
import { parseJson } from '../../util/jsonl.ts';
import { isDatasetDir, readDataset } from '../dataset-files.ts';
import { Registry } from '../../util/registry.ts';
import { didYouMean } from '../../util/suggest.ts';
import type { Catalog } from '../types.ts';
import { isDirectory, isFile, requireExists, type LoadOptions } from './common.ts';
import { CONFIG_NEEDS_SNAPSHOT, isMcpConfigShape } from './config-shape.ts';
import { stripJsonc } from '../../util/jsonc.ts';
import { isMcpBundleShape, isMcpToolsListShape, loadMcpBundle, loadMcpFolder, loadMcpToolsList } from './mcp.ts';
import { isOpenAiToolsShape, loadOpenAiTools } from './openai.ts';
import { isAnthropicToolsShape, loadAnthropicTools } from './anthropic.ts';
import { hasSkills, loadSkillsFolder } from './skills.ts';
import { isMetaToolDir, loadMetaToolCatalog } from './metatool.ts';

export type { LoadOptions } from './common.ts';

export interface CatalogFormat {
  /** One line for `--help` and error messages. */
  description: string;
  /** True if `path` looks like this format. Never throws. */
  detect(path: string): boolean;
  load(path: string, opts: LoadOptions): Catalog;
}

/** The one table of catalog formats: each format's description, how it is detected and how it is loaded. */
export const CATALOG_FORMATS = {
  'mcp-tools-list': {
    description: 'one MCP server\'s tools/list result {"tools":[…]} (or its JSON-RPC response, or an array of all its pages); server = option or file name',
    detect: (path: string) => isMcpToolsListShape(peekJson(path)),
    load: (path: string, opts: LoadOptions) => {
      const server = opts.server ?? opts.namespace;
      return loadMcpToolsList(path, { ...(server !== undefined ? { server } : {}), ...(opts.onWarning ? { onWarning: opts.onWarning } : {}) });
    },
  },
  'mcp-folder': {
    description: 'a folder of MCP tools/list files, one *.json per server, named by file name',
    detect: (path: string) => isDirectory(path) && safeList(path).some((n) => n.toLowerCase().endsWith('.json')),
    load: (path: string, opts: LoadOptions) => {
      noOptions('mcp-folder', path, opts);
      return loadMcpFolder(path, opts);
    },
  },
  'mcp-bundle': {
    description: 'several MCP servers in one JSON file {"servers":[{"name","description","instructions","tools":[…]}]}',
    detect: (path: string) => isMcpBundleShape(peekJson(path)),
    load: (path: string, opts: LoadOptions) => {
      noOptions('mcp-bundle', path, opts);
      return loadMcpBundle(path, opts);
    },
  },
  'mcp-config': {
    description: 'an mcpServers configuration (Claude Desktop, Cursor, Claude Code, VS Code): eval and diff snapshot its servers first (docs/snapshot.md)',
    // VS Code's .vscode/mcp.json is JSON with comments: read it so when it is not plain JSON.
    detect: (path: string) => isMcpConfigShape(peekJson(path)) || (peekJson(path) === undefined && isMcpConfigShape(peekJsonc(path))),
    load: (path: string): Catalog => {
      throw new InputError(CONFIG_NEEDS_SNAPSHOT, { file: path });
    },
  },
  openai: {
    description:
      'OpenAI tools [{"type":"function","function":{name,description,parameters}}] (or the flat Responses form, or a request body); built-in tools skipped; core tools unless server/namespace is given',
    detect: (path: string) => isOpenAiToolsShape(peekJson(path)),
    load: (path: string, opts: LoadOptions) => loadOpenAiTools(path, opts),
  },
  anthropic: {
    description:
      'Anthropic tools [{name,description,input_schema}] (or {"tools":[…]}, or a request body); server tools skipped; core tools unless server/namespace is given',
    detect: (path: string) => isAnthropicToolsShape(peekJson(path)),
    load: (path: string, opts: LoadOptions) => loadAnthropicTools(path, opts),
  },
  'skills-folder': {
    description: 'a folder of skills: <root>/[<category>/]<name>/SKILL.md with YAML front matter',
    detect: (path: string) => hasSkills(path),
    load: (path: string, opts: LoadOptions) => {
      noOptions('skills-folder', path, opts);
      return loadSkillsFolder(path);
    },
  },
  beir: {
    description: "a dataset folder (Backpack's own, or plain BEIR: corpus.jsonl, queries.jsonl, qrels/)",
    detect: (path: string) => isDirectory(path) && isDatasetDir(path),
    load: (path: string, opts: LoadOptions) => {
      noOptions('beir', path, opts);
      return readDataset(path).catalog;
    },
  },
  metatool: {
    description: 'the MetaTool (ToolE) data folder (plugin_des.json and friends): 199 plugin tools',
    detect: (path: string) => isDirectory(path) && isMetaToolDir(path),
    load: (path: string, opts: LoadOptions) => {
      noOptions('metatool', path, opts);
      return loadMetaToolCatalog(path);
    },
  },
} as const satisfies Record<string, CatalogFormat>;

/** The name of a built-in catalog format (`--format`). */
export type CatalogFormatName = keyof typeof CATALOG_FORMATS;

/** The fixed order `detectCatalogFormat` tries formats in (see the module comment). */
export const DETECTION_ORDER: readonly CatalogFormatName[] = [
  'openai',
  'anthropic',
  'mcp-bundle',
  'mcp-tools-list',
  'metatool',
  'beir',
  'mcp-folder',
  'skills-folder',
  'mcp-config',
];

const registry = new Registry<CatalogFormat>(CATALOG_FORMATS, {
  kind: 'catalog format',
  unknown: (name, names) => new InputError(`unknown catalog format "${name}"${didYouMean(name, names)}; formats are ${names.join(', ')}`, { where: 'format' }),
});

/** Whether `name` names a catalog format. */
export function isCatalogFormatName(name: string): name is CatalogFormatName {
  return registry.has(name);
}

/** Every catalog format's name: the built-in ones, then those registered at run time (plugins). */
export function catalogFormatNames(): string[] {
  return registry.names();
}

/** Every catalog format, built-in ones first. */
export function catalogFormatEntries(): Array<[string, CatalogFormat]> {
  return registry.entries();
}

/** Formats registered at run time, in registration order: detection tries them after the built-in ones. */
const added: string[] = [];

/** Add a catalog format at run time (plugins). A name taken is an error; a malformed entry too. */
export function registerCatalogFormat(name: string, format: CatalogFormat): void {
  const f = format as Partial<CatalogFormat> | null;
  if (f === null || typeof f !== 'object' || typeof f.description !== 'string' || typeof f.load !== 'function')
    throw new Error('a catalog format is { description: string, load(path, options), detect?(path) }');
  registry.register(name, { description: f.description, load: f.load, detect: typeof f.detect === 'function' ? f.detect : () => false });
  added.push(name);
}

/** Remove a catalog format added with `registerCatalogFormat`. */
export function unregisterCatalogFormat(name: string): void {
  registry.unregister(name);
  const i = added.indexOf(name);
  if (i >= 0) added.splice(i, 1);
}

/** The first format in `DETECTION_ORDER`, then the registered ones, that recognises `path`, if any. */
export function detectCatalogFormat(path: string): CatalogFormatName | undefined {
  return (DETECTION_ORDER.find((name) => CATALOG_FORMATS[name].detect(path)) ??
    added.find((name) => {
      try {
        return registry.require(name).detect(path);
      } catch {
        return false; // detection never throws
      }
    })) as CatalogFormatName | undefined;
}

/**
 * Load a catalog from `path`: in the named `format`, or in the format detected (see the module
 * comment). A missing path is `file not found`; an unknown format name or nothing detected is an
 * `InputError` listing the formats.
 */
export function loadCatalog(path: string, opts: LoadOptions & { format?: string } = {}): Catalog {
  const { format, ...loadOpts } = opts;
  if (format !== undefined) registry.require(format); // an unknown name fails before the path is looked at
  requireExists(path);
  const name = format ?? detectCatalogFormat(path);
  if (name === undefined) {
    // A file that is not even JSON gets the parser's own error, with line and column.
    if (isFile(path) && /\.json$/i.test(path)) parseJson(readTextFile(path), path);
    const kind = isDirectory(path) ? 'folder' : 'file';
    throw new InputError(`cannot tell the catalog format of this ${kind}: tried ${DETECTION_ORDER.join(', ')}; name one with a format option`, { file: path });
  }
  return registry.require(name).load(path, loadOpts);
}

function noOptions(format: string, path: string, opts: LoadOptions): void {
  const given = (['server', 'namespace'] as const).filter((k) => opts[k] !== undefined);
  if (given.length) {
    throw new InputError(`option "${given[0]}" does not apply to the ${format} format (only to mcp-tools-list, openai and anthropic)`, { file: path });
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Parsed JSON of a file, or `undefined` when it is not a readable JSON file; the last file is memoised. */
let lastPeek: { key: string; value: unknown } | undefined;
function peekJson(path: string): unknown {
  if (!isFile(path)) return undefined;
  try {
    const st = statSync(path);
    const key = `${resolve(path)}\0${st.size}\0${st.mtimeMs}`;
    if (lastPeek?.key === key) return lastPeek.value;
    let value: unknown;
    try {
      value = JSON.parse(readTextFile(path));
    } catch {
      value = undefined;
    }
    lastPeek = { key, value };
    return value;
  } catch {
    return undefined;
  }
}

/** Parsed JSON-with-comments of a file no larger than a configuration is (comments and trailing commas blanked), or `undefined`. */
function peekJsonc(path: string): unknown {
  if (!isFile(path)) return undefined;
  try {
    return JSON.parse(stripJsonc(readTextFile(path, MAX_CONFIG_BYTES)));
  } catch {
    return undefined;
  }
}
