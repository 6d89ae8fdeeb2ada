/**
 * Where a strategy that is not built in comes from: a plugin (its name, version and file hash) or a
 * retrieval service (its URL). Results record it in the strategy's `config.origin`, `bless` writes
 * it into the regression file, and the gate warns when it changed; the diff's rankings cache keys
 * by it. Filled in as plugins and services are registered, emptied as they are removed.
 */

/** A plugin as results record it (`config.plugins`). */
export interface PluginRecord {
  name: string;
  version?: string;
  /** sha256 of the plugin's module file. */
  sha256: string;
  kind: 'file' | 'package';
  /** What it registered, by kind (`retrievers`, `profiles`, `catalogFormats`, `reportFormats`; kinds with none left out). */
  registered: Partial<Record<string, string[]>>;
}

/** A strategy's origin as results record it. */
export type StrategyOrigin = { plugin: string; version?: string; sha256: string } | { service: string };

const origins = new Map<string, StrategyOrigin>();

/** Record where the strategy `name` comes from. */
export function setOrigin(name: string, origin: StrategyOrigin): void {
  origins.set(name, origin);
}

/** Forget the origin of `name` (its plugin or service was removed). */
export function clearOrigin(name: string): void {
  origins.delete(name);
}

/** Where the strategy `name` comes from; undefined for a built-in one. */
export function originOf(name: string): StrategyOrigin | undefined {
  return origins.get(name);
}
