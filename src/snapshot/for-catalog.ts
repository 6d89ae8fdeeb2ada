/**
 * An `mcpServers` configuration used where a catalog is expected (`eval --catalog`, `diff --old /
 * --new`): its servers are snapshotted in memory, every one of them, or the command stops with
 * exit 1 (a catalog missing a server would give misleading figures). The SDK is loaded only here,
 * on demand, so commands that never meet a configuration do not pay for it.
 *
 * For eval, the bundle goes into the results folder as `catalog-snapshot.json` and the results
 * record it as their catalog (format `mcp-bundle`), so `report`, `gate --baseline` and `merge`
 * reload the run's tools without starting any server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { CATALOG_FORMATS } from '../catalog/loaders/registry.ts';
import type { Catalog } from '../catalog/types.ts';
import type { DatasetSource } from '../catalog/source.ts';
import { bundleCatalog, bundleText, type SnapshotBundle } from './bundle.ts';
import { chooseServersFromFlags, noServerError, readMcpConfig } from './config.ts';
import { InputError, setting } from '../util/errors.ts';
import { EXIT_SNAPSHOT_FAILED, SnapshotIncomplete } from './errors.ts';
import { failureLine, summaryLine, warningLines } from './report.ts';
import { writeFileNamed } from '../util/atomic-write.ts';

/** The file eval keeps the snapshot in, inside the results folder. */
export const EVAL_SNAPSHOT_FILE = 'catalog-snapshot.json';

/** True if `path` (read as `format`, or detected) is an `mcpServers` configuration. */
export function isConfigCatalog(path: string, format: string | null | undefined): boolean {
  if (format !== undefined && format !== null) return format === 'mcp-config';
  // The table's own detection: it memoises the parsed file, so the catalog load after it does not parse again.
  return CATALOG_FORMATS['mcp-config'].detect(path);
}

/** Snapshot every server of the configuration at `file`; a failed server throws (exit 1), after one line each on `err` (always, even when `quiet`). */
export async function snapshotConfigFile(
  file: string,
  err: (s: string) => void,
  opts: { timeoutMs?: number; quiet?: boolean; servers?: readonly string[]; partial?: boolean } = {},
): Promise<{ bundle: SnapshotBundle; catalog: Catalog; missing: string[] }> {
  const config = readMcpConfig(file);
  if (config.servers.length === 0) throw noServerError(config);
  const chosen = chooseServersFromFlags(config, opts.servers ?? []);
  const { takeSnapshot } = await import('./snapshot.ts');
  const r = await takeSnapshot(config, {
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.servers?.length ? { only: chosen.map((s) => s.key) } : {}),
    onServer: (o) => {
      for (const w of warningLines(o)) err(`${w}\n`);
    },
  });
  if (r.failures.length) {
    for (const f of r.failures) err(`${failureLine(f)}\n`);
    if (opts.partial && r.bundle.servers.length > 0) {
      if (!opts.quiet) err(`snapshot of ${file}: ${summaryLine(r.bundle, r.failures, r.elapsedMs)}\n`);
      return { bundle: r.bundle, catalog: bundleCatalog(r.bundle, file), missing: r.failures.map((f) => f.name) };
    }
    throw new SnapshotIncomplete(
      `${file}: ${r.failures.length} of ${chosen.length} servers could not be snapshotted (${r.failures.map((f) => f.name).join(', ')}); a catalog without them would mislead, so nothing was evaluated${opts.partial === undefined ? '' : opts.partial ? ` (${setting('partial')} needs at least one server that answered)` : ''}`,
      EXIT_SNAPSHOT_FAILED,
    );
  }
  if (!opts.quiet) err(`snapshot of ${file}: ${summaryLine(r.bundle, [], r.elapsedMs)}\n`);
  return { bundle: r.bundle, catalog: bundleCatalog(r.bundle, file), missing: [] };
}

export interface EvalSnapshot {
  /** Where this process (and its worker threads) load the snapshot from while evaluating. */
  loadSource: DatasetSource;
  /** The source the results record: the snapshot in the results folder `out`. */
  recordedSource(out: string): DatasetSource;
  /** Files to add to the results folder. */
  files: Record<string, string>;
  /** Remove the temporary file (also done when the process exits). */
  dispose(): void;
  /** With `--partial`: the servers that could not be snapshotted (their tools are not in the catalog), for the results' warnings. */
  missing: string[];
}

/**
 * When `source` is a catalog file that is an `mcpServers` configuration: snapshot it and keep the
 * bundle in a temporary file named as the configuration (so the run's name stays the same).
 * Otherwise undefined.
 */
export async function snapshotForEval(
  source: DatasetSource,
  err: (s: string) => void,
  quiet = false,
  opts: { servers?: readonly string[]; partial?: boolean } = {},
): Promise<EvalSnapshot | undefined> {
  if (source.kind !== 'files' || !isConfigCatalog(source.catalog, source.format)) {
    if (opts.servers?.length || opts.partial)
      throw new InputError(
        `${setting('server')} and ${setting('partial')} apply to ${setting('catalog')} with an mcpServers configuration (a snapshot taken now)`,
      );
    return undefined;
  }
  const { bundle, missing } = await snapshotConfigFile(source.catalog, err, { quiet, ...opts });
  const text = bundleText(bundle);
  const dir = mkdtempSync(join(tmpdir(), 'backpack-snapshot-'));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', dispose);
  const file = join(dir, basename(source.catalog));
  writeFileNamed(file, text);
  const rest = { cases: resolve(source.cases), skills: source.skills ? resolve(source.skills) : null };
  return {
    loadSource: { kind: 'files', catalog: file, format: 'mcp-bundle', cases: source.cases, skills: source.skills ?? null },
    recordedSource: (out) => ({ kind: 'files', catalog: join(resolve(out), EVAL_SNAPSHOT_FILE), format: 'mcp-bundle', ...rest }),
    files: { [EVAL_SNAPSHOT_FILE]: text },
    missing,
    dispose: () => {
      process.off('exit', dispose);
      dispose();
    },
  };
}
