/**
 * Results that contradict themselves are refused by report, gate, merge and history add (issue 34,
 * point 5): each corruption below loads without a word on code that only checks the schema. The
 * untouched folder passes, so the check is not what fails.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRates } from '../src/eval/results-consistency.ts';
import type { Results } from '../src/eval/results.ts';
import { runCli, tempDir } from './helpers.ts';

const tmp = tempDir('results-consistency');
const good = join(tmp, 'good');
const expectFile = join(tmp, 'expected.yaml');
const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');

/** A copy of the good folder with `edit` applied. */
function corrupt(name: string, edit: (dir: string) => void): string {
  const dir = join(tmp, name);
  cpSync(good, dir, { recursive: true });
  edit(dir);
  return dir;
}

beforeAll(async () => {
  expect((await runCli('generate', '--preset', 'tiny', '--seed', '4', '--out', join(tmp, 'data'), '--quiet')).code).toBe(0);
  const e = await runCli('eval', '--dataset', join(tmp, 'data'), '--split', 'test', '--retrievers', 'bm25,bm25-plain', '--out', good, '--quiet');
  expect(e.code, e.err).toBe(0);
  expect((await runCli('bless', '--results', good, '--expect', expectFile, '--reason', 'baseline')).code).toBe(0);
});

describe('a results folder is checked for self-consistency', () => {
  it('checkRates: a rate outside [0, 1] is named with its JSON path; counts and absent figures are not rates', () => {
    const results = {
      retrievers: { a: { metrics: { overall: { top1: 0.5, scopeLeakCount: 7, cases: 12 }, slices: { s: { 'recall@5': 1.5 } } } } },
    } as unknown as Results;
    expect(() => checkRates(results, 'r.json')).toThrow(/a: recall@5 is 1.5, not a rate in \[0, 1\]/);
    try {
      checkRates(results, 'r.json');
    } catch (e) {
      expect((e as { where?: string }).where).toBe('$.retrievers["a"].metrics.slices["s"]["recall@5"]');
    }
    (results.retrievers.a!.metrics.slices as Record<string, Record<string, number>>).s!['recall@5'] = 1;
    expect(() => checkRates(results, 'r.json')).not.toThrow();
  });

  it('the untouched folder passes report, gate and history add', async () => {
    expect((await runCli('report', good, '--out', join(tmp, 'good-report'), '--format', 'md')).code).toBe(0);
    expect((await runCli('gate', '--results', good, '--expect', expectFile)).code).toBe(0);
    expect((await runCli('history', 'add', good, '--db', join(tmp, 'h.sqlite'), '--label', 'good')).code).toBe(0);
  });

  const cases: Array<[string, (dir: string) => void, RegExp]> = [
    [
      'top1 = 7',
      (dir) => {
        const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
        r.retrievers.bm25.metrics.overall.top1 = 7;
        writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
      },
      /results\.json.*bm25: top1 is 7, not a rate in \[0, 1\]/,
    ],
    [
      'the details of two strategies swapped',
      (dir) => {
        const a = readFileSync(join(dir, 'details', 'bm25.jsonl'));
        writeFileSync(join(dir, 'details', 'bm25.jsonl'), readFileSync(join(dir, 'details', 'bm25-plain.jsonl')));
        writeFileSync(join(dir, 'details', 'bm25-plain.jsonl'), a);
      },
      /details\/bm25(-plain)?\.jsonl.*the details and the figures are not of the same run/,
    ],
    [
      'the details missing their last 10 cases',
      (dir) => {
        const f = join(dir, 'details', 'bm25.jsonl');
        writeFileSync(f, `${lines(f).slice(0, -10).join('\n')}\n`);
      },
      /details\/bm25\.jsonl.*has no record of 10 of the \d+ cases of cases\.jsonl/,
    ],
    [
      'an unknown case id',
      (dir) => {
        const f = join(dir, 'details', 'bm25.jsonl');
        const l = lines(f);
        l[0] = JSON.stringify({ ...JSON.parse(l[0]!), caseId: 'no-such-case' });
        writeFileSync(f, `${l.join('\n')}\n`);
      },
      /details\/bm25\.jsonl.*line 1.*case "no-such-case" is not in cases\.jsonl/,
    ],
    [
      'cases.jsonl cut short',
      (dir) => {
        const f = join(dir, 'cases.jsonl');
        writeFileSync(f, `${lines(f).slice(0, -5).join('\n')}\n`);
      },
      /is not in cases\.jsonl/,
    ],
    [
      'tools.jsonl cut short',
      (dir) => {
        const f = join(dir, 'tools.jsonl');
        writeFileSync(f, `${lines(f).slice(0, 20).join('\n')}\n`);
      },
      /tools\.jsonl/,
    ],
  ];

  for (const [what, edit, message] of cases) {
    it(`${what}: report, gate and history add end with exit 2 naming it`, async () => {
      const dir = corrupt(what.replace(/\W+/g, '-'), edit);
      for (const args of [
        ['report', dir, '--out', join(dir, 'rep'), '--format', 'md'],
        ['gate', '--results', dir, '--expect', expectFile],
        ['history', 'add', dir, '--db', join(tmp, `h-${what.replace(/\W+/g, '-')}.sqlite`), '--label', 'x'],
      ]) {
        const r = await runCli(...args);
        expect(r.code, `${args[0]}: ${r.err}`).toBe(2);
        expect(r.err.replace(/\n/g, ' '), args[0]).toMatch(message);
      }
    });
  }

  it('merge refuses a shard whose details were cut short', async () => {
    const shards = [1, 2].map((i) => join(tmp, `shard-${i}`));
    for (const [i, d] of shards.entries())
      expect(
        (await runCli('eval', '--dataset', join(tmp, 'data'), '--split', 'test', '--retrievers', 'bm25', '--shard', `${i + 1}/2`, '--out', d, '--quiet')).code,
      ).toBe(0);
    const f = join(shards[1]!, 'details', 'bm25.jsonl');
    writeFileSync(f, `${lines(f).slice(0, -3).join('\n')}\n`);
    const r = await runCli('merge', ...shards, '--out', join(tmp, 'merged'));
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/has no record of 3 of the \d+ cases of cases\.jsonl/);
  });
});
