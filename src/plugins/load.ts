/**
 * Plugins (`--plugin FILE|PACKAGE`, `plugins: [...]` in the config file): ES modules that register
 * retrievers, profiles, catalog formats and report formats through the registries the built-ins
 * are in. A plugin exports a function that receives the {@link PluginApi}:
 *
 * ```js
 * export default function register(backpack) {
 *   backpack.registerRetriever('keyword-boost', { description: '…', create: (name) => new MyRetriever(name) });
 * }
 * ```
 * (or `export default { name, version, register(backpack) { … } }`, or `export function register`).
 *
 * Identity, recorded in results (`config.plugins`, and each strategy's `config.origin`): a FILE is
 * named by the module's own `name` or its file name, versioned by its own `version` when it gives
 * one, and always carries the sha256 of its bytes; a PACKAGE (found in `node_modules` from the
 * working folder up) by its package.json name and version, with the sha256 of its entry file.
 * The module is imported with that hash in its URL, so an edited file is loaded again.
 *
 * Refused with exit 2, naming the plugin: a module that cannot be found or loaded, exports no
 * register function, throws while registering, registers a name already taken (a built-in's or
 * another plugin's), or registers nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../util/errors.ts';
import { clearOrigin, type PluginRecord, setOrigin } from '../retrievers/origins.ts';

/** The kinds of extension a plugin may register. */
export const PLUGIN_KINDS = ['retrievers', 'profiles', 'catalogFormats', 'reportFormats'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** How one kind of extension is registered and removed (the CLI passes the four registries; a worker thread the ones it uses). */
export interface Registrar {
  /** What one entry is called in messages. */
  label: string;
  /** Check the entry's shape and register it; throw to refuse. */
  register(name: string, entry: unknown): void;
  unregister(name: string): void;
  /** Whether the registered entry is a strategy (its origin is recorded). */
  strategy: boolean;
}

export type Registrars = Record<PluginKind, Registrar>;

/** A plugin found on disk, before it is imported. */
export interface PluginModule {
  /** As the user gave it. */
  spec: string;
  /** The module file imported. */
  entry: string;
  /** Package plugins: from package.json. */
  packageName?: string;
  packageVersion?: string;
  /** sha256 of the entry file's bytes. */
  sha256: string;
}

/** Find a plugin given as a file path or a package name (see the module comment). */
export function findPlugin(spec: string, cwd: string = process.cwd()): PluginModule {
  const trimmed = spec.trim();
  if (trimmed === '') throw new InputError('--plugin: give a file or a package name');
  const asPath = resolve(cwd, trimmed);
  if (existsSync(asPath) && statSync(asPath).isFile()) return { spec, entry: asPath, sha256: fileSha(asPath) };
  // `name` or `@scope/name` is a package; anything else (a path, a file name with an extension) a file
  const packageName = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(trimmed) && !/\.[cm]?[jt]s$/i.test(trimmed);
  if (!packageName) throw new InputError(`plugin ${spec}: no such file (${asPath})`);
  const pkg = findPackage(trimmed, cwd);
  if (pkg === undefined)
    throw new InputError(`plugin ${spec}: no such file, and no package of that name in node_modules from ${cwd} up (npm install it, or give a file path)`);
  return pkg;
}

function fileSha(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** A package in `node_modules` of `cwd` or a folder above it, and its ES entry point. */
function findPackage(name: string, cwd: string): PluginModule | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', name);
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      let pkg: { name?: unknown; version?: unknown; exports?: unknown; module?: unknown; main?: unknown };
      try {
        pkg = JSON.parse(readFileSync(manifest, 'utf8')) as typeof pkg;
      } catch (e) {
        throw new InputError(`plugin ${name}: its package.json cannot be read: ${(e as Error).message}`, { file: manifest });
      }
      const rel = entryOf(pkg);
      const entry = resolve(root, rel);
      if (!existsSync(entry)) throw new InputError(`plugin ${name}: its entry point ${rel} does not exist`, { file: manifest });
      return {
        spec: name,
        entry,
        packageName: typeof pkg.name === 'string' ? pkg.name : name,
        ...(typeof pkg.version === 'string' ? { packageVersion: pkg.version } : {}),
        sha256: fileSha(entry),
      };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** A package's entry: `exports["."]` (its `import`, `node` or `default` condition), else `module`, `main`, `index.js`. */
function entryOf(pkg: { exports?: unknown; module?: unknown; main?: unknown }): string {
  const pick = (x: unknown): string | undefined => {
    if (typeof x === 'string') return x;
    if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
      const o = x as Record<string, unknown>;
      if ('.' in o) return pick(o['.']);
      for (const c of ['import', 'node', 'default']) if (c in o) return pick(o[c]);
    }
    return undefined;
  };
  return pick(pkg.exports) ?? (typeof pkg.module === 'string' ? pkg.module : undefined) ?? (typeof pkg.main === 'string' ? pkg.main : 'index.js');
}

/** The registration function a plugin exports, and the name and version it declares. */
function registration(mod: Record<string, unknown>, spec: string): { register: (api: unknown) => unknown; name?: string; version?: string } {
  const d = mod.default as { register?: unknown; name?: unknown; version?: unknown } | null | undefined;
  // `export default { name, version, register }`, or a register function with `name` / `version` exported beside it
  const holder = d !== null && typeof d === 'object' && typeof d.register === 'function' ? d : mod;
  const register = typeof d === 'function' ? d : holder.register;
  if (typeof register !== 'function')
    throw new InputError(
      `plugin ${spec}: exports no register function (export default function (backpack) { … }, or export default { register(backpack) { … } })`,
    );
  return {
    register: (api) => (register as (a: unknown) => unknown).call(holder, api),
    ...(typeof holder.name === 'string' ? { name: holder.name } : {}),
    ...(typeof holder.version === 'string' ? { version: holder.version } : {}),
  };
}

/** A loaded plugin: its record, and how to remove what it registered. */
export interface LoadedPlugin {
  record: PluginRecord;
  module: PluginModule;
  dispose(): void;
}

/**
 * Import a found plugin and let it register through `api(track)`. `makeApi` builds the object the
 * plugin receives around the tracked registration functions.
 */
export async function loadPlugin(found: PluginModule, registrars: Registrars, makeApi: (register: Registrars) => unknown): Promise<LoadedPlugin> {
  const spec = found.spec;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(`${pathToFileURL(found.entry).href}?sha256=${found.sha256}`)) as Record<string, unknown>;
  } catch (e) {
    throw new InputError(`plugin ${spec}: could not load ${found.entry}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const reg = registration(mod, spec);
  const isPackage = found.packageName !== undefined;
  const name = isPackage ? found.packageName! : (reg.name ?? basename(found.entry, extname(found.entry)));
  const version = isPackage ? found.packageVersion : reg.version;
  const origin = { plugin: name, ...(version !== undefined ? { version } : {}), sha256: found.sha256 };
  const registered: Partial<Record<PluginKind, string[]>> = {};
  const done: Array<() => void> = [];
  const dispose = () => {
    for (const undo of done.splice(0).reverse()) undo();
  };
  const tracked = Object.fromEntries(
    PLUGIN_KINDS.map((kind) => {
      const r = registrars[kind];
      const wrapped: Registrar = {
        ...r,
        register: (entryName: string, entry: unknown) => {
          try {
            r.register(entryName, entry);
          } catch (e) {
            throw new InputError(`plugin ${spec}: cannot register ${r.label} "${entryName}": ${e instanceof Error ? e.message : String(e)}`, { cause: e });
          }
          (registered[kind] ??= []).push(entryName);
          if (r.strategy) setOrigin(entryName, origin);
          done.push(() => {
            r.unregister(entryName);
            if (r.strategy) clearOrigin(entryName);
          });
        },
      };
      return [kind, wrapped];
    }),
  ) as Registrars;
  try {
    await reg.register(makeApi(tracked));
  } catch (e) {
    dispose();
    if (e instanceof InputError && e.message.startsWith(`plugin ${spec}:`)) throw e;
    throw new InputError(`plugin ${spec}: failed while registering: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  if (!Object.keys(registered).length) throw new InputError(`plugin ${spec}: registers nothing (no retriever, profile, catalog format or report format)`);
  return {
    record: { name, ...(version !== undefined ? { version } : {}), sha256: found.sha256, kind: isPackage ? 'package' : 'file', registered },
    module: found,
    dispose,
  };
}
