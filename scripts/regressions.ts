/**
 * The project's own expected figures: what Backpack's retrievers score on MetaTool (real data,
 * zero-shot and with 5 train examples per tool) and on the `small` generated preset (seed 7).
 * MetaTool's figures are TEST-split figures: anything fitted (the hybrid fusions' score scale)
 * is fitted on the train split (`calibration`), never on the cases scored.
 * `npm run regressions:update` rewrites `regressions/*.json`; `test/regressions.test.ts` fails
 * when a change moves any figure, so a change in retrieval quality is always a visible, reviewed
 * diff. Figures of lexical retrievers must match exactly; those that go through an ONNX model
 * (embed, hybrid) within `TOLERANCE`, since float rounding may differ between CPUs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogHash } from '../src/catalog/manifest.ts';
import { augmentCatalog } from '../src/eval/examples.ts';
import type { EvalInput } from '../src/eval/input.ts';
import { loadEvalInput } from '../src/eval/input.ts';
import type { DatasetSource, ExposureSummary, RetrieverResults } from '../src/eval/results.ts';
import { makeConfig, runEval } from '../src/eval/run.ts';
import { parseFloors, profileDefaultFloors } from '../src/cli/calibration.ts';
import { profileNames, profileUsesModel } from '../src/profiles/registry.ts';
import { calibrationSet, type CalibrationSet } from '../src/eval/calibrate.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';

export interface Figures {
  suite: string;
  catalogSha256: string;
  configHash: string;
  cases: number;
  retrievers: Record<string, { overall: Record<string, number>; slices: Record<string, Record<string, number>>; recallAtFalsePositiveRate?: RetrieverResults['recallAtFalsePositiveRate'] }>;
  /** Profiles' figures, with their exposure summary (present when the suite runs profiles). */
  profiles?: Record<string, { overall: Record<string, number>; slices: Record<string, Record<string, number>>; exposure: ExposureSummary }>;
}

interface Suite {
  input: () => EvalInput;
  /** Where worker threads load the same input (when it is exactly what `loadEvalInput` gives): the suite then runs on two threads. */
  source?: DatasetSource;
  retrievers: string[];
  profiles?: string[];
  /** Calibration cases (never the scored ones): the hybrid fusions fit their score scale on them. */
  calibration?: () => CalibrationSet;
}

const METATOOL: DatasetSource = { kind: 'dataset', ref: join(PACKAGE_ROOT, 'datasets', 'metatool'), split: null };
const metatool = (split: string | null) => loadEvalInput({ ...METATOOL, split });

export const SUITES: Record<string, Suite> = {
  metatool: {
    // scored on the test split; fusions fitted on the train split
    input: () => metatool('test'),
    source: { ...METATOOL, split: 'test' },
    calibration: () => calibrationSet('split:train', metatool('train').cases),
    retrievers: ['bm25', 'bm25-plain', 'embed', 'hybrid', 'hybrid-rrf', 'namespace'],
    profiles: ['static', 'codex', 'claude-code', 'hermes', 'hermes-raw', 'hermes-retry', 'deepseek-code', 'deepseek-code-preselect', 'deferred', 'namespace-routing', 'namespace-filtered', 'semantic-retrieval', 'gated-sticky-deferred', 'routed-deferred'],
  },
  'metatool-examples': {
    // 5 train requests per tool added to its examples; scored on the test half
    input: () => {
      const all = metatool(null);
      const a = augmentCatalog(all.catalog, all.cases, { from: 'train', perTool: 5 }, 'test');
      return { ...all, catalog: a.catalog, cases: a.scored };
    },
    retrievers: ['bm25', 'embed', 'hybrid'],
  },
  'small-7': {
    input: () => {
      const g = generate(resolveParams('small', 7));
      return { name: 'small-7', source: { kind: 'dataset', ref: 'small-7', split: null }, catalog: g.dataset.catalog, cases: g.dataset.cases, catalogSha256: catalogHash(g.dataset.catalog), roles: g.dataset.roles! };
    },
    retrievers: ['bm25', 'bm25-plain', 'namespace', 'gate'],
    profiles: ['static', 'codex', 'claude-code', 'claude-code-auto', 'hermes', 'hermes-raw', 'deepseek', 'deepseek-code', 'deepseek-code-preselect', 'deferred', 'role-gating', 'namespace-routing', 'namespace-filtered'],
  },
};

/** Retrievers whose figures may move by float rounding between machines, and by how much. */
export const APPROXIMATE = new Set(['embed', 'hybrid', 'hybrid-rrf', ...profileNames().filter(profileUsesModel)]);
export const TOLERANCE = 2e-3;

export function figuresFile(suite: string): string {
  return join(PACKAGE_ROOT, 'regressions', `${suite}.json`);
}

export async function computeFigures(suite: string): Promise<Figures> {
  const s = SUITES[suite]!;
  const input = s.input();
  const profiles = s.profiles ?? [];
  // the floors `backpack eval` uses when --floor is not given: none, or a profile's default (calibrated when the suite has calibration cases)
  const config = makeConfig(s.retrievers, [1, 3, 5, 10], parseFloors(undefined, [...s.retrievers, ...profiles], profileDefaultFloors(profiles, s.calibration !== undefined)), null, false, profiles);
  const run = await runEval(input, config, { ...(s.source ? { workers: 2, workerSource: s.source } : {}), ...(s.calibration ? { calibration: s.calibration() } : {}) });
  return {
    suite,
    catalogSha256: input.catalogSha256,
    configHash: run.results.configHash,
    cases: input.cases.length,
    retrievers: Object.fromEntries(Object.entries(run.results.retrievers).map(([n, r]) => [n, { overall: r.metrics.overall, slices: r.metrics.slices, recallAtFalsePositiveRate: r.recallAtFalsePositiveRate ?? null }])),
    ...(run.results.profiles ? { profiles: Object.fromEntries(Object.entries(run.results.profiles).map(([n, r]) => [n, { overall: r.metrics.overall, slices: r.metrics.slices, exposure: r.exposure }])) } : {}),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const suite of Object.keys(SUITES)) {
    const f = await computeFigures(suite);
    writeFileSync(figuresFile(suite), `${JSON.stringify(f, null, 2)}\n`);
    const line = [...Object.entries(f.retrievers), ...Object.entries(f.profiles ?? {})].map(([n, r]) => `${n} ${r.overall.top1?.toFixed(3)}/${r.overall['recall@5']?.toFixed(3)}`).join(', ');
    console.log(`${suite} (top1/recall@5): ${line}`);
  }
}
