import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Task } from 'tinybench';

/** The machine a benchmark ran on, as every suite's JSON states it (`unknownModel`: what to write when the CPU does not name itself). */
export function machine(unknownModel: string | null = null): { node: string; platform: string; cpus: number; cpuModel: string | null } {
  return { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? unknownModel };
}

/** The first fields of a suite's JSON: its name, when it ran, and the machine. */
export function suiteHeader(suite: string, unknownModel: string | null = null): { suite: string; date: string } & ReturnType<typeof machine> {
  return { suite, date: new Date().toISOString(), ...machine(unknownModel) };
}

export interface TaskResult {
  name: string;
  runs: number;
  meanMs: number;
  p50Ms: number;
  minMs: number;
  maxMs: number;
  /** What one run produced (tools generated, requests answered…), for rates. */
  items: number | null;
}

export interface SuiteResult {
  suite: string;
  tasks: TaskResult[];
  /** Peak resident memory of the benchmark process (MB). */
  peakRssMb: number;
}

/** A run tinybench suite as a `SuiteResult`, with the process's peak memory so far; `items[task]`: what one run of the task produced. */
export function suiteResult(suite: string, tasks: readonly Task[], items: Record<string, number> = {}): SuiteResult {
  return {
    suite,
    tasks: tasks.map((t) => {
      const r = t.result as { latency?: { mean: number; p50: number; min: number; max: number } };
      return {
        name: t.name,
        runs: t.runs,
        meanMs: r.latency?.mean ?? NaN,
        p50Ms: r.latency?.p50 ?? NaN,
        minMs: r.latency?.min ?? NaN,
        maxMs: r.latency?.max ?? NaN,
        items: items[t.name] ?? null,
      };
    }),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/** Print a suite's table and write `reports/bench/<suite>.json` with the machine it ran on. */
export function reportSuite(result: SuiteResult): void {
  const dir = join(process.cwd(), 'reports', 'bench');
  mkdirSync(dir, { recursive: true });
  const envelope = { ...result, node: process.version, platform: `${process.platform}-${process.arch}`, date: new Date().toISOString() };
  writeFileSync(join(dir, `${result.suite}.json`), JSON.stringify(envelope, null, 2) + '\n');
  console.log(`\n${result.suite}`);
  console.table(
    result.tasks.map((t) => ({
      task: t.name,
      runs: t.runs,
      'mean s': (t.meanMs / 1000).toFixed(2),
      'median s': (t.p50Ms / 1000).toFixed(2),
      'min s': (t.minMs / 1000).toFixed(2),
      items: t.items ?? '',
      'items/s': t.items ? Math.round(t.items / (t.meanMs / 1000)) : '',
    })),
  );
  console.log(`peak RSS ${result.peakRssMb} MB  →  reports/bench/${result.suite}.json`);
}
