/**
 * A snapshot of every server of a configuration (or of the ones chosen), taken concurrently with a
 * bound, each under its own deadline. A server that fails is an entry of `failures`; the others are
 * kept. Writing is atomic: a temporary file beside the target, renamed into place. While servers
 * may run, SIGINT and SIGTERM end them all and exit 130 or 143.
 */
import { writeFileAtomic as writeAtomically } from '../util/atomic-write.ts';
import { InputError } from '../util/errors.ts';
import { MAX_NESTING, tooDeep } from '../util/bounded.ts';
import { bundleServer, bundleServerProblem, bundleText, makeBundle, type BundleServer, type SnapshotBundle } from './bundle.ts';
import { chooseServersFromFlags, type McpConfig } from './config.ts';
import { killLiveServers } from './connect.ts';
import { snapshotServer, type ServerFailure, type ServerOutcome } from './server.ts';

export const DEFAULT_TIMEOUT_SECONDS = 30;
/** Servers started at once: they mostly wait on each other's start-up, but each is a process. */
export const DEFAULT_CONCURRENCY = 4;

export interface SnapshotOptions {
  timeoutMs?: number;
  concurrency?: number;
  /** Config keys (or normalised names) to snapshot; default all. */
  only?: readonly string[];
  /** Called as each server finishes, in finishing order. */
  onServer?: (outcome: ServerOutcome) => void;
  now?: () => Date;
}

export interface SnapshotResult {
  bundle: SnapshotBundle;
  failures: ServerFailure[];
  /** Milliseconds from the first start to the last close. */
  elapsedMs: number;
}

/** Run `fn` over `items` with at most `limit` running at once; results in `items` order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return out;
}

/** Snapshot the servers of `config`. Never throws for a server's failure. */
export async function takeSnapshot(config: McpConfig, opts: SnapshotOptions = {}): Promise<SnapshotResult> {
  const specs = chooseServersFromFlags(config, opts.only ?? []);
  const now = opts.now ?? (() => new Date());
  const takenAt = now().toISOString();
  const t0 = performance.now();
  const release = holdSignals();
  const outcomes = await mapBounded(specs, opts.concurrency ?? DEFAULT_CONCURRENCY, async (spec) => {
    let outcome = await snapshotServer(spec, opts.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000, now);
    if (outcome.ok) {
      // What the server answered becomes a bundle file (root → servers[] → this server): it must nest
      // no deeper than any catalog file may, or hashing and writing it would overflow.
      const x = outcome.snapshot;
      const deep = tooDeep(
        { tools: x.tools, prompts: x.prompts, resources: x.resources, resourceTemplates: x.resourceTemplates, snapshot: { serverInfo: x.serverInfo } },
        MAX_NESTING - 2,
      );
      const problem =
        deep !== undefined
          ? `its answers nest arrays and objects more than ${MAX_NESTING} levels deep in the bundle (at ${deep.replace(/^\$/, `$.servers[${JSON.stringify(spec.name)}]`)})`
          : bundleServerProblem(bundleServer(outcome.snapshot), config.file);
      if (problem !== null)
        outcome = { ok: false, failure: { name: spec.name, spec, reason: deep !== undefined ? problem : `its tools do not load as a catalog: ${problem}` } };
    }
    if (!interrupted) opts.onServer?.(outcome);
    return outcome;
  }).finally(release);
  // Interrupted: the servers are being ended and the process exits 130/143; write and print nothing.
  if (interrupted) await new Promise<never>(() => {});
  const servers: BundleServer[] = [];
  const failures: ServerFailure[] = [];
  for (const o of outcomes) {
    if (o.ok) servers.push(bundleServer(o.snapshot));
    else failures.push(o.failure);
  }
  return {
    bundle: makeBundle(
      config,
      servers,
      failures.map((f) => f.name),
      takenAt,
    ),
    failures,
    elapsedMs: performance.now() - t0,
  };
}

let holders = 0;
let interrupted = false;
const EXIT_ON: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) return;
  interrupted = true;
  process.stderr.write(`\n${signal}: ending the MCP servers this snapshot started\n`);
  void killLiveServers().finally(() => process.exit(EXIT_ON[signal] ?? 1));
}

/**
 * While snapshots run (servers may be up), SIGINT and SIGTERM end every server this process started
 * and then exit 130 or 143: without it, a cancelled CI job or `timeout(1)` leaves the servers
 * running. The returned function removes the handlers once the last snapshot is done.
 */
function holdSignals(): () => void {
  if (holders++ === 0) for (const s of Object.keys(EXIT_ON)) process.on(s, onSignal);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) for (const s of Object.keys(EXIT_ON)) process.off(s, onSignal);
  };
}

/** Write `text` to `file` atomically (a temporary sibling renamed into place). */
export function writeFileAtomic(file: string, text: string): void {
  try {
    writeAtomically(file, text);
  } catch (err) {
    throw new InputError(`cannot write: ${(err as Error).message}`, { file });
  }
}

export function writeBundle(file: string, bundle: SnapshotBundle): void {
  writeFileAtomic(file, bundleText(bundle));
}
