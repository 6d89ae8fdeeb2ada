/**
 * The run's extensions, switched on: plugins imported and registered, retrieval services
 * registered as retrievers. The command line activates them before it builds its commands (so
 * `--retrievers`, `--format` and `list` know the new names); a worker thread activates the same
 * modules (checked by hash) before it evaluates; `dispose` removes everything they registered.
 *
 * What a plugin receives is {@link PluginApi}: the four registration functions and a few helpers to
 * build on Backpack's own retrievers.
 */
import { registerCatalogFormat, unregisterCatalogFormat, type CatalogFormat } from '../catalog/loaders/registry.ts';
import { registerProfile, unregisterProfile } from '../profiles/registry.ts';
import type { ProfileFactory } from '../profiles/types.ts';
import { createRetriever, registerRetriever, unregisterRetriever } from '../retrievers/registry.ts';
import { HttpRetriever, type HttpRetrieverSpec } from '../retrievers/http/http-retriever.ts';
import { PROTOCOL } from '../retrievers/http/protocol.ts';
import { rankStable } from '../retrievers/rank.ts';
import type { RetrieverFactory, RetrieverOptions } from '../retrievers/types.ts';
import { InputError } from '../util/errors.ts';
import { maskCredentials } from '../util/redact.ts';
import { VERSION } from '../util/version.ts';
import { findPlugin, loadPlugin, type LoadedPlugin, type PluginModule, type Registrar, type Registrars } from './load.ts';
import type { PluginRecord } from '../retrievers/origins.ts';
import { clearOrigin, setOrigin } from '../retrievers/origins.ts';

/** The object a plugin's register function receives. */
export interface PluginApi {
  /** Version of this interface (1). */
  apiVersion: 1;
  /** Backpack's version. */
  backpackVersion: string;
  registerRetriever(name: string, factory: RetrieverFactory): void;
  registerProfile(name: string, factory: ProfileFactory): void;
  registerCatalogFormat(name: string, format: CatalogFormat): void;
  /** A report format: `render(results)` gives the text of `file`, written into the report folder. */
  registerReportFormat(name: string, format: { description: string; file: string; render(results: unknown): string }): void;
  /** A built-in (or registered) retriever, to build on: `createRetriever('bm25')`. */
  createRetriever(name: string, options?: RetrieverOptions): ReturnType<typeof createRetriever>;
  /** Hits in Backpack's one order: score descending, then tool id. */
  rankStable: typeof rankStable;
}

/** What the threads of a run activate: the plugin modules (as found, with their hashes) and the retrieval services. */
export interface ExtensionSpec {
  plugins: PluginModule[];
  http: HttpRetrieverSpec[];
}

/** Extensions switched on: what the plugins registered (for results), the spec (for worker threads), and how to switch them off. */
export interface ActiveExtensions {
  records: PluginRecord[];
  spec: ExtensionSpec;
  dispose(): void;
}

/** The registries a plugin registers into; `reportFormats` comes from the caller (the report sits below the evaluation). */
export function registrars(reportFormats: Registrar): Registrars {
  return {
    retrievers: {
      label: 'retriever',
      strategy: true,
      register: (name, entry) => registerRetriever(name, checkedFactory(entry, 'retriever')),
      unregister: unregisterRetriever,
    },
    profiles: {
      label: 'profile',
      strategy: true,
      register: (name, entry) => registerProfile(name, checkedFactory(entry, 'profile')),
      unregister: unregisterProfile,
    },
    catalogFormats: {
      label: 'catalog format',
      strategy: false,
      register: (name, entry) => registerCatalogFormat(name, entry as CatalogFormat),
      unregister: unregisterCatalogFormat,
    },
    reportFormats,
  };
}

/** A registrar that only records report formats (a worker thread writes no report). */
export const IGNORED_REPORT_FORMATS: Registrar = { label: 'report format', strategy: false, register: () => {}, unregister: () => {} };

function checkedFactory<T>(entry: unknown, kind: string): T {
  const e = entry as { description?: unknown; create?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.description !== 'string' || typeof e.create !== 'function')
    throw new Error(`a ${kind} is { description: string, create(name, options) }`);
  return entry as T;
}

function pluginApi(r: Registrars): PluginApi {
  return {
    apiVersion: 1,
    backpackVersion: VERSION,
    registerRetriever: (name, factory) => r.retrievers.register(name, factory),
    registerProfile: (name, factory) => r.profiles.register(name, factory),
    registerCatalogFormat: (name, format) => r.catalogFormats.register(name, format),
    registerReportFormat: (name, format) => r.reportFormats.register(name, format),
    createRetriever: (name, options) => createRetriever(name, options),
    rankStable,
  };
}

/** The registry entry of a retrieval service. */
function httpFactory(spec: HttpRetrieverSpec): RetrieverFactory {
  return {
    costHint: 2,
    description: `retrieval service at ${maskCredentials(spec.url)} (${PROTOCOL}, docs/own-strategy.md): each request POSTed with k, the caller's scopes and the allowed tool ids, ${spec.concurrency} at a time. Score: the service's own scale; a floor is on it`,
    create: (name: string) => new HttpRetriever(name, spec),
  };
}

/**
 * Switch on `plugins` (as given: files or packages, found from `cwd`) and the retrieval services
 * `http`. Anything refused is an `InputError` naming it, and nothing stays registered.
 */
export async function activateExtensions(
  given: { plugins: readonly string[] | readonly PluginModule[]; http: readonly HttpRetrieverSpec[] },
  reg: Registrars,
  cwd: string = process.cwd(),
): Promise<ActiveExtensions> {
  const loaded: LoadedPlugin[] = [];
  const services: string[] = [];
  const dispose = () => {
    for (const name of services.splice(0)) {
      unregisterRetriever(name);
      clearOrigin(name);
    }
    for (const p of loaded.splice(0).reverse()) p.dispose();
  };
  try {
    for (const p of given.plugins) {
      const found = typeof p === 'string' ? findPlugin(p, cwd) : recheck(p);
      if (loaded.some((l) => l.module.entry === found.entry)) throw new InputError(`plugin ${found.spec} is given twice`);
      loaded.push(await loadPlugin(found, reg, pluginApi));
    }
    for (const spec of given.http) {
      try {
        registerRetriever(spec.name, httpFactory(spec));
      } catch (e) {
        throw new InputError(`--http-retriever ${spec.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
      services.push(spec.name);
      setOrigin(spec.name, { service: maskCredentials(spec.url) });
    }
  } catch (e) {
    dispose();
    throw e;
  }
  return {
    records: loaded.map((l) => l.record),
    spec: { plugins: loaded.map((l) => l.module), http: [...given.http] },
    dispose,
  };
}

/** A module found by another thread: the same file with the same bytes, or an error. */
function recheck(p: PluginModule): PluginModule {
  const again = findPlugin(p.entry);
  if (again.sha256 !== p.sha256) throw new InputError(`plugin ${p.spec}: ${p.entry} changed while the run was starting (sha256 differs)`);
  return p;
}
