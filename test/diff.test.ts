/**
 * `backpack diff` end to end on generated catalogs: an unchanged catalog exits 0, a tool that steals
 * another's cases is named with its victim and exits 100, a changed description is listed with its
 * field, near-duplicates get a "not for" suggestion, and the JSON is byte-identical run to run.
 */
import { Command, CommanderError } from 'commander';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { isInputError } from '../src/util/errors.ts';
import { makeTool } from '../src/catalog/model.ts';
import type { Catalog, Tool } from '../src/catalog/types.ts';
import { registerDiffCommand } from '../src/cli/diff.ts';
import { diffCatalogs, diffJson } from '../src/diff/diff.ts';
import { ReviewRequired } from '../src/diff/errors.ts';
import { contentWordForms } from '../src/diff/words.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { Policy } from '../src/retrievers/policy.ts';
import { createRetriever } from '../src/retrievers/registry.ts';
import { BACKPACK_BIN, FIXTURES, tempDir } from './helpers.ts';

const tmp = tempDir('diff');

/** The command as `main` runs it: ReviewRequired → its exit code (100), bad input → 2. */
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { out: (s: string) => (out += s), err: (s: string) => (err += s) };
  const program = new Command().exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  registerDiffCommand(program, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof ReviewRequired) {
      io.err(`${e.message}\n`);
      return { code: e.exitCode, out, err };
    }
    if (e instanceof CommanderError) return { code: e.exitCode === 0 ? 0 : 2, out, err };
    if (isInputError(e)) return { code: 2, out, err: err + e.describe('cli') };
    throw e;
  }
}

const g = generate(resolveParams('tiny', 5));
const { catalog, cases } = g.dataset;
function write(name: string, c: Catalog): string {
  const dir = join(tmp, name);
  writeDataset(dir, { ...g.dataset, catalog: c }, g.manifest);
  return dir;
}
const withTools = (tools: Tool[]): Catalog => ({ ...catalog, tools });
const copyOf = (t: Tool, name: string, description: string): Tool => {
  const { hash: _h, id: _i, ...rest } = t;
  return makeTool({ ...rest, name, ...(rest.title ? { title: `${rest.title} v2` } : {}), description });
};

/** The gold tool BM25 ranks first on most of its own cases, and those cases' requests. */
async function favourite(): Promise<{ tool: Tool; requests: string[] }> {
  const bm25 = createRetriever('bm25');
  await bm25.index(catalog);
  const policy = new Policy(catalog);
  const wins = new Map<string, string[]>();
  for (const c of cases) {
    if (c.expectedTools?.length !== 1 || c.callerScopes) continue;
    const top = (await policy.expose(bm25, c.request, {}, { depth: 1 })).ranked[0]?.id;
    if (top !== undefined && top === c.expectedTools[0]) wins.set(top, [...(wins.get(top) ?? []), c.request]);
  }
  const [id, requests] = [...wins].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0]!;
  return { tool: catalog.tools.find((t) => t.id === id)!, requests };
}

const oldDir = write('old', catalog);
const sameDir = write('same', withTools([...catalog.tools]));

describe('backpack diff', () => {
  it('(a) an unchanged catalog: exit 0, "no tool moved"', async () => {
    const r = await run('diff', '--old', oldDir, '--new', sameDir, '--quiet', '--no-cache');
    expect(r.code).toBe(0);
    expect(r.out).toContain('changes: 0 added, 0 removed, 0 changed');
    expect(r.out).toMatch(/no tool moved/);
    expect(r.out).toMatch(/new catalog: identical to the old catalog/);
  });

  it("(b) a new tool that steals an existing tool's cases: both named, exit 100", async () => {
    const { tool, requests } = await favourite();
    const words = [...contentWordForms(requests.join(' ')).values()].join(' ');
    const v2 = copyOf(tool, `${tool.name}_v2`, `${tool.description} ${words}`);
    expect(v2.id).toBe(`${tool.id}_v2`);
    const dir = write('steal', withTools([...catalog.tools, v2]));
    const r = await run('diff', '--old', oldDir, '--new', dir, '--quiet', '--no-cache');
    expect(r.code).toBe(100);
    const line = new RegExp(`new tool ${v2.id} took top-1 from ${tool.id} on (\\d+) cases? \\(${tool.id} was the labelled tool on (\\d+)\\)`);
    const m = line.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(Number(m![2]));
    expect(Number(m![2])).toBeGreaterThanOrEqual(1);
    expect(r.out).toContain(`+ ${v2.id} (${tool.namespace})`);
    expect(r.out).toMatch(new RegExp(`review required: .*${tool.id} lost top-1 as the labelled tool on \\d+ case`));
    expect(r.err).toMatch(/review required/);
    // Under a threshold above every loss, the same change passes.
    const j = JSON.parse((await run('diff', '--old', oldDir, '--new', dir, '--json', '--no-cache')).out);
    const worst = Math.max(...j.lostTop1.map((t: { lostTop1: number }) => t.lostTop1));
    const lenient = await run('diff', '--old', oldDir, '--new', dir, '--quiet', '--no-cache', '--threshold', String(worst + 1));
    expect(lenient.code).toBe(0);
    expect(lenient.out).toMatch(/no review required/);
    // The real process keeps its exit code when its reader closes the pipe early (`… | head`).
    const bin = BACKPACK_BIN;
    const piped = spawnSync(
      'bash',
      ['-o', 'pipefail', '-c', `"${process.execPath}" "${bin}" diff --old "${oldDir}" --new "${dir}" --quiet --no-cache | true`],
      { encoding: 'utf8' },
    );
    expect(piped.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(piped.status).toBe(100);
  });

  it('(c) a changed description is listed with the changed field', async () => {
    const i = catalog.tools.findIndex((t) => t.id === 'mcp__clickup__get_task');
    const tools = [...catalog.tools];
    tools[i] = makeTool({ ...tools[i]!, description: `${tools[i]!.description} Returns subtasks and checklists too.` });
    const dir = write('changed', withTools(tools));
    const r = await run('diff', '--old', oldDir, '--new', dir, '--json', '--no-cache');
    expect([0, 100]).toContain(r.code);
    const j = JSON.parse(r.out);
    expect(j.changes.changed).toEqual([
      { id: 'mcp__clickup__get_task', namespace: 'clickup', fields: ['description'], words: { added: ['subtasks', 'checklists'], removed: [] } },
    ]);
    expect(j.changes.added).toEqual([]);
    const text = await run('diff', '--old', oldDir, '--new', dir, '--quiet', '--no-cache');
    expect(text.out).toContain('~ mcp__clickup__get_task: description; words added: subtasks, checklists; removed: none');
  });

  it('(d) near-duplicates: a near copy is reported first with a "not for" suggestion, a distinct tool is not', async () => {
    const base = catalog.tools.find((t) => t.id === 'mcp__clickup__list_tasks')!;
    const copy = copyOf(base, 'list_archived_tasks', `${base.description} Archived.`);
    const distinct = makeTool({
      name: 'forecast_weather',
      source: 'mcp',
      server: 'clickup',
      summary: 'Weather.',
      description: 'Returns the seven-day weather forecast for a city.',
    });
    const dir = write('near', withTools([...catalog.tools, copy, distinct]));
    const out = join(tmp, 'near-out');
    const r = await run('diff', '--old', oldDir, '--new', dir, '--quiet', '--no-cache', '--out', out);
    expect([0, 100]).toContain(r.code);
    const j = JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8'));
    expect(j.nearDuplicates.pairsInvolvingChanges).toBe(1);
    const first = j.nearDuplicates.listed[0];
    expect([first.a, first.b].sort()).toEqual([base.id, copy.id].sort());
    expect(first.involvesChange).toBe(true);
    expect(first.suggestions.join('\n')).toContain(`Add to ${base.id}'s description: "Not for requests about archived: use list_archived_tasks."`);
    expect(j.nearDuplicates.listed.some((p: { a: string; b: string }) => p.a === distinct.id || p.b === distinct.id)).toBe(false);
    expect(r.out).toMatch(new RegExp(`${base.id} ~ ${copy.id}|${copy.id} ~ ${base.id}`));
    expect(r.out).toContain('Not for requests about archived: use list_archived_tasks.');
    const md = readFileSync(join(out, 'diff.md'), 'utf8');
    expect(md).toContain('### Near-duplicates');
    expect(md).toContain('mcp\\_\\_clickup\\_\\_list\\_archived\\_tasks');
  });

  it('(e) is deterministic: the same inputs give byte-identical JSON, and --out writes the same', async () => {
    const { tool, requests } = await favourite();
    const dir = write('steal-again', withTools([...catalog.tools, copyOf(tool, `${tool.name}_v2`, `${tool.description} ${requests.join(' ')}`)]));
    const out = join(tmp, 'det-out');
    const a = await run('diff', '--old', oldDir, '--new', dir, '--json', '--no-cache', '--out', out);
    const b = await run('diff', '--old', oldDir, '--new', dir, '--json', '--no-cache');
    expect(a.code).toBe(100);
    expect(b.out).toBe(a.out);
    expect(readFileSync(join(out, 'diff.json'), 'utf8')).toBe(a.out);
    expect(JSON.parse(a.out).timings).toBeUndefined();
    const timed = JSON.parse((await run('diff', '--old', oldDir, '--new', dir, '--json', '--no-cache', '--timings')).out);
    expect(timed.timings.new.cases).toBe(timed.cases.toolLabelled);
  });

  it('takes --cases with catalog files, and embed shows that only the changed tool was embedded', async () => {
    const casesFile = join(tmp, 'cases.jsonl');
    writeFileSync(
      casesFile,
      cases
        .filter((c) => c.expectedTools !== undefined)
        .slice(0, 60)
        .map((c) => JSON.stringify(c))
        .join('\n'),
    );
    const i = catalog.tools.findIndex((t) => t.id === 'mcp__clickup__get_task');
    const tools = [...catalog.tools];
    tools[i] = makeTool({ ...tools[i]!, description: `${tools[i]!.description} Marker ${Date.now()} ${process.pid}.` });
    const dir = write('embed-new', withTools(tools));
    const r = await run('diff', '--old', oldDir, '--new', dir, '--cases', casesFile, '--retriever', 'embed', '--quiet', '--no-cache', '--json', '--timings');
    expect([0, 100]).toContain(r.code);
    const j = JSON.parse(r.out);
    expect(j.cases).toMatchObject({ from: casesFile, total: 60, toolLabelled: 60 });
    expect(j.retriever).toMatchObject({ name: 'embed', toolLocal: true });
    expect(j.timings.new.deltaIndex).toMatchObject({ tools: 1, embedded: 1 });
  });

  it("finds the near-duplicates of later diffs from the base catalog's cached pairs, with the same report", async () => {
    const cacheDir = join(tmp, 'pairs-cache');
    const old = { label: 'old', catalog };
    const edit = (i: number, words: string): Catalog =>
      withTools(catalog.tools.map((t, j) => (j === i ? makeTool({ ...t, description: `${t.description} ${words}` }) : t)));
    const target = catalog.tools[3]!;
    const first = edit(5, 'Also archives the record.');
    const second = withTools([...catalog.tools, copyOf(target, `${target.name}_mirror`, target.description)]);
    for (const [next, from] of [
      [first, 'base computed and cached'],
      [second, 'cached base'],
    ] as const) {
      const input = { old, new: { label: 'new', catalog: next }, cases, casesFrom: 'generated' };
      const cached = await diffCatalogs(input, { cacheDir });
      const uncached = await diffCatalogs(input, { cacheDir: null });
      expect(cached.timings.nearDuplicatesFrom).toBe(from);
      expect(uncached.timings.nearDuplicatesFrom).toBe('whole catalog');
      expect(diffJson(cached.report)).toBe(diffJson(uncached.report));
    }
    const again = await diffCatalogs({ old, new: { label: 'new', catalog: second }, cases, casesFrom: 'generated' }, { cacheDir });
    expect(again.report.nearDuplicates.listed.some((p) => p.involvesChange && [p.a, p.b].includes(target.id))).toBe(true);
  });

  it("prints each side's catalog loader warnings on stderr, once per side and naming it", async () => {
    const f = join(FIXTURES, 'real-mcp', 'openai-responses-request.json');
    const casesFile = join(tmp, 'openai-cases.jsonl');
    writeFileSync(casesFile, `${JSON.stringify({ id: 'ls', request: 'list the files in the src folder', expectedTools: ['list_directory'] })}\n`);
    const r = await run('diff', '--old', f, '--new', f, '--cases', casesFile, '--no-cache', '--json');
    expect(r.code, r.err).toBe(0);
    const skipped = 'skipped 4 OpenAI tools that are not functions (built-in or custom): web_search_preview, file_search, code_interpreter, mcp';
    expect(r.err.split('\n').filter(Boolean)).toEqual([`warning: --old ${f}: ${skipped}`, `warning: --new ${f}: ${skipped}`]);
    expect(r.out).not.toContain('warning');
  });

  it('rejects bad input with exit 2', async () => {
    const file = join(tmp, 'tools.json');
    writeFileSync(file, JSON.stringify([{ name: 'a', description: 'A.', input_schema: { type: 'object', properties: {} } }]));
    const noCases = await run('diff', '--old', file, '--new', file, '--quiet');
    expect(noCases.code).toBe(2);
    expect(noCases.err).toMatch(/--cases/);
    expect((await run('diff', '--old', oldDir, '--new', oldDir, '--retriever', 'bm52', '--quiet')).code).toBe(2);
    expect((await run('diff', '--old', oldDir, '--new', join(tmp, 'missing'), '--quiet')).code).toBe(2);
    expect((await run('diff', '--old', oldDir, '--new', oldDir, '--threshold', '0')).code).toBe(2);
    expect(existsSync(join(tmp, 'missing'))).toBe(false);
  });
});
