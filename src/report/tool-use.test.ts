import { describe, expect, it } from 'vitest';
import { tinyInput } from '../../test/helpers.ts';
import type { Case } from '../catalog/types.ts';
import { type AuditTool, audit } from '../eval/audit.ts';
import type { ToolRecord } from '../eval/case-records.ts';
import { makeConfig, runEval } from '../eval/run.ts';
import { htmlReport } from './html.ts';
import { markdownSummary } from './markdown.ts';
import { MAX_POINTS, reportAudit, toolUseChart } from './tool-use.ts';

const EVIL = 'mcp__evil__<script>alert(1)</script>';
const tools: AuditTool[] = [
  { id: 'search', namespace: 'core', schemaTokens: 40 },
  { id: EVIL, namespace: 'evil', schemaTokens: null },
  { id: 'unused', namespace: 'core', schemaTokens: 25 },
];
const cases: Case[] = [
  { id: 'a', request: 'find it', expectedTools: ['search'], slices: [], sessionId: 's', turn: 0, calls: ['search', 'search', EVIL] },
  { id: 'b', request: 'thanks', expectedTools: [], slices: ['no-tool'], sessionId: 's', turn: 1, calls: [] },
];

describe('the Tool use section and chart', () => {
  it('comes from a results folder’s records when its tools keep their schema tokens, and not otherwise', () => {
    const records: ToolRecord[] = [
      { id: 'search', namespace: 'core', schemaTokens: 40 },
      { id: EVIL, namespace: 'evil', idOnly: true },
      { id: 'unused', namespace: 'core', schemaTokens: 25 },
    ];
    expect(reportAudit({ cases, tools: records })).toEqual(audit(cases, tools));
    expect(reportAudit({ cases, tools: records.map(({ schemaTokens: _, ...r }) => r) })).toBeUndefined();
    expect(reportAudit({ cases: cases.map(({ calls: _, ...c }) => c), tools: records })).toBeUndefined();
  });

  it('escapes tool ids, shows unknown tokens as n/a, and writes the same line into summary.md', async () => {
    const { input } = tinyInput();
    const run = await runEval(input, makeConfig(['bm25'], [1, 5], { bm25: null }, null, false, []));
    const a = audit(cases, tools);
    const html = htmlReport(run.results, { toolUse: a });
    const section = html.slice(html.indexOf('<section id="tool-use">'), html.indexOf('</section>', html.indexOf('<section id="tool-use">')));
    expect(section).toContain('mcp__evil__&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(section).not.toContain('<script>alert(1)');
    expect(section).toContain('title="not applicable: known by its id only (no definition)"');
    expect(section).toContain('dropping the 1 never-called tools saves 25 tokens per request (38.5% of the 65-token eager listing)');
    expect(html).toContain('id="chart-data-tool-use"');
    expect(htmlReport(run.results, {})).not.toContain('<section id="tool-use">');
    expect(markdownSummary(run.results, { toolUse: a })).toContain(
      '**Tool use:** 2 of 3 tools called in 2 requests; dropping the 1 never-called tools saves 25 tokens per request',
    );
  });

  it('draws the called tools and the never-called ones on the floor, at most MAX_POINTS a series, leaving out tools of unknown tokens', () => {
    const many: AuditTool[] = Array.from({ length: MAX_POINTS + 10 }, (_, i) => ({ id: `t${i}`, namespace: 'x', schemaTokens: 10 + i }));
    const spec = toolUseChart(audit([{ id: 'c', request: 'r', expectedTools: ['t0'], slices: [], calls: ['t0', 't1'] }], many), 'ds')!;
    const [called, never] = spec.config.data.datasets as Array<{ data: Array<{ x: number; y: number }> }>;
    expect(called!.data).toEqual([
      { x: 10, y: 1 },
      { x: 11, y: 1 },
    ]);
    expect(never!.data).toHaveLength(MAX_POINTS);
    expect(never!.data[0]).toEqual({ x: 10 + MAX_POINTS + 9, y: 0 }); // the largest first
    expect(spec.caption).toContain(`At most ${MAX_POINTS.toLocaleString('en-US')} points a series`);
    expect(toolUseChart(audit(cases, [{ id: EVIL, namespace: 'evil', schemaTokens: null }]), 'ds')).toBeUndefined();
  });
});
