import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.ts';
import { InputError } from '../../util/errors.ts';
import { isMetaToolDir, loadMetaTool, loadMetaToolCatalog } from './metatool.ts';

// The project's own copy (datasets/metatool), never the shared one.
const DIR = fileURLToPath(new URL('../../../datasets/metatool/', import.meta.url));
const tmp = tempDir('metatool');

describe('loadMetaTool', () => {
  const d = loadMetaTool(DIR);
  const slice = (s: string) => d.cases.filter((c) => c.slices.includes(s));

  it('is detected by plugin_des.json', () => {
    expect(isMetaToolDir(DIR)).toBe(true);
    expect(isMetaToolDir(tmp)).toBe(false);
  });

  it('has 199 plugin tools named by their plain names', () => {
    expect(d.name).toBe('metatool');
    expect(d.catalog.tools).toHaveLength(199);
    expect(d.catalog.plugins).toHaveLength(199);
    expect(d.catalog.servers).toEqual([]);
    const finance = d.catalog.tools.find((t) => t.id === 'FinanceTool')!;
    expect(finance).toMatchObject({
      name: 'FinanceTool',
      source: 'plugin',
      plugin: 'FinanceTool',
      namespace: 'FinanceTool',
      inputSchema: { type: 'object', properties: {} },
    });
    expect(d.catalog.tools[0]!.id).toBe('timeport');
    expect(d.catalog.tools[0]!.summary).toBe(
      'Begin an exciting journey through time, interact with unique characters, and learn history in this time-travel game!',
    );
    expect(d.catalog.tools.some((t) => t.id === 'PDF&URLTool')).toBe(true);
    expect(loadMetaToolCatalog(DIR).tools.map((t) => t.hash)).toEqual(d.catalog.tools.map((t) => t.hash));
  });

  it('has the case counts the data give', () => {
    expect(d.cases).toHaveLength(21568);
    expect(slice('single-tool')).toHaveLength(20540);
    expect(slice('single-tool-ambiguous')).toHaveLength(11);
    expect(d.cases.filter((c) => c.id.startsWith('single-'))).toHaveLength(20551);
    expect(slice('multi-tool')).toHaveLength(497);
    expect(slice('no-tool')).toHaveLength(520);
    // deterministic halves: each tool's single-tool cases split half/half (train rounded down)
    const perTool = new Map<string, { train: number; test: number }>();
    for (const c of slice('single-tool')) {
      const t = perTool.get(c.expectedTools![0]!) ?? { train: 0, test: 0 };
      t[c.split as 'train' | 'test']++;
      perTool.set(c.expectedTools![0]!, t);
    }
    for (const { train, test } of perTool.values()) expect(train === Math.floor((train + test) / 2)).toBe(true);
    const others = d.cases.filter((c) => !c.slices.includes('single-tool'));
    const othersTrain = others.filter((c) => c.split === 'train').length;
    expect(othersTrain / others.length).toBeGreaterThan(0.4);
    expect(othersTrain / others.length).toBeLessThan(0.6);
    expect(loadMetaTool(DIR).cases.map((c) => c.split)).toEqual(d.cases.map((c) => c.split));
    expect(new Set(d.cases.map((c) => c.id)).size).toBe(d.cases.length);
  });

  it('merges duplicate rows and makes multi-label queries one "any" case', () => {
    const ambiguous = slice('single-tool-ambiguous');
    expect(ambiguous.every((c) => c.goldMode === 'any' && c.expectedTools!.length >= 2)).toBe(true);
    expect(ambiguous.filter((c) => c.expectedTools!.length === 2)).toHaveLength(10);
    const book = d.cases.find((c) => c.request === 'Can you recommend a good book to read?')!;
    expect(book).toMatchObject({ id: 'single-002106', expectedTools: ['ProductSearch', 'BookTool', 'internetSearch', 'word_sneak'], goldMode: 'any' });
    // 7 identical rows, one case.
    const bitcoin = d.cases.filter((c) => c.request === 'What is the current price of Bitcoin?');
    expect(bitcoin).toHaveLength(1);
    expect(bitcoin[0]).toMatchObject({ expectedTools: ['FinanceTool'], slices: ['single-tool'] });
    expect(bitcoin[0]!.goldMode).toBeUndefined();
    expect(d.cases[0]).toEqual({
      id: 'single-000001',
      request: 'Can I find academic research papers on this topic?',
      expectedTools: ['ResearchHelper'],
      slices: ['single-tool'],
      split: expect.stringMatching(/^(train|test)$/),
    });
  });

  it('adds the awareness positive missing from the CSV, and the negatives as no-tool cases', () => {
    const extra = d.cases.find((c) => c.id === 'single-020551')!;
    expect(extra.expectedTools).toEqual(['storybird_stories']);
    expect(extra.request.startsWith("I'm looking for a solution that simplifies the process of creating illustrated stories")).toBe(true);
    const none = slice('no-tool');
    expect(none[0]).toEqual({
      id: 'none-0001',
      request: 'What would a homeless person need if they already have a fire to stand next to?',
      expectedTools: [],
      slices: ['no-tool'],
      split: expect.stringMatching(/^(train|test)$/),
    });
    expect(none.at(-1)!.id).toBe('none-0520');
  });

  it('reads the two-tool queries as "all" cases', () => {
    const multi = slice('multi-tool');
    expect(multi[0]).toEqual({
      id: 'multi-0001',
      request: 'I want to know the latest news about Tesla and how it has impacted the stock market.',
      expectedTools: ['FinanceTool', 'NewsTool'],
      goldMode: 'all',
      slices: ['multi-tool'],
      split: expect.stringMatching(/^(train|test)$/),
    });
    expect(multi.every((c) => c.expectedTools!.length === 2 && c.goldMode === 'all')).toBe(true);
    expect(multi.at(-1)!.id).toBe('multi-0497');
  });

  it('rejects a folder without plugin_des.json', () => {
    writeFileSync(join(tmp, 'README.md'), 'x');
    const err = (() => {
      try {
        loadMetaTool(tmp);
      } catch (e) {
        return e as InputError;
      }
      throw new Error('expected an error');
    })();
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('not a MetaTool folder: plugin_des.json is missing');
    expect(err.file).toBe(tmp);
  });
});
