/**
 * `node --import tsx scripts/fit-hybrid-defaults.ts`: fits the default coefficients of the
 * calibrated `hybrid` (zscore features) and `hybrid-rrf` (rrf features) on MetaTool's TRAIN split
 * only, and prints them as the `HYBRID_DEFAULT_COEFFICIENTS` constant of src/retrievers/hybrid.ts.
 *
 * It is exactly what the runner does with a calibration source: the registry retriever is indexed
 * on the MetaTool catalog, then `calibrate` gets every train case with a tool label (graded and
 * no-tool; 10,747 cases, under the default cap of 20,000 at 199 tools), in dataset order (the fit
 * orders them by sha256 of their id anyway). No test case is read. Deterministic: the same
 * catalog, model and cases print the same numbers. Run it again when the embed model or bm25
 * changes, and paste the output into hybrid.ts; then `scripts/fit-hybrid-measure.ts` gives the
 * test-split figures quoted in the registry.
 */
import { loadDataset } from '../src/catalog/resolve.ts';
import { calibrationSet } from '../src/eval/calibrate.ts';
import type { CalibratedHybridRetriever } from '../src/retrievers/hybrid.ts';
import { createRetriever } from '../src/retrievers/registry.ts';

export async function fitDefaults(): Promise<Record<'zscore' | 'rrf', { coefficients: number[]; describe: unknown }>> {
  const d = loadDataset('metatool', { split: 'train' });
  // the runner's calibration set of the train split (its tool-labelled cases)
  const train = calibrationSet(
    'split:train',
    d.cases.filter((c) => c.split === 'train'),
  ).cases;
  const out = {} as Record<'zscore' | 'rrf', { coefficients: number[]; describe: unknown }>;
  for (const [features, name] of [
    ['zscore', 'hybrid'],
    ['rrf', 'hybrid-rrf'],
  ] as const) {
    const r = createRetriever(name) as CalibratedHybridRetriever;
    await r.index(d.catalog);
    await r.calibrate(train);
    out[features] = { coefficients: r.currentCoefficients(), describe: (r.describe() as { calibration: unknown }).calibration };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fitted = await fitDefaults();
  for (const [features, f] of Object.entries(fitted)) console.error(features, JSON.stringify(f.describe));
  console.log('export const HYBRID_DEFAULT_COEFFICIENTS: Readonly<Record<CalibratedFeatures, readonly number[]>> = Object.freeze({');
  for (const [features, f] of Object.entries(fitted)) console.log(`  ${features}: Object.freeze([${f.coefficients.map((c) => String(c)).join(', ')}]),`);
  console.log('});');
}
