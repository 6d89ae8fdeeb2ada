import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { diffCatalogs, diffJson } from './diff.ts';
import { formatDiffMarkdown, formatDiffText, terminalSafe } from './format.ts';

const evil = 'refund the \u001b[31mlast\u001b[0m invoice\n| <img src=x onerror=alert(1)> [x](javascript:1) \u202Eexe';
const tool = (name: string, description: string) => makeTool({ name, source: 'mcp', server: 'billing', summary: description, description });
const old: Catalog = { tools: [tool('refund_invoice', 'Refund an invoice.'), tool('list_invoices', 'List invoices.')], skills: [], servers: [], plugins: [] };
const next: Catalog = { ...old, tools: [...old.tools, tool('refund_last_invoice', `Refund the last invoice. ${evil}`)] };
const cases: Case[] = [{ id: 'c1', request: evil, expectedTools: ['mcp__billing__refund_invoice'], slices: [] }];

describe('diff formatting of untrusted text', () => {
  it('strips terminal control characters and keeps one line per entry', async () => {
    expect(terminalSafe('a\u001b[2Jb\r\nc\u0007\u202Ed\te')).toBe('a[2Jb cd e');
    const { report } = await diffCatalogs(
      { old: { label: 'old', catalog: old }, new: { label: 'new', catalog: next }, cases, casesFrom: 'test' },
      { cacheDir: null },
    );
    expect(report.takeovers[0]).toMatchObject({ winner: 'mcp__billing__refund_last_invoice', displaced: 'mcp__billing__refund_invoice', goldLost: 1 });
    const text = formatDiffText(report);
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
    expect(text).toMatch(/c1 "refund the \[31mlast\[0m invoice \| <img/);
    const md = formatDiffMarkdown(report);
    expect(md).not.toContain('<img');
    expect(md).not.toContain('](javascript');
    expect(md).toContain('&lt;img');
    // tool ids are code spans, not escaped text
    expect(md).toContain('`mcp__billing__refund_last_invoice`');
    expect(md).not.toContain('mcp\\_\\_billing');
    expect(md).not.toMatch(/[\u001b\u202E]/);
    // JSON keeps the text as it is (escaped by JSON itself).
    expect(JSON.parse(diffJson(report)).takeovers[0].examples[0].request).toBe(evil);
  });
});
