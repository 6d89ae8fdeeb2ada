/**
 * A report format a user could add to Backpack: one tab-separated line per retriever with its
 * overall recall@k. One file; to register it, add one entry to REPORT_FORMAT_TABLE in
 * src/report/formats.ts (see CONTRIBUTING.md). test/examples.test.ts registers it at run time and
 * writes it through the report, so this example keeps working.
 */
import type { Results } from '../src/eval/results.ts';

export function tsvReport(results: Results): string {
  const ks = results.config.ks;
  const header = ['retriever', ...ks.map((k) => `recall@${k}`)].join('\t');
  const rows = Object.entries(results.retrievers).map(([name, r]) => [name, ...ks.map((k) => r.metrics.overall[`recall@${k}`]?.toFixed(3) ?? '')].join('\t'));
  return `${[header, ...rows].join('\n')}\n`;
}
