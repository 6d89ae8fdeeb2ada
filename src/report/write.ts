/**
 * `backpack report`: read a results folder (results.json and the per-case details) and write the
 * formats a person looks at, into one folder, swapped in whole:
 *   report.html     one self-contained file (chart.js inlined, no network)
 *   <chart>.png     one PNG per chart, 1600×900, white background; <chart>@2x.png the same at 3200×1800
 *   summary.md      a compact Markdown summary for $GITHUB_STEP_SUMMARY or a PR comment
 *   junit.xml       one test suite per strategy, one test case per checked metric (skipped, with
 *                   the reason, where the figure does not apply; see junit.ts)
 * Reporters read results (never a retriever or a dataset): the request texts and gold tools of the
 * worst misses come from the results folder's `cases.jsonl` and `tools.jsonl`.
 */
import { join, resolve } from 'node:path';
import type { EvalRun } from '../eval/run.ts';
import { writeReportFormats, type ReportFormat, type ReportInput, type ReportOptions } from './formats.ts';
import { writeFolderWhole } from '../util/replace-dir.ts';
import { assertReportFolder, markReportFolder } from './report-folder.ts';

export { DEFAULT_MIN_CASES, parseFormats, REPORT_FORMATS, type ReportFormat, type ReportInput, type ReportOptions } from './formats.ts';

/** What `writeReport` wrote: the folder, the files in it, and the HTML report's path when one was written. */
export interface WrittenReport {
  dir: string;
  files: string[];
  html?: string;
}

/**
 * Write the report of `run` into `dir` in `formats`; returns the files written (relative to `dir`).
 * The folder is written whole beside `dir` and swapped in by renames, so `dir` holds the previous
 * report or this one, never a mix, and exactly this report's files (a folder reports were written
 * into before is replaced, never one that holds other files: `assertReportFolder`). When the
 * report fails, `dir` is left as it was and nothing is left beside it.
 */
export function writeReport(run: EvalRun, dir: string, formats: readonly ReportFormat[], data: ReportInput = {}, options: ReportOptions = {}): WrittenReport {
  const out = resolve(dir);
  assertReportFolder(out);
  // written beside it, then swapped in: a reader (or a kill) finds the previous report or this one, never a mix
  const files = writeFolderWhole(out, (tmp) => {
    const written = writeReportFormats(run, tmp, formats, data, options);
    markReportFolder(tmp);
    return written;
  });
  return { dir: out, files, ...(formats.includes('html') ? { html: join(out, 'report.html') } : {}) };
}
