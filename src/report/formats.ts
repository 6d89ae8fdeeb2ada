/**
 * The one table of report formats `backpack report --format` writes, in the order they are
 * written: each format's description, the files it writes into the report folder and how. A format
 * is one module rendering results (`html.ts`, `png.ts`, …) plus one entry here; the shared
 * contract test (`test/contract/report-format.contract.test.ts`) writes every registered format
 * and checks it writes exactly the files it declares, which the README names.
 */
import { join } from 'node:path';
import type { CaseRecord as Case } from '../eval/case-records.ts';
import type { AuditedCatalog } from '../eval/audit.ts';
import type { ToolRecord } from '../eval/case-records.ts';
import type { Audit } from '../eval/audit.ts';
import type { EvalRun } from '../eval/run.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { InputError, setting } from '../util/errors.ts';
import { failpoint } from '../util/failpoint.ts';
import { Registry } from '../util/registry.ts';
import type { ChartSpec } from './charts.ts';
import { htmlReport } from './html.ts';
import { type Check, defaultChecks, junitXml } from './junit.ts';
import { markdownSummary } from './markdown.ts';
import { writePngs } from './png.ts';
import { reportAudit, toolUseChart } from './tool-use.ts';

/** What a format writes from: the run, the report folder (it exists) and the formats being written. */
export interface ReportJob {
  run: EvalRun;
  out: string;
  formats: readonly string[];
  /** The scored cases and the catalog or tool records, when given (request texts and gold tools in the worst misses). */
  data: ReportInput;
  /** How the report is titled and linked (`--title`, `--report-url`, `--min-cases`). */
  options?: ReportOptions;
  /** What the scored cases' agents called, when they record calls (tool-use.ts). */
  audit?: Audit;
}

/** What `backpack report` lets a user set about the report itself. */
export interface ReportOptions {
  /** The report's title (default: "Backpack report — <dataset>"). */
  title?: string;
  /** Where the HTML will be once uploaded (a CI artifact's URL): `summary.md` links to it instead of naming `report.html`. */
  reportUrl?: string;
  /** Slices and namespaces with fewer cases are greyed in the tables and never listed as worst (default {@link DEFAULT_MIN_CASES}). */
  minCases?: number;
  /** Thresholds beyond the scope-leak gate (`--fail-below`, `--fail-above`): each a JUnit test case that fails when missed. */
  checks?: readonly Check[];
  /** Charts over the runs of a results history (`--history FILE`), for the HTML's History section. */
  history?: readonly ChartSpec[];
}

/** Default `--min-cases`: a slice or namespace with fewer cases is shown greyed, its figures too uncertain to rank. */
export const DEFAULT_MIN_CASES = 10;

/**
 * What a report shows beyond the results: the scored cases (request texts, gold tools) and either the
 * catalog or the tool records a results folder keeps (`tools.jsonl`), for the worst misses.
 */
export interface ReportInput {
  cases?: readonly Case[];
  /** The catalog (a `Catalog` is one): tool texts for the worst misses and the explorer, definitions for the Tool use section. */
  catalog?: AuditedCatalog;
  tools?: readonly ToolRecord[];
}

/** An entry of the report-format registry. */
export interface ReportFormatEntry {
  /** One line for `--help` and the docs. */
  description: string;
  /** The files it writes into the report folder; `<chart>` stands for each chart's id. */
  files: readonly string[];
  /** Write its files into `job.out`, each atomically; returns their names, in order. */
  write(job: ReportJob): string[];
}

/** Write `text` as `file` into the report folder, atomically; returns `[file]`. */
export function writeReportFile(job: ReportJob, file: string, text: string): string[] {
  writeFileAtomic(join(job.out, file), text);
  return [file];
}

export const REPORT_FORMAT_TABLE = {
  html: {
    description: 'one self-contained file (chart.js inlined, no network)',
    files: ['report.html'],
    write: (job: ReportJob) => {
      const { cases, catalog, tools } = job.data;
      const known = catalog ?? (tools ? { tools } : undefined);
      const files = writeReportFile(
        job,
        'report.html',
        htmlReport(job.run.results, {
          details: job.run.details,
          ...(cases ? { cases: [...cases] } : {}),
          ...(known ? { catalog: known } : {}),
          ...(job.options?.title !== undefined ? { title: job.options.title } : {}),
          minCases: job.options?.minCases ?? DEFAULT_MIN_CASES,
          ...(job.options?.history ? { history: job.options.history } : {}),
          ...(job.audit ? { toolUse: job.audit } : {}),
        }),
      );
      failpoint('report');
      return files;
    },
  },
  png: {
    description: 'two PNGs per chart, white background: 1600×900, and @2x (3200×1800) for slides',
    files: ['<chart>.png', '<chart>@2x.png'],
    write: (job: ReportJob) => {
      const chart = job.audit ? toolUseChart(job.audit, job.run.results.dataset.name) : undefined;
      return writePngs(job.run.results, job.out, undefined, chart ? [chart] : []);
    },
  },
  md: {
    description: 'a compact Markdown summary for $GITHUB_STEP_SUMMARY or a PR comment',
    files: ['summary.md'],
    write: (job: ReportJob) =>
      writeReportFile(
        job,
        'summary.md',
        markdownSummary(job.run.results, {
          ...(job.options?.reportUrl !== undefined ? { reportPath: job.options.reportUrl } : job.formats.includes('html') ? { reportPath: 'report.html' } : {}),
          ...(job.options?.title !== undefined ? { title: job.options.title } : {}),
          minCases: job.options?.minCases ?? DEFAULT_MIN_CASES,
          ...(job.audit ? { toolUse: job.audit } : {}),
        }),
      ),
  },
  junit: {
    description:
      'one test suite per strategy: a test case per threshold (scope leaks 0, --fail-below/--fail-above rules), the figures and their 95% intervals as properties',
    files: ['junit.xml'],
    write: (job: ReportJob) =>
      writeReportFile(job, 'junit.xml', junitXml(job.run.results, [...defaultChecks(job.run.results), ...(job.options?.checks ?? [])])),
  },
} as const satisfies Record<string, ReportFormatEntry>;

/** The name of a report format (`--format`). */
export type ReportFormat = keyof typeof REPORT_FORMAT_TABLE;

/** Every report format's name, in the order they are written. */
export const REPORT_FORMATS: readonly ReportFormat[] = Object.keys(REPORT_FORMAT_TABLE) as ReportFormat[];

export const reportFormats = new Registry<ReportFormatEntry>(REPORT_FORMAT_TABLE, {
  kind: 'report format',
  unknown: (name, names) => new InputError(`${setting('format')}: unknown format "${name}"; formats: ${names.join(', ')}`),
  empty: (names) => `${setting('format')}: name at least one of ${names.join(', ')}`,
  twice: (name) => `${setting('format')}: "${name}" is listed twice`,
});

/** Parse `--format html,png,…`; an unknown or repeated format is an InputError. */
export function parseFormats(list: string): ReportFormat[] {
  return reportFormats.parseList(list) as ReportFormat[];
}

/** Write `formats` of the run into `out` (an existing folder) in table order; the files written, in order. */
export function writeReportFormats(run: EvalRun, out: string, formats: readonly string[], data: ReportJob['data'], options: ReportOptions = {}): string[] {
  const audit = reportAudit(data);
  const job: ReportJob = { run, out, formats, data, options, ...(audit ? { audit } : {}) };
  return reportFormats.entries().flatMap(([name, format]) => (formats.includes(name) ? format.write(job) : []));
}
