/**
 * `backpack report`: read a results folder (results.json and the per-case details) and write the
 * formats a person looks at, into one folder, atomically per file:
 *   report.html     one self-contained file (chart.js inlined, no network)
 *   <chart>.png     one PNG per chart, 1600×900, white background
 *   summary.md      a compact Markdown summary for $GITHUB_STEP_SUMMARY or a PR comment
 *   junit.xml       one test suite per strategy, one test case per checked metric (skipped, with
 *                   the reason, where the figure does not apply; see junit.ts)
 * Reporters read results (never a retriever or a dataset): the request texts and gold tools of the
 * worst misses come from the results folder's `cases.jsonl` and `tools.jsonl`.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { InputError } from '../util/errors.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import type { EvalRun } from '../eval/run.ts';
import type { ToolRecord } from '../eval/case-records.ts';
import { htmlReport } from './html.ts';
import { junitXml } from './junit.ts';
import { markdownSummary } from './markdown.ts';
import { writePngs } from './png.ts';
import { failpoint } from '../util/failpoint.ts';

/** The formats `backpack report` writes: the HTML report, PNG charts, a Markdown summary, JUnit XML. */
export const REPORT_FORMATS = ['html', 'png', 'md', 'junit'] as const;
/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Parse `--format html,png,…`; an unknown or repeated format is an InputError. */
export function parseFormats(list: string): ReportFormat[] {
  const names = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!names.length) throw new InputError(`--format: name at least one of ${REPORT_FORMATS.join(', ')}`);
  const out: ReportFormat[] = [];
  for (const n of names) {
    if (!(REPORT_FORMATS as readonly string[]).includes(n)) throw new InputError(`--format: unknown format "${n}"; formats: ${REPORT_FORMATS.join(', ')}`);
    if (out.includes(n as ReportFormat)) throw new InputError(`--format: "${n}" is listed twice`);
    out.push(n as ReportFormat);
  }
  return out;
}

/**
 * What a report shows beyond the results: the scored cases (request texts, gold tools) and either the
 * catalog or the tool records a results folder keeps (`tools.jsonl`), for the worst misses.
 */
export interface ReportInput {
  cases?: readonly Case[];
  catalog?: Catalog;
  tools?: readonly ToolRecord[];
}

/** What `writeReport` wrote: the folder, the files in it, and the HTML report's path when one was written. */
export interface WrittenReport {
  dir: string;
  files: string[];
  html?: string;
}

/**
 * Write the report of `run` into `dir` in `formats`; returns the files written (relative to `dir`).
 * Each file is written atomically (a temporary sibling, renamed; removed when writing fails). A
 * `dir` that is a file is refused (`InputError`); a folder this call created is removed again when
 * the report fails, so a failed report leaves no empty folder behind.
 */
export function writeReport(run: EvalRun, dir: string, formats: readonly ReportFormat[], data: ReportInput = {}): WrittenReport {
  const out = resolve(dir);
  if (existsSync(out) && !statSync(out).isDirectory()) throw new InputError('is a file, not a folder: give the report a folder to write into', { file: out });
  const created = !existsSync(out);
  try {
    return writeReportFiles(run, out, formats, data);
  } catch (err) {
    if (created) rmSync(out, { recursive: true, force: true });
    throw err;
  }
}

function writeReportFiles(run: EvalRun, out: string, formats: readonly ReportFormat[], data: ReportInput): WrittenReport {
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  if (formats.includes('html')) {
    writeFileAtomic(join(out, 'report.html'), htmlReport(run.results, { details: run.details, ...(data.cases ? { cases: [...data.cases] } : {}), ...(data.catalog ? { catalog: data.catalog } : data.tools ? { catalog: { tools: data.tools } } : {}) }));
    files.push('report.html');
    failpoint('report');
  }
  if (formats.includes('png')) files.push(...writePngs(run.results, out));
  if (formats.includes('md')) {
    writeFileAtomic(join(out, 'summary.md'), markdownSummary(run.results, formats.includes('html') ? { reportPath: 'report.html' } : {}));
    files.push('summary.md');
  }
  if (formats.includes('junit')) {
    writeFileAtomic(join(out, 'junit.xml'), junitXml(run.results));
    files.push('junit.xml');
  }
  return { dir: out, files, ...(formats.includes('html') ? { html: join(out, 'report.html') } : {}) };
}
