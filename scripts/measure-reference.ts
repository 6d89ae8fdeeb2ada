/**
 * Measures MetaTool's test split with the one surface rule (`src/eval/request-surface.ts`) and
 * writes the figures into `src/eval/data/realism-reference.json` (the rest of the file is kept).
 * A test (src/eval/request-surface.test.ts) fails when the file and a fresh measurement differ.
 *
 *   node --import tsx scripts/measure-reference.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDataset } from '../src/catalog/resolve.ts';
import { measureMetaToolSurface } from '../src/eval/realism-reference.ts';

const file = fileURLToPath(new URL('../src/eval/data/realism-reference.json', import.meta.url));
const ref = JSON.parse(readFileSync(file, 'utf8'));
ref.metatool.figures = measureMetaToolSurface(loadDataset('metatool', { split: 'test' }));
writeFileSync(file, `${JSON.stringify(ref, null, 2)}\n`);
console.log(JSON.stringify(ref.metatool.figures));
