/**
 * The contract every registered report format must keep. Parametrised over the registry, so a
 * format added to `REPORT_FORMAT_TABLE` (`src/report/formats.ts`) is tested here without further
 * edits: written alone, it writes exactly the files it declares, none empty, and the README names
 * it and its files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeConfig, runEval, type EvalRun } from '../../src/eval/run.ts';
import { parseFormats, REPORT_FORMATS, reportFormats, writeReportFormats } from '../../src/report/formats.ts';
import { PACKAGE_ROOT } from '../../src/util/version.ts';
import { inputError, tempDir, tinyInput } from '../helpers.ts';

const { input } = tinyInput(3);
let run: EvalRun;
beforeAll(async () => {
  run = await runEval(input, makeConfig(['bm25'], [1, 5], { bm25: null }, null));
});

/** A declared file name as a pattern (`<chart>` is any chart id). */
const pattern = (file: string) => new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<chart>', '[a-z0-9-]+')}$`);

describe.each(reportFormats.names())('report format %s', (name) => {
  const format = reportFormats.require(name);

  it('writes exactly the files it declares, none of them empty, and nothing else', () => {
    const out = tempDir(`format-${name}`);
    const files = writeReportFormats(run, out, [name], { cases: input.cases, catalog: input.catalog });
    expect(files.length).toBeGreaterThan(0);
    expect([...files].sort()).toEqual(readdirSync(out).sort());
    for (const f of files) {
      expect(
        format.files.some((d) => pattern(d).test(f)),
        `${f} is not among ${format.files.join(', ')}`,
      ).toBe(true);
      expect(statSync(join(out, f)).size, f).toBeGreaterThan(0);
    }
    for (const d of format.files)
      expect(
        files.some((f) => pattern(d).test(f)),
        `no ${d} written`,
      ).toBe(true);
  });

  it('is documented: the README names it among the report formats and names its fixed files', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const formatsLine = /backpack report RESULTS_DIR \[--format ([a-z,]+)\]/.exec(readme);
    expect(formatsLine?.[1]?.split(',')).toContain(name);
    for (const d of format.files) if (!d.includes('<')) expect(readme).toContain(`\`${d}\``);
    expect(format.description.length).toBeGreaterThan(10);
  });
});

describe('report format lists', () => {
  it('parses a list in the order given and keeps the errors of --format', () => {
    expect(parseFormats('md, html')).toEqual(['md', 'html']);
    expect(inputError(() => parseFormats(' , ')).describe('cli')).toBe(`--format: name at least one of ${REPORT_FORMATS.join(', ')}`);
    expect(inputError(() => parseFormats('html,pdf')).describe('cli')).toBe(`--format: unknown format "pdf"; formats: ${REPORT_FORMATS.join(', ')}`);
    expect(inputError(() => parseFormats('md,md')).message).toBe('format: "md" is listed twice');
  });

  it('writes the formats asked for in table order, the summary linking the HTML report only when it is written', () => {
    const both = tempDir('format-order');
    const files = writeReportFormats(run, both, ['md', 'html'], {});
    expect(files).toEqual(['report.html', 'summary.md']);
    expect(readFileSync(join(both, 'summary.md'), 'utf8')).toContain('report.html');
    const alone = tempDir('format-md');
    writeReportFormats(run, alone, ['md'], {});
    expect(readFileSync(join(alone, 'summary.md'), 'utf8')).not.toContain('report.html');
  });
});
