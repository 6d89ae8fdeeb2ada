/**
 * A registry change that removes a tool some cases expect (issue 32): on a real 27-tool bundle,
 * `eval` scores those cases as misses instead of refusing the run, names the removed tool in its
 * warnings and in `dataset.goldRemoved`, the reports list it, and `gate` gives a verdict (0 or 100,
 * never 2) on the same cases file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../src/eval/results.ts';
import { runCli, tempDir } from './helpers.ts';

const tmp = tempDir('removals');
const BUNDLE = join('fixtures', 'catalogs', 'mcp-real-bundle.json');
const REMOVED = 'mcp__github__list_commits';
const STRATEGIES = ['--retrievers', 'bm25', '--profiles', 'static,codex,claude-code,hermes,deferred'];

const CASES = [
  { id: 'commits', request: 'show me the latest commits on the main branch of our repository', expectedTools: [REMOVED] },
  { id: 'commits-2', request: 'list the commits pushed to the release branch this week', expectedTools: [REMOVED, 'mcp__github__list_branches'] },
  { id: 'file', request: 'open the README file in the github repository', expectedTools: ['mcp__github__get_file_contents'] },
  { id: 'tables', request: 'which tables are in the sqlite database', expectedTools: ['mcp__sqlite__list-tables'] },
  { id: 'thanks', request: 'thanks, that is all for today', expectedTools: [] },
];

const results = (dir: string): Results => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;

describe('a registry change that removes a tool the cases expect', () => {
  const casesFile = join(tmp, 'cases.jsonl');
  const after = join(tmp, 'after.json');
  const base = join(tmp, 'base');
  const head = join(tmp, 'head');
  const expected = join(tmp, 'expected.yaml');

  beforeAll(async () => {
    writeFileSync(casesFile, `${CASES.map((c) => JSON.stringify(c)).join('\n')}\n`);
    const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as { servers: Array<{ name: string; tools: Array<{ name: string }> }> };
    for (const s of bundle.servers) if (s.name === 'github') s.tools = s.tools.filter((t) => t.name !== 'list_commits');
    writeFileSync(after, JSON.stringify(bundle));
    const b = await runCli('eval', '--catalog', BUNDLE, '--cases', casesFile, ...STRATEGIES, '--out', base, '--quiet');
    expect(b.code, b.err).toBe(0);
    expect((await runCli('bless', '--results', base, '--expect', expected, '--reason', 'before the removal')).code).toBe(0);
  }, 120_000);

  it('eval scores the cases as misses (exit 0), warns naming the tool and its cases, and records goldRemoved', async () => {
    const r = await runCli('eval', '--catalog', after, '--cases', casesFile, ...STRATEGIES, '--out', head, '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`2 cases expect 1 tool the catalog does not have (removed or renamed): "${REMOVED}" (2 cases: commits, commits-2)`);
    const h = results(head);
    expect(h.dataset.goldRemoved).toEqual({ [REMOVED]: ['commits', 'commits-2'] });
    expect(h.warnings!.some((w) => w.includes(REMOVED))).toBe(true);
    expect(results(base).dataset.goldRemoved).toBeUndefined();
    // the same cases: a gate and a comparison can pair them
    expect(h.dataset.casesSha256).toBe(results(base).dataset.casesSha256);
    // scored as misses: the removed tool is never ranked, so "commits" has recall 0 for every strategy
    for (const name of ['bm25', 'codex', 'claude-code', 'hermes', 'deferred']) {
      const details = readFileSync(join(head, 'details', `${name}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { caseId: string; ranked: Array<[string, number]> });
      for (const d of details)
        expect(
          d.ranked.map(([id]) => id),
          name,
        ).not.toContain(REMOVED);
    }
    // the reports list it
    const rep = await runCli('report', head, '--out', join(head, 'report'), '--format', 'html,md,junit');
    expect(rep.code, rep.err).toBe(0);
    const md = readFileSync(join(head, 'report', 'summary.md'), 'utf8');
    expect(md).toContain(
      `**Gold tools not in the catalog** (removed or renamed; their cases are scored as misses): \`${REMOVED}\` (2 cases: commits, commits-2).`,
    );
    expect(readFileSync(join(head, 'report', 'report.html'), 'utf8')).toContain(`<li><code>${REMOVED}</code>: 2 cases: commits, commits-2</li>`);
    expect(readFileSync(join(head, 'report', 'junit.xml'), 'utf8')).toContain(`<property name="goldRemoved.${REMOVED}" value="2 cases: commits, commits-2"/>`);
  });

  it('gate gives a verdict on it (not exit 2), naming the removed tool; the comparison pairs the runs', async () => {
    const g = await runCli('gate', '--expect', expected, '--results', head, '--baseline', base);
    expect([0, 100], g.err).toContain(g.code);
    expect(`${g.out}${g.err}`).toContain(REMOVED);
    const c = await runCli('report', base, head, '--out', join(tmp, 'compare'));
    expect(c.code, c.err).toBe(0);
  });

  it('--renames maps the gold of a renamed tool: scored on the new id, reported, and still paired with the base run by gate and report', async () => {
    const renamedBundle = join(tmp, 'renamed.json');
    const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as { servers: Array<{ name: string; tools: Array<{ name: string }> }> };
    for (const s of bundle.servers) for (const t of s.tools) if (s.name === 'github' && t.name === 'list_commits') t.name = 'list_commits_v2';
    writeFileSync(renamedBundle, JSON.stringify(bundle));
    // diff detects the rename (same server, same input schema, same description) and writes it for eval
    const detected = join(tmp, 'detected.json');
    const d = await runCli('diff', '--old', BUNDLE, '--new', renamedBundle, '--cases', casesFile, '--renames-out', detected, '--quiet');
    expect(d.code).toBe(100);
    expect(d.out).toContain(`review required: ${REMOVED} was renamed to ${REMOVED}_v2 (likely): the labelled tool of 2 cases`);
    expect(d.out).toContain(`↔ ${REMOVED} → ${REMOVED}_v2 (github: same input schema, descriptions 1.00 alike; eval --renames maps its cases)`);
    expect(JSON.parse(readFileSync(detected, 'utf8'))).toEqual({ [REMOVED]: `${REMOVED}_v2` });
    // a removal is no rename
    const gone = join(tmp, 'gone.json');
    const removal = await runCli('diff', '--old', BUNDLE, '--new', after, '--cases', casesFile, '--renames-out', gone, '--quiet');
    expect(JSON.parse(readFileSync(gone, 'utf8'))).toEqual({});
    // a removed tool that cases name as their answer needs a review, named
    expect(removal.code).toBe(100);
    expect(removal.out).toContain(`review required: ${REMOVED} was removed: the labelled tool of 2 cases`);
    const renames = join(tmp, 'renames.csv');
    writeFileSync(renames, `old,new\n${REMOVED},${REMOVED}_v2\n`);
    const out = join(tmp, 'renamed-run');
    const r = await runCli('eval', '--catalog', renamedBundle, '--cases', casesFile, '--renames', renames, ...STRATEGIES, '--out', out, '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`--renames: 1 renamed gold tool mapped to the new id: "${REMOVED}" → "${REMOVED}_v2" (2 cases)`);
    expect(r.err).not.toContain('the catalog does not have');
    const h = results(out);
    expect(h.dataset.goldRenamed).toEqual({ [REMOVED]: { to: `${REMOVED}_v2`, cases: ['commits', 'commits-2'] } });
    expect(h.dataset.goldRemoved).toBeUndefined();
    // the cases as given: the same hash as the base run's, so the gate pairs them
    expect(h.dataset.casesSha256).toBe(results(base).dataset.casesSha256);
    // scored on the new id: bm25 finds it for "commits" as it found the old one
    const top = (dir: string) =>
      readFileSync(join(dir, 'details', 'bm25.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { caseId: string; ranked: Array<[string, number]> })
        .find((d) => d.caseId === 'commits')!
        .ranked.map(([id]) => id);
    expect(top(out)).toContain(`${REMOVED}_v2`);
    expect(top(base)).toContain(REMOVED);
    const g = await runCli('gate', '--expect', expected, '--results', out, '--baseline', base);
    expect([0, 100], g.err).toContain(g.code);
    expect(g.err).toContain(`${REMOVED}" → "${REMOVED}_v2`);
    const c = await runCli('report', base, out, '--out', join(tmp, 'compare-renamed'));
    expect(c.code, c.err).toBe(0);
    const rep = await runCli('report', out, '--out', join(out, 'report'), '--format', 'md,junit');
    expect(rep.code, rep.err).toBe(0);
    expect(readFileSync(join(out, 'report', 'summary.md'), 'utf8')).toContain(`\`${REMOVED}\` → \`${REMOVED}_v2\` (2 cases: commits, commits-2)`);
    // a rename to a tool the catalog does not have is bad input, naming it
    writeFileSync(renames, `old,new\n${REMOVED},mcp__github__nope\n`);
    const bad = await runCli(
      'eval',
      '--catalog',
      renamedBundle,
      '--cases',
      casesFile,
      '--renames',
      renames,
      '--retrievers',
      'bm25',
      '--out',
      join(tmp, 'bad'),
      '--quiet',
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/renames: "mcp__github__list_commits" → "mcp__github__nope", which the catalog does not have/);
  });

  it('a cases file naming a tool no catalog has still loads; a hand-made typo is named with a suggestion', async () => {
    const typo = join(tmp, 'typo.jsonl');
    writeFileSync(typo, `${JSON.stringify({ id: 't', request: 'list the tables', expectedTools: ['mcp__sqlite__list-tabels'] })}\n`);
    const r = await runCli('eval', '--catalog', BUNDLE, '--cases', typo, '--retrievers', 'bm25', '--out', join(tmp, 'typo'), '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.err, r.err).toMatch(/"mcp__sqlite__list-tabels" \(1 case: t\) \(did you mean mcp__sqlite__list-tables, /);
  });
});
