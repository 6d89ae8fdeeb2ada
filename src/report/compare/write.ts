/**
 * Write a comparison report (`backpack report BASE HEAD …`) into a folder: `report.html`, and with
 * the Markdown `summary.md` (every figure, every changed case) and `comment.md` (only what moved,
 * for a pull-request comment), each atomically. PNG charts and JUnit
 * describe one run: `backpack report HEAD` writes them.
 */

import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.ts';
import { writeFolderWhole } from '../../util/replace-dir.ts';
import { reportLink } from '../markdown.ts';
import { assertReportFolder, markReportFolder } from '../report-folder.ts';
import { explorerData } from '../explorer.ts';
import { comparisonHtml } from './html.ts';
import { comparisonComment } from './comment.ts';
import { comparisonMarkdown } from './markdown.ts';
import { type ComparedRun, compareRuns } from './model.ts';

/** The formats a comparison writes. */
export const COMPARISON_FORMATS = ['html', 'md'] as const;

export interface ComparisonOptions {
  title?: string;
  /** Where the HTML will be (an uploaded artifact's URL): summary.md links to it. */
  reportUrl?: string;
}

/** Compare `runs` (the first is the base) and write the formats of `formats` it has into `dir`; returns the files written. */
export function writeComparison(
  runs: readonly ComparedRun[],
  dir: string,
  formats: readonly string[],
  opts: ComparisonOptions = {},
): { dir: string; files: string[] } {
  const comparison = compareRuns(runs);
  const target = resolve(dir);
  assertReportFolder(target);
  // written beside it, then swapped in (as writeReport does); left as it was when writing fails
  const files = writeFolderWhole(target, (out) => {
    const written: string[] = [];
    const title = opts.title !== undefined ? { title: opts.title } : {};
    if (formats.includes('html')) {
      // the case explorer over every case, every strategy, every run: tool summaries from the last run's records (then the others')
      const tools = new Map<string, ComparedRun['tools'][number]>();
      for (const r of [...runs].reverse())
        for (const t of r.tools) if (!tools.has(t.id) || (t.summary !== undefined && tools.get(t.id)!.summary === undefined)) tools.set(t.id, t);
      const explorer = explorerData(
        runs.map((r) => ({ label: r.label, results: r.run.results, details: r.run.details })),
        runs[0]!.cases,
        [...tools.values()],
      );
      writeFileAtomic(join(out, 'report.html'), comparisonHtml(comparison, { ...title, explorer }));
      written.push('report.html');
    }
    if (formats.includes('md')) {
      const link = opts.reportUrl ?? (formats.includes('html') ? 'report.html' : undefined);
      writeFileAtomic(join(out, 'summary.md'), comparisonMarkdown(comparison, { ...title, ...(link ? { reportLink: reportLink(link) } : {}) }));
      written.push('summary.md');
      // a comment links only to where the HTML will be (a URL): a local path means nothing on a pull request
      writeFileAtomic(join(out, 'comment.md'), comparisonComment(comparison, opts.reportUrl ? { reportLink: reportLink(opts.reportUrl) } : {}));
      written.push('comment.md');
    }
    markReportFolder(out);
    return written;
  });
  return { dir: target, files };
}
