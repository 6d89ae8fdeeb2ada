import { beforeAll, describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { EvalInput } from '../eval/input.ts';
import type { Results } from '../eval/results.ts';
import { makeConfig, runEval } from '../eval/run.ts';
import { escapeMarkdown } from '../util/escape.ts';
import { formatInt, headlineMetrics, markdownSummary } from './markdown.ts';
import { EVIL_DESC, EVIL_ID, hostileDataset, PROFILE_TOKEN_COLUMNS, QUALITY_IDS } from '../../test/results-fixtures.ts';
import { tinyInput } from '../../test/helpers.ts';

/** Pipes GFM splits a table row on: those not escaped by a backslash. */
function cells(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '|') n++;
  }
  return n - 1;
}

/** The tables of a Markdown text: runs of lines starting with `|`. */
function tables(md: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | null = null;
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) (cur ??= []).push(line);
    else if (cur) {
      out.push(cur);
      cur = null;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** A table's rows as cell texts (split on unescaped pipes), header included, separator excluded. */
function rows(table: string[]): string[][] {
  return table
    .filter((_, i) => i !== 1)
    .map((line) => {
      const parts: string[] = [];
      let cur = '';
      for (let i = 0; i < line.length; i++) {
        if (line[i] === '\\') {
          cur += line[i]! + (line[i + 1] ?? '');
          i++;
        } else if (line[i] === '|') {
          parts.push(cur.trim());
          cur = '';
        } else cur += line[i];
      }
      return parts.slice(1);
    });
}

/** Every table is well formed: each row has the header's number of cells, the separator too. */
function expectWellFormed(md: string): void {
  for (const t of tables(md)) {
    expect(t.length).toBeGreaterThanOrEqual(2);
    const n = cells(t[0]!);
    expect(t[1]).toMatch(/^\|( ---:? \|)+$/);
    for (const line of t) expect(cells(line), line).toBe(n);
  }
}

function rowOf(md: string, first: string): string[] {
  for (const t of tables(md)) for (const r of rows(t)) if (r[0] === first) return r;
  throw new Error(`no row ${first}`);
}

function headerOf(md: string, first: string): string[] {
  for (const t of tables(md)) {
    const h = rows(t)[0]!;
    if (h[0] === first) return h;
  }
  throw new Error(`no table ${first}`);
}

const { input } = tinyInput();

// Hostile text where third parties write it: tool ids and descriptions, slices, dataset name.
const MD_DESC = `${EVIL_DESC} [link](javascript:alert(1))`;
const hostileInput = (): EvalInput =>
  hostileDataset(
    '<script>alert("ds")</script>|name',
    MD_DESC,
    [
      makeTool({ source: 'core', name: 'send_email', summary: 'Send an email.', description: 'Send an email message to a person.' }),
      makeTool({ source: 'core', name: '<script>alert(1)</script>', summary: MD_DESC, description: MD_DESC }),
    ],
    [
      { id: 'c1', request: 'list the files in my folder', expectedTools: ['list_files'], slices: ['lexical', '<img src=x onerror=alert(1)>|x'] },
      { id: 'c2', request: 'send an email message', expectedTools: ['send_email'], slices: ['a|b\nc\u0001', '</script>'] },
      { id: 'c3', request: 'zebra quantum pineapple', expectedTools: [EVIL_ID], slices: ['</script>', '[x](javascript:alert(1))'] },
      { id: 'c4', request: 'good morning', expectedTools: [], slices: ['no-tool'] },
    ],
  );

let tiny: Results;
let evil: Results;

beforeAll(async () => {
  // raw queries for all: deferred searches exactly as bm25 does, so bm25 (first in the run) leads on ties
  tiny = (
    await runEval(input, {
      ...makeConfig(['bm25'], [1, 3, 5, 10], { bm25: null, static: null, deferred: null }, null, false, ['static', 'deferred']),
      queryStyle: 'raw',
    })
  ).results;
  const h = hostileInput();
  evil = (await runEval(h, makeConfig(['bm25'], [1, 3, 5, 10], { bm25: null, deferred: null }, null, false, ['deferred']))).results;
  // A strategy name with markup too (names come from plugins and configs).
  evil.retrievers = { '<b>bm|25</b>': evil.retrievers.bm25! };
}, 60_000);

describe('markdownSummary on a real run', () => {
  it('states the provenance: dataset, cases, tools, catalog hash, version, date of the run', () => {
    const md = markdownSummary(tiny);
    const lines = md.split('\n');
    expect(lines[0]).toBe('## Backpack: tiny-5');
    expect(md).toContain(`${formatInt(tiny.dataset.cases)} cases · ${formatInt(tiny.dataset.tools)} tools`);
    expect(md).toContain(`catalog \`${tiny.dataset.catalogSha256.slice(0, 12)}\``);
    expect(md).toContain(`Backpack ${tiny.backpack.version}`);
    if (tiny.backpack.gitSha) expect(md).toContain(tiny.backpack.gitSha.slice(0, 7));
    const at = tiny.timings.startedAt;
    expect(md).toContain(`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`);
  });

  it('lists the input warnings and a re-signed dataset, escaped', () => {
    expect(markdownSummary(tiny)).not.toMatch(/input warning|re-signed/);
    const warned: Results = {
      ...tiny,
      dataset: { ...tiny.dataset, reSigned: { added: ['qrels/<b>.tsv'], removed: [], changed: ['queries.jsonl'] } },
      warnings: ['1 query of queries.jsonl has no judgement: <script>q|1</script>', 'x.jsonl: 2 invalid UTF-8 byte sequences were replaced'],
    };
    const md = markdownSummary(warned);
    expect(md).toContain(`**Dataset re-signed** (\`eval --re-sign\`): ${escapeMarkdown('yes: added qrels/<b>.tsv; changed queries.jsonl')}`);
    expect(md).toContain('**2 input warnings:**');
    expect(md).toContain(`- ${escapeMarkdown('1 query of queries.jsonl has no judgement: <script>q|1</script>')}`);
    expect(md).not.toContain('<script>');
  });

  it('is deterministic: the date is the run start, not now', () => {
    const fixed = { ...tiny, timings: { startedAt: '2024-01-02T03:04:05.678Z', durationMs: 1 } };
    const a = markdownSummary(fixed);
    expect(a).toContain('2024-01-02 03:04 UTC');
    expect(markdownSummary(structuredClone(fixed))).toBe(a);
  });

  it('has one row per strategy with the headline metrics, n/a where a strategy has none', () => {
    const md = markdownSummary(tiny);
    expectWellFormed(md);
    expect(headlineMetrics(tiny)).toEqual([...QUALITY_IDS, 'noToolFalsePositiveRate', 'searchNoToolFalsePositiveRate', 'scopeLeakCount']);
    const header = headerOf(md, 'strategy');
    expect(header).toEqual(['strategy', 'kind', ...QUALITY_IDS, 'no-tool FP rate', 'search no-tool FP rate', 'scope leaks', 'gold never surfaced (top 10)']);
    const plain = (c: string) => c.replace(/\*\*/g, '');
    for (const name of ['bm25', 'static', 'deferred']) {
      const r = rowOf(md, name);
      const m = (name === 'bm25' ? tiny.retrievers[name] : tiny.profiles![name])!.metrics.overall;
      for (const [i, metric] of header.entries()) {
        if (i < 2 || i >= header.length - 2) continue;
        const id = headlineMetrics(tiny)[i - 2]!;
        expect(plain(r[i]!), `${name} ${metric}`).toBe(m[id] === undefined ? 'n/a' : m[id]!.toFixed(3));
      }
      expect(r[header.length - 2]).toBe('0');
    }
    expect(rowOf(md, 'bm25')[1]).toBe('retriever');
    expect(rowOf(md, 'static')[1]).toBe('profile, no search');
    expect(rowOf(md, 'static')[2]).toBe('n/a'); // no top1 without a search
    expect(rowOf(md, 'bm25')[header.length - 1]).toBe(String(tiny.retrievers.bm25!.neverSurfaced.gold.length));
    expect(rowOf(md, 'static')[header.length - 1]).toBe('–');
  });

  it('bolds the best value of a column', () => {
    const md = markdownSummary(tiny);
    const v = tiny.retrievers.bm25!.metrics.overall['recall@10']!;
    expect(v).toBeGreaterThan(tiny.profiles!.deferred!.metrics.overall['recall@10']!);
    expect(rowOf(md, 'bm25')[5]).toBe(`**${v.toFixed(3)}**`);
  });

  it('shows the profiles token figures', () => {
    const md = markdownSummary(tiny);
    const [first, before, ...rest] = PROFILE_TOKEN_COLUMNS;
    // the tiny catalog has 12 core tools (bash, read_file, …) that static lists: a column with their count and tokens
    expect(headerOf(md, 'profile')).toEqual([
      first,
      before,
      'core tools (tokens)',
      ...rest,
      'calls per case',
      'calls per success',
      'calls per 12 turns',
      'context fit',
      'context window',
    ]);
    for (const name of ['static', 'deferred']) {
      const t = tiny.profiles![name]!.tokens;
      const r = rows(tables(md).find((x) => x[0]!.startsWith('| profile '))!).find((x) => x[0] === name)!;
      expect(t.fitsContext).toBe(1);
      const c = tiny.profiles![name]!.calls!;
      const core = tiny.profiles![name]!.exposure.coreEager!;
      // static lists them; the seed's deferred defers every tool, its own included
      expect(core.tools).toBe(name === 'static' ? 12 : 0);
      expect(core.tokens > 0).toBe(name === 'static');
      expect(r).toEqual([
        name,
        formatInt(t.beforeSearch),
        `${formatInt(core.tools)} (${formatInt(core.tokens)})`,
        name === 'static' ? '–' : formatInt(t.perSearch),
        formatInt(t.perCase),
        formatInt(t.session12Uncached),
        formatInt(t.session12Cached),
        c.perCase.toFixed(2),
        c.perSuccess!.toFixed(2),
        c.perSession.toFixed(1),
        'fits',
        '200,000',
      ]);
    }
    // results without core tools (or written before they were reported) have no such column
    const without = structuredClone(tiny);
    for (const p of Object.values(without.profiles!)) delete p.exposure.coreEager;
    expect(headerOf(markdownSummary(without), 'profile')).toEqual([
      ...PROFILE_TOKEN_COLUMNS,
      'calls per case',
      'calls per success',
      'calls per 12 turns',
      'context fit',
      'context window',
    ]);
    expect(formatInt(1234567.4)).toBe('1,234,567');
    expect(formatInt(undefined)).toBe('–');
  });

  it('lists the 5 worst slices of the best strategy and its never-surfaced gold tools', () => {
    const md = markdownSummary(tiny);
    const bm25 = tiny.retrievers.bm25!;
    expect(md).toContain('### Worst slices of bm25 (by recall@5)');
    const expected = Object.entries(bm25.metrics.slices)
      .filter(([, t]) => t['recall@5'] !== undefined)
      .sort(([a, x], [b, y]) => x['recall@5']! - y['recall@5']! || a.localeCompare(b))
      .slice(0, 5);
    const t = rows(tables(md).find((x) => x[0]!.startsWith('| slice '))!);
    expect(t.slice(1).map((r) => r[0])).toEqual(expected.map(([n]) => escapeMarkdown(n)));
    expect(t.slice(1).map((r) => r[2])).toEqual(expected.map(([, m]) => m['recall@5']!.toFixed(3)));
    const gold = bm25.neverSurfaced.gold;
    expect(md).toContain(`**Gold tools bm25 never surfaced in its top 10:** ${gold.length}`);
    // ids as code spans (they are made of id characters), not escaped text
    for (const id of gold.slice(0, 5)) expect(md).toContain(`\`${id}\``);
  });

  it('stays compact for 20 strategies, and `top` keeps the best N', () => {
    const many: Results = structuredClone(tiny);
    many.retrievers = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`bm25-${i}`, tiny.retrievers.bm25!]));
    many.profiles = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`${i % 2 ? 'static' : 'deferred'}-${i}`, i % 2 ? tiny.profiles!.static! : tiny.profiles!.deferred!]),
    );
    const md = markdownSummary(many, { reportPath: 'reports/tiny-5/report/index.html' });
    expectWellFormed(md);
    // two tables of one row per strategy (the overview, the floors), the profiles' tokens, and little else
    expect(rows(tables(md)[0]!).length).toBe(21);
    expect(rows(tables(md).find((t) => t[0]!.startsWith('| strategy | floor |'))!).length).toBe(21);
    expect(md.split('\n').length).toBeLessThan(90);

    const top = markdownSummary(many, { top: 3 });
    expectWellFormed(top);
    // ranking strategies first (by recall@5), in run order on ties; then profiles without search
    expect(
      rows(tables(top)[0]!)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(['bm25-0', 'bm25-1', 'bm25-2']);
    const top16 = markdownSummary(many, { top: 16 });
    expect(
      rows(tables(top16)[0]!)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([...Array.from({ length: 14 }, (_, i) => `bm25-${i}`), 'deferred-0', 'deferred-2']);
    expect(top).toContain('_17 more strategies in the full report._');
  });

  it('degrades gracefully: no profiles, no slices, no strategies', () => {
    const bare: Results = structuredClone(tiny);
    delete bare.profiles;
    bare.retrievers.bm25!.metrics.slices = {};
    const md = markdownSummary(bare);
    expectWellFormed(md);
    expect(md).not.toContain('visible');
    expect(md).not.toContain('Profile tokens');
    expect(md).not.toContain('Worst slices');
    expect(md).toContain('never surfaced');
    const none: Results = { ...bare, retrievers: {} };
    expect(markdownSummary(none)).toContain('No strategies in this results file.');
  });

  it('links an http(s) report and shows a local path as text', () => {
    expect(markdownSummary(tiny, { reportPath: 'https://ci.example.com/a (b)/<x>.html' })).toContain(
      '[Full report](https://ci.example.com/a%20%28b%29/%3Cx%3E.html)',
    );
    expect(markdownSummary(tiny, { reportPath: 'out/my_report[1].html' })).toContain('Full report: out/my\\_report\\[1\\].html');
    expect(markdownSummary(tiny, { reportPath: 'javascript:alert(1)' })).toContain('Full report: javascript:alert\\(1\\)');
  });
});

describe('markdownSummary on hostile text', () => {
  it('escapes every name from the catalog and the cases: no raw HTML, no broken table, no control characters', () => {
    const md = markdownSummary(evil, { reportPath: '<script>x</script>' });
    expect(md).not.toContain('<');
    expect(md).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F]/);
    expect(md).not.toMatch(/(?<!\\)\]\((?!https:)/); // no link syntax left
    expectWellFormed(md);
    expect(md.split('\n')[0]).toBe(`## Backpack: ${escapeMarkdown(evil.dataset.name)}`);
    // the strategy row keeps its cells, with the name escaped
    expect(rowOf(md, escapeMarkdown('<b>bm|25</b>'))[1]).toBe('retriever');
    // the hostile gold tool was never surfaced: its id is listed, escaped, on one line
    expect(evil.retrievers['<b>bm|25</b>']!.neverSurfaced.gold).toEqual([EVIL_ID]);
    expect(md).toContain(`never surfaced in its top 10:** 1 (${escapeMarkdown(EVIL_ID)})`);
    // hostile slice names are rows of the worst-slices table, escaped
    const slices = rows(tables(md).find((x) => x[0]!.startsWith('| slice '))!)
      .slice(1)
      .map((r) => r[0]);
    expect(slices).toContain(escapeMarkdown('<img src=x onerror=alert(1)>|x'));
    expect(slices).toContain(escapeMarkdown('a|b\nc\u0001'));
    expect(slices).toContain(escapeMarkdown('</script>'));
    expect(slices[0]).toBe(escapeMarkdown('[x](javascript:alert(1))')); // only c3, never found: the worst
  });
});
