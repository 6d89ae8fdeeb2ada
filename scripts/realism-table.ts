/**
 * The realism figures of generated monster datasets beside the real sets' ranges and the windows
 * the generator is held to (src/eval/data/realism-reference.json), as Markdown tables.
 *
 *   node --import tsx scripts/realism-table.ts [--seeds 7,8,9] [--preset monster] [--split train|test|all]
 *
 * `--split train` (the default) is what the generator was shaped on; `all` and `test` only report.
 */
import { parseArgs } from 'node:util';
import { generate, resolveParams } from '../src/generate/index.ts';
import { measureRealism } from '../src/eval/realism.ts';
import { inWindow, REALISM_REFERENCE } from '../src/eval/realism-reference.ts';
import type { Window } from '../src/catalog/manifest.ts';

const { values } = parseArgs({
  options: { seeds: { type: 'string', default: '7,8,9' }, preset: { type: 'string', default: 'monster' }, split: { type: 'string', default: 'train' } },
});
const seeds = values.seeds.split(',').map(Number);
const ref = REALISM_REFERENCE;
const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : Number.isInteger(x) ? String(x) : x.toFixed(3));
const win = (w: Window | undefined): string => (w ? `${w[0] ?? '…'}–${w[1] ?? '…'}` : '');
const range = (k: string): string => {
  const r = ref.realRanges[k];
  return Array.isArray(r) ? win(r as Window) : '';
};

for (const seed of seeds) {
  const g = generate(resolveParams(values.preset, seed));
  const cases = values.split === 'all' ? g.dataset.cases : g.dataset.cases.filter((c) => c.split === values.split);
  const r = await measureRealism({ ...g.dataset, cases });
  const rows: Array<[string, number | null | undefined, string, Window | undefined]> = [];
  const s = r.surface!;
  for (const k of ['medianWords', 'questions', 'goldWordOverlap', 'productNamed', 'inventedIds', 'overIn', 'trailingParen', 'leadingLabel'] as const)
    rows.push([k, s[k], range(k), ref.windows[k]]);
  rows.push([`top frame ("${r.frames!.top?.phrase ?? ''}")`, r.frames!.top?.share ?? 0, '', ref.windows.frameShare]);
  rows.push([`top filler ("${r.fillers.top?.phrase ?? ''}")`, r.fillers.top?.share ?? 0, '', ref.windows.fillerShare]);
  rows.push([`top invented value ("${r.placeholders.top?.phrase ?? ''}")`, r.placeholders.top?.share ?? 0, '', ref.windows.placeholderShare]);
  rows.push(['later turns reusing an earlier tool', r.sessions!.reuseEarlierTool, '', ref.windows.reuseEarlierTool]);
  rows.push(['later turns staying on a server', r.sessions!.staysOnServer, range('staysOnServer'), ref.windows.staysOnServer]);
  rows.push(['bm25 recall@5, all cases', r.overall.bm25RecallAt5, '', ref.windows.bm25RecallAt5]);
  for (const [name, f] of Object.entries(r.slices)) {
    if (f.bm25RecallAt5 === null) continue;
    rows.push([`${name}: bm25 recall@5`, f.bm25RecallAt5, '', ref.windows.sliceBm25RecallAt5]);
    rows.push([`${name}: expansion leak`, f.expansionLeak, '', ref.windows.expansionLeak]);
  }
  rows.push(['no-tool distinct', r.noTool.distinctRatio, '', [0.9, null]]);
  console.log(
    `\n### ${values.preset}-${seed}, ${values.split === 'all' ? 'all cases' : `${values.split} split`} (${cases.length.toLocaleString('en-US')} cases)\n`,
  );
  console.log('| figure | this dataset | real sets | window | in window |\n| --- | ---: | ---: | ---: | :---: |');
  for (const [k, v, real, w] of rows) console.log(`| ${k} | ${fmt(v)} | ${real} | ${win(w)} | ${w ? (inWindow(v ?? null, w) ? 'yes' : '**no**') : ''} |`);
}
