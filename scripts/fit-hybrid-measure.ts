/**
 * `node --import tsx scripts/fit-hybrid-measure.ts [dataset] [strategies]`: recall@5 at a no-tool
 * false-positive rate of 0.1, with any calibration on the TRAIN split and scoring on the TEST split
 * (default dataset `metatool`; strategies: a comma-separated list of registry names, default
 * bm25,hybrid-zscore,hybrid,hybrid-rrf; `name:defaults` = a calibrating retriever NOT calibrated,
 * on its default coefficients). Deterministic. For each strategy it prints:
 *   - recall@5 on the graded test cases without a floor (and on the single-tool ones alone);
 *   - oracle floor: on the TEST no-tool cases, s_i = the top score (−∞ when nothing is returned);
 *     f = the lowest floor with share(s_i ≥ f) ≤ 0.1 (the next double above the ⌊0.1·N⌋+1-th largest
 *     s_i); recall@5 of the top-5 hits scoring ≥ f, and the test FP rate;
 *   - train floor: the same rule on the TRAIN no-tool cases, applied to the test cases (recall@5 and
 *     the test FP rate it gives).
 * Recall of a graded case (expectedTools non-empty): goldMode `all` = |gold ∩ top5| / |gold|,
 * `any` = 1 if any gold is in the top 5. A calibrating strategy is calibrated on every train case
 * (graded and no-tool) before the test cases are searched.
 *
 * MetaTool (10,571 graded and 250 no-tool test cases; bm25 preset name ×3, k1 3, b 0.5; the
 * committed static embed model), recall@5: unfloored / at FP 0.1 with the floor set on test /
 * with the floor set on train (test FP it gives):
 *   bm25            0.644 / 0.244 / 0.158 (0.068)
 *   embed           0.562 / 0.283 / 0.261 (0.080)
 *   hybrid-zscore   0.699 / 0.155 / 0.151 (0.092)
 *   hybrid          0.706 / 0.298 / 0.266 (0.076)   (the same with `hybrid:defaults`)
 *   hybrid-rrf      0.696 / 0.313 / 0.305 (0.096)   (the same with `hybrid-rrf:defaults`)
 */
import { loadDataset } from '../src/catalog/resolve.ts';
import type { Case } from '../src/catalog/types.ts';
import { createRetriever } from '../src/retrievers/registry.ts';
import { isCalibrating, isDescribable, isPrefetching, type Hit, type Retriever } from '../src/retrievers/types.ts';

const K = 5;
const TARGET = 0.1;

/** The smallest double above x. */
function nextUp(x: number): number {
  if (x === Infinity || Number.isNaN(x)) return x;
  if (x === 0) return Number.MIN_VALUE;
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  u[0] = x > 0 ? u[0]! + 1n : u[0]! - 1n;
  return b[0]!;
}

/** The lowest floor f with share(top ≥ f) ≤ target over the no-tool cases' top scores. */
export function chooseFloor(tops: readonly number[], target: number): number {
  const sorted = [...tops].sort((a, b) => b - a);
  const allowed = Math.floor(target * sorted.length + 1e-9);
  if (allowed >= sorted.length) return -Infinity;
  return nextUp(sorted[allowed]!);
}

interface Searched {
  c: Case;
  hits: Hit[];
}

async function searchAll(r: Retriever, cases: readonly Case[]): Promise<Searched[]> {
  const out: Searched[] = [];
  for (let s = 0; s < cases.length; s += 64) {
    const block = cases.slice(s, s + 64);
    if (isPrefetching(r)) await r.prefetch(block.map((c) => c.request));
    for (const c of block) out.push({ c, hits: await r.search(c.request, { k: K }) });
  }
  return out;
}

function recall(s: Searched, floor: number): number {
  const gold = new Set(s.c.expectedTools);
  const got = s.hits.slice(0, K).filter((h) => h.score >= floor && gold.has(h.id)).length;
  if (s.c.goldMode === 'any') return got > 0 ? 1 : 0;
  return got / gold.size;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const top = (s: Searched): number => s.hits[0]?.score ?? -Infinity;

export async function measure(dataset: string, names: readonly string[]): Promise<Record<string, Record<string, unknown>>> {
  const d = loadDataset(dataset);
  const train = d.cases.filter((c) => c.split === 'train' && c.expectedTools !== undefined);
  const test = d.cases.filter((c) => (c.split ?? 'test') === 'test' && c.expectedTools !== undefined);
  const results: Record<string, Record<string, unknown>> = {};
  for (const label of names) {
    // `name:defaults`: a calibrating retriever left on its default coefficients
    const [name, mode] = label.split(':') as [string, string | undefined];
    const r = createRetriever(name);
    await r.index(d.catalog);
    let calibration: unknown = null;
    if (isCalibrating(r) && mode !== 'defaults') {
      await r.calibrate(
        train.map((c) => ({
          id: c.id,
          request: c.request,
          expectedTools: c.expectedTools!,
          ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}),
          ...(c.role !== undefined ? { role: c.role } : {}),
        })),
      );
      calibration = isDescribable(r) ? (r.describe() as { coefficients?: unknown }).coefficients : null;
    }
    const trainNone = await searchAll(
      r,
      train.filter((c) => c.expectedTools!.length === 0),
    );
    const searched = await searchAll(r, test);
    const none = searched.filter((s) => s.c.expectedTools!.length === 0);
    const graded = searched.filter((s) => s.c.expectedTools!.length > 0);
    const single = graded.filter((s) => s.c.expectedTools!.length === 1);
    const fpAt = (f: number): number => none.filter((s) => top(s) >= f).length / none.length;
    const oracle = chooseFloor(none.map(top), TARGET);
    const trained = chooseFloor(trainNone.map(top), TARGET);
    if (mode === 'defaults' && isDescribable(r)) calibration = (r.describe() as { coefficients?: unknown }).coefficients;
    results[label] = {
      graded: graded.length,
      noTool: none.length,
      recall5: mean(graded.map((s) => recall(s, -Infinity))),
      recall5Single: mean(single.map((s) => recall(s, -Infinity))),
      oracleFloor: oracle,
      recall5AtOracleFloor: mean(graded.map((s) => recall(s, oracle))),
      fpAtOracleFloor: fpAt(oracle),
      trainFloor: trained,
      recall5AtTrainFloor: mean(graded.map((s) => recall(s, trained))),
      fpAtTrainFloor: fpAt(trained),
      ...(calibration !== null ? { coefficients: calibration } : {}),
    };
    console.log(label, JSON.stringify(results[label], null, 1));
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dataset = process.argv[2] ?? 'metatool';
  const names = (process.argv[3] ?? 'bm25,hybrid-zscore,hybrid,hybrid-rrf').split(',');
  await measure(dataset, names);
}
