/**
 * The folder a report (or a comparison) is written into: Backpack writes its files there one by
 * one, so the folder must be one it may write in. Absent, empty, or a folder a report was written
 * into before (its marker file, or the HTML report of an earlier version), and never the file
 * system's root, a folder holding the working folder, a results folder it reads, or a folder the
 * results folder holds (its `details/`): a report there would mix its files into someone's folder
 * or into the results.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { InputError } from '../util/errors.ts';
import { checkOutputFolder, isWithin } from '../util/output-path.ts';
import { recoverInterrupted } from '../util/replace-dir.ts';

/** The marker file every report folder gets: a folder without it (or an older report) is not replaced. */
export const REPORT_MARKER = '.backpack-report';

/** True when `dir` holds a report Backpack wrote: the marker, or (before the marker) a report.html Backpack generated. */
export function isReportDir(dir: string): boolean {
  if (existsSync(join(dir, REPORT_MARKER))) return true;
  const html = join(dir, 'report.html');
  if (!existsSync(html) || !statSync(html).isFile()) return false;
  const fd = openSync(html, 'r');
  try {
    const head = Buffer.alloc(2048);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).toString('utf8').includes('<meta name="generator" content="Backpack ');
  } finally {
    closeSync(fd);
  }
}

/**
 * Throw an `InputError` unless a report may be written into `out` (see the module comment);
 * `results`: the results folders the report reads (a report may go into a new folder inside one, as
 * the default `<results>/report` does, never into the folder itself or one of its own).
 */
export function assertReportFolder(out: string, results: readonly string[] = []): void {
  const target = resolve(out);
  checkOutputFolder(target, 'report');
  recoverInterrupted(target); // a swap a kill interrupted: put back
  for (const r of results) {
    if (!isWithin(target, r)) continue;
    const inside = relative(resolve(r), target);
    const first = inside.split(sep)[0] ?? '';
    if (inside === '' || (existsSync(join(resolve(r), first)) && !isReportDir(join(resolve(r), first))))
      throw new InputError(
        `is ${inside === '' ? 'the results folder the report reads' : `inside the results folder ${r}, in its own ${first}`}; write the report into a folder of its own (default: ${join(r, 'report')})`,
        { file: out },
      );
  }
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new InputError('is a file, not a folder: give the report a folder to write into', { file: out });
  if (readdirSync(target).length > 0 && !isReportDir(target))
    throw new InputError(`folder exists, is not empty and does not hold a Backpack report (no ${REPORT_MARKER}); refusing to write into it`, { file: out });
}

/** Mark `dir` as a report folder (after its files are written). */
export function markReportFolder(dir: string): void {
  writeFileAtomic(join(dir, REPORT_MARKER), 'A report Backpack wrote (backpack report). A folder without this file is never written into by a report.\n');
}
