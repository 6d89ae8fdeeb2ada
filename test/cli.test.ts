import { BACKPACK_BIN, runCli } from './helpers.ts';
import { clopperPearson } from '../src/metrics/clopper-pearson.ts';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.ts';
import { createProfile } from '../src/profiles/registry.ts';

const tmp = mkdtempSync(join(tmpdir(), 'backpack-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = runCli;

// Budget: 90 s a test (measured 2026-12-07 on 2 cores: at most 4.6 s quiet — the main job end to
// end, the bin as a process — and 41 s at load 12–17).
const CLI_BUDGET = 90_000;

/** The results.json of an eval output folder. */
const readResults = (...dir: string[]) => JSON.parse(readFileSync(join(...dir, 'results.json'), 'utf8'));

/** `backpack eval ARGS --out OUT --quiet`, which must succeed: what it printed, and its results.json. */
const evalOk = async (out: string, ...args: string[]) => {
  const r = await run('eval', ...args, '--out', out, '--quiet');
  expect(r.code, r.err).toBe(0);
  return { r, results: readResults(out) };
};

describe('backpack CLI', { timeout: CLI_BUDGET }, () => {
  const commands = buildProgram({ out: () => {}, err: () => {} }).commands.map((c) => c.name());

  it('has the subcommands the README promises', () => {
    expect(commands).toEqual(expect.arrayContaining(['run', 'generate', 'inspect']));
  });

  it.each(commands)('prints --help for %s and exits 0', async (name) => {
    const r = await run(name, '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Usage: backpack ${name}`);
  });

  it('suggests a command for a typo and exits 2', async () => {
    const r = await run('genrate');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command 'genrate'/);
    expect(r.err).toMatch(/generate/);
  });

  it('rejects a non-numeric seed and an unknown preset with exit 2', async () => {
    expect((await run('generate', '--preset', 'tiny', '--seed', 'abc', '--out', join(tmp, 'x'))).code).toBe(2);
    const r = await run('generate', '--preset', 'giant', '--out', join(tmp, 'x'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Allowed choices are tiny, small, monster/);
    expect(existsSync(join(tmp, 'x'))).toBe(false);
  });

  it('generates a dataset and inspect --json reports the manifest counts', async () => {
    const dir = join(tmp, 'tiny');
    const g = await run('generate', '--preset', 'tiny', '--seed', '3', '--out', dir, '--quiet');
    expect(g.code).toBe(0);
    expect(g.out).toMatch(/wrote .*tiny: [\d,]+ tools, 40 skills, 400 cases/);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const r = await run('inspect', dir, '--json');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s.tools).toBe(manifest.counts.tools);
    expect(s.skills).toBe(40);
    expect(s.cases).toBe(400);
    expect(s.namespaces).toBe(manifest.counts.namespaces);
    expect(s.largestNamespaces[0].namespace).toBe('crm');
    expect(s.schemaTokens.p50).toBeGreaterThan(20);
    // inspect recomputes the slice statistics from the files: they must agree with the manifest
    expect(s.slices).toEqual(manifest.slices);
    const text = await run('inspect', dir);
    expect(text.out).toMatch(/largest namespaces/);
    expect(text.out).toMatch(/no-tool/);
  });

  it('refuses to overwrite a folder that is not a dataset, and leaves it untouched', async () => {
    const dir = join(tmp, 'precious');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'keep me');
    const r = await run('generate', '--preset', 'tiny', '--out', dir, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/does not hold a Backpack dataset/);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('never replaces a folder that is not a Backpack dataset, even one with a manifest.json', async () => {
    const web = join(tmp, 'webapp');
    mkdirSync(web);
    writeFileSync(join(web, 'manifest.json'), '{"name":"my pwa","icons":[]}');
    writeFileSync(join(web, 'app.js'), 'keep');
    const g = await run('generate', '--preset', 'tiny', '--out', web, '--quiet');
    expect(g.code).toBe(2);
    expect(readdirSync(web).sort()).toEqual(['app.js', 'manifest.json']);
    const r = await run('run', '--out', web, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/does not hold a Backpack dataset/);
    expect(readdirSync(web).sort()).toEqual(['app.js', 'manifest.json']);
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    const f = await run('generate', '--preset', 'tiny', '--out', file, '--quiet');
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/exists and is not a folder/);
    const e = await run('eval', '--dataset', 'fixtures/beir-mini', '--out', web, '--quiet');
    expect(e.code).toBe(2);
    expect(readdirSync(web).sort()).toEqual(['app.js', 'manifest.json']);
  });

  it('runs the main job end to end on a small preset: dataset, results, report, summary with the HTML path', async () => {
    const data = join(tmp, 'main-data');
    const results = join(tmp, 'main-results');
    const r = await run(
      'run',
      '--preset',
      'tiny',
      '--seed',
      '5',
      '--out',
      data,
      '--results',
      results,
      // a retriever, the fusion with the embedding model and a profile: the job's kinds of strategy (the
      // figures of each are other tests'; two more profiles here doubled the evaluation)
      '--profiles',
      'deferred',
      '--retrievers',
      'bm25,hybrid',
      // the report without PNG charts (src/report/png.test.ts draws them all): the formats run writes are its --format
      '--format',
      'html,md,junit',
      '--quiet',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^strategy .*recall@5/m);
    expect(r.out).toContain(`report:  ${join(results, 'report', 'report.html')}  (+ summary.md, junit.xml)`);
    const files = readdirSync(join(results, 'report')).sort();
    expect(files).toEqual(['.backpack-report', 'junit.xml', 'report.html', 'summary.md']);
    expect((await run('run', '--preset', 'tiny', '--format', 'pdf')).err).toMatch(/unknown format "pdf"/);
    // backpack report rewrites a chosen subset elsewhere
    const out = join(tmp, 'md-only');
    const rep = await run('report', results, '--format', 'md,junit', '--out', out);
    expect(rep.code, rep.err).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.backpack-report', 'junit.xml', 'summary.md']);
    // the same summary, without the pointer to an HTML report that this run of `report` did not write
    const withHtml = readFileSync(join(results, 'report', 'summary.md'), 'utf8');
    expect(withHtml).toContain('report.html');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toBe(withHtml.replace(/\n\n[^\n]*report\.html[^\n]*/, ''));
    expect((await run('report', results, '--format', 'pdf')).err).toMatch(/unknown format "pdf"/);
    expect((await run('report', join(tmp, 'nowhere'))).code).toBe(2);
    // --out naming a file: exit 2, the file untouched
    const aFile = join(tmp, 'a-file.txt');
    writeFileSync(aFile, 'mine');
    const onFile = await run('report', results, '--out', aFile);
    expect(onFile.code).toBe(2);
    expect(onFile.err).toMatch(/a-file\.txt: is a file, not a folder/);
    expect(readFileSync(aFile, 'utf8')).toBe('mine');
    // a report that fails leaves no folder it created and no temporary file
    const broken = join(tmp, 'broken-results');
    cpSync(results, broken, { recursive: true });
    const res = readResults(broken);
    res.retrievers.bm25.metrics = null; // a shape the report cannot draw
    writeFileSync(join(broken, 'results.json'), JSON.stringify(res));
    const failed = await run('report', broken, '--out', join(tmp, 'never-made'));
    expect(failed.code).not.toBe(0);
    expect(existsSync(join(tmp, 'never-made'))).toBe(false);
    expect(readdirSync(tmp).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('reports invalid catalog JSON with line and column', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{"tools": [\n  {"name": "x",\n   "description": "y" "inputSchema": {}}\n]}\n');
    const r = await run('inspect', '--catalog', bad);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: ${bad}: line 3, column 23: invalid JSON: Expected ',' or '}' after property value\n`);
  });

  it('names an unknown dataset with exit 2', async () => {
    const r = await run('inspect', 'metatol');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/did you mean metatool/);
  });

  it('inspects a catalog format by detection, and checks cases against it', async () => {
    const r = await run('inspect', '--catalog', 'fixtures/catalogs/mcp-real-bundle.json', '--json');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s.servers).toBe(3);
    expect(s.tools).toBe(27);
    const bad = await run('inspect', '--catalog', 'fixtures/catalogs/mcp-folder', '--cases', 'fixtures/faulty/unknown-tool.csv');
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      'error: fixtures/faulty/unknown-tool.csv: row 3: case "bad-1": unknown expected tool id "mcp__github__serch" (did you mean mcp__github__search?)\n',
    );
    const schema = await run('inspect', '--catalog', 'fixtures/faulty/invalid-schema.json');
    expect(schema.code).toBe(2);
    expect(schema.err).toMatch(/invalid-schema\.json: \$\.servers\[1\]\.tools\[4\]\.inputSchema: invalid JSON Schema/);
  });

  it('adds a skills folder to a tool catalog, so cases naming skills check out', async () => {
    const without = await run('inspect', '--catalog', 'fixtures/catalogs/mcp-folder', '--cases', 'fixtures/cases/cases.csv');
    expect(without.code).toBe(2);
    expect(without.err).toMatch(/unknown expected skill "release-notes"/);
    const r = await run('inspect', '--catalog', 'fixtures/catalogs/mcp-folder', '--skills', 'fixtures/skills', '--cases', 'fixtures/cases/cases.csv', '--json');
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out);
    expect(s.skills).toBe(4);
    expect(s.cases).toBeGreaterThan(3);
  });

  it('needs exactly one of a dataset and --catalog', async () => {
    expect((await run('inspect')).code).toBe(2);
  });
});

// The bin of the checkout compiled as an installed package runs it (test/compiled-bin.ts): bin/backpack.js
// itself, and which of dist/ and src/ it runs, are test/bin.test.ts's.
describe('the installed bin', { timeout: CLI_BUDGET }, () => {
  it('runs as a real process: --version and a bad-input exit code', () => {
    const bin = BACKPACK_BIN;
    const v = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    const bad = spawnSync(process.execPath, [bin, 'inspect', join(tmp, 'does-not-exist')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^error: /);
  });

  it('stops quietly when the reader closes the pipe early (`backpack eval --help | head`)', () => {
    const bin = BACKPACK_BIN;
    // `true` exits without reading, long before the bin has started: every write meets a closed pipe.
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${bin}" eval --help | true`], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.status).toBe(0);
  });
});

describe('backpack eval and merge', { timeout: CLI_BUDGET }, () => {
  const dataset = join(tmp, 'eval-tiny');

  it('evaluates a generated dataset and writes results, details and TREC runs', async () => {
    expect((await run('generate', '--preset', 'tiny', '--seed', '4', '--out', dataset, '--quiet')).code).toBe(0);
    const out = join(tmp, 'eval-out');
    const r = await run('eval', '--dataset', dataset, '--retrievers', 'bm25,bm25-plain', '--k', '1,5', '--out', out, '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^tiny-4: 400 cases/);
    expect(r.out).toMatch(/\nbm25\s+\d\.\d{3}/);
    const results = readResults(out);
    expect(results.schemaVersion).toBe(1);
    expect(results.dataset.catalogSha256).toBe(JSON.parse(readFileSync(join(dataset, 'manifest.json'), 'utf8')).catalogSha256);
    expect(Object.keys(results.retrievers)).toEqual(['bm25', 'bm25-plain']);
    expect(Object.keys(results.retrievers.bm25.metrics.overall)).toEqual(
      expect.arrayContaining([
        'top1',
        'recall@1',
        'recall@5',
        'allGold@5',
        'anyGold@5',
        'mrr@10',
        'ndcg@10',
        'missedEntirely@5',
        'noToolFalsePositiveRate',
        'scopeLeakCount',
        'namespaceRecall@5',
      ]),
    );
    expect(results.retrievers.bm25.latency).toMatchObject({
      indexMs: expect.any(Number),
      p50Ms: expect.any(Number),
      p95Ms: expect.any(Number),
      peakRssMb: expect.any(Number),
    });
    expect(readdirSync(join(out, 'runs')).sort()).toEqual(['bm25-plain.trec', 'bm25.trec', 'cases.tsv', 'qrels.txt']);
    expect(
      readFileSync(join(out, 'details', 'bm25.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(400);
  });

  it('lists the profiles and evaluates them with --profiles', async () => {
    const listed = JSON.parse((await run('list', '--json')).out);
    const names = listed.profiles.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['static', 'deferred', 'deepseek', 'role-gating', 'semantic-retrieval', 'namespace-routing']));
    expect(listed.profiles.every((p: { kind: string; description: string }) => p.kind === 'profile' && p.description.length > 10)).toBe(true);
    expect((await run('list')).out).toMatch(/\nprofiles\n {2}static {13}every tool eager/);
    const out = join(tmp, 'profiles');
    const r = await run(
      'eval',
      '--dataset',
      dataset,
      '--profiles',
      'static,deferred',
      '--out',
      out,
      '--quiet',
      '--context-window',
      '100000',
      '--cache-read-ratio',
      '0.5',
    );
    expect(r.code, r.err).toBe(0);
    const results = readResults(out);
    expect(results.config.contextWindow).toBe(100000);
    expect(results.config.cache).toEqual({ writeRatio: 1.25, readRatio: 0.5 });
    expect(results.profiles.static.tokens.cache.readRatio).toBe(0.5);
    expect(results.skills.contextWindow).toBe(100000);
    expect(r.out).toMatch(/^profile tokens \(o200k\) +before search/m);
    expect((await run('eval', '--dataset', dataset, '--profiles', 'static', '--cache-write-ratio', '-1')).code).toBe(2);
    expect(results.config.retrievers).toEqual([]);
    expect(results.config.profiles).toEqual(['static', 'deferred']);
    expect(Object.keys(results.profiles)).toEqual(['static', 'deferred']);
    expect(r.out).toMatch(/^strategy .* visible/m);
    expect(existsSync(join(out, 'details', 'deferred.jsonl'))).toBe(true);
    const bad = await run('eval', '--dataset', dataset, '--profiles', 'statik', '--out', join(tmp, 'bad'), '--quiet');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown profile "statik" \(did you mean static\?\)/);
    expect((await run('eval', '--dataset', dataset, '--profiles', 'bm25', '--quiet')).err).toMatch(/is a retriever/);
  });

  it('refuses a run with nothing to evaluate (an empty catalog, no labelled case) with exit 2, writing nothing', async () => {
    const d = join(tmp, 'nothing');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'empty.json'), '{"tools":[]}');
    writeFileSync(join(d, 'one.json'), '{"tools":[{"name":"a","description":"do a","inputSchema":{"type":"object"}}]}');
    writeFileSync(join(d, 'header-only.csv'), 'request,expected_tools\n');
    writeFileSync(join(d, 'greeting.csv'), 'request,expected_tools\nhello,\n');
    const empty = await run('eval', '--catalog', join(d, 'empty.json'), '--cases', join(d, 'greeting.csv'), '--out', join(d, 'out-a'), '--quiet');
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/empty\.json: the catalog has no tools/);
    const none = await run('eval', '--catalog', join(d, 'one.json'), '--cases', join(d, 'header-only.csv'), '--out', join(d, 'out-b'), '--quiet');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/header-only\.csv: no case labelled for tools/);
    expect(existsSync(join(d, 'out-a'))).toBe(false);
    expect(existsSync(join(d, 'out-b'))).toBe(false);
    // a shard that gets no case is no error (the other shards have them), but never silent
    writeFileSync(join(d, 'one-case.csv'), 'request,expected_tools\ndo a please,mcp__one__a\n');
    const emptyShard = await run(
      'eval',
      '--catalog',
      join(d, 'one.json'),
      '--cases',
      join(d, 'one-case.csv'),
      '--shard',
      '2/2',
      '--out',
      join(d, 'out-c'),
      '--quiet',
    );
    expect(emptyShard.code, emptyShard.err).toBe(0);
    expect(emptyShard.err).toContain('warning: shard 2/2 holds none of the 1 cases: its figures are n/a');
    expect(emptyShard.out).toMatch(/^bm25 +n\/a/m);
  });

  it('refuses a dataset whose manifest does not vouch for a file (exit 2, naming it); --re-sign accepts it and the results say so', async () => {
    const copy = join(tmp, 'tampered');
    cpSync(dataset, copy, { recursive: true });
    const manifestFile = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    // the attack of the issue: edit a case and delete its file's entry from the manifest
    delete manifest.files['queries.jsonl'];
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
    const queries = readFileSync(join(copy, 'queries.jsonl'), 'utf8').split('\n');
    const at = queries.findIndex((l) => l.includes('"split":"test"') && l.includes('"expected":"tool"'));
    queries[at] = queries[at]!.replace('"text":"', '"text":"urgent: ');
    writeFileSync(join(copy, 'queries.jsonl'), queries.join('\n'));
    const refused = await run('eval', '--dataset', copy, '--out', join(tmp, 'tampered-out'), '--quiet');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${join(copy, 'queries.jsonl')}: is not listed in manifest.json`);
    expect(refused.err).toContain('--re-sign');
    expect(existsSync(join(tmp, 'tampered-out'))).toBe(false);
    const accepted = await run('eval', '--dataset', copy, '--re-sign', '--out', join(tmp, 'tampered-out'), '--quiet');
    expect(accepted.code, accepted.err).toBe(0);
    const said = 'dataset tiny-4 was re-signed with eval --re-sign (added queries.jsonl): its figures do not compare with the folder as first written';
    expect(accepted.err).toContain(`warning: ${said}`);
    const results = readResults(tmp, 'tampered-out');
    expect(results.dataset.reSigned).toEqual({ added: ['queries.jsonl'], removed: [], changed: [] });
    expect(results.warnings).toEqual([said]);
    const original = readResults(tmp, 'eval-out');
    expect(results.dataset.casesSha256).not.toBe(original.dataset.casesSha256);
    expect(original.warnings).toBeUndefined();
    // re-signed: the folder now reads without the flag, and every run on it still says so
    const later = await run('eval', '--dataset', copy, '--re-sign', '--out', join(tmp, 'tampered-out-2'), '--quiet');
    expect(later.code, later.err).toBe(0);
    expect(later.err).toContain('warning: --re-sign: the files of tiny-4 match its manifest; nothing to re-sign');
    const again = readResults(tmp, 'tampered-out-2');
    expect(again.dataset.reSigned).toEqual(results.dataset.reSigned);
    expect(again.warnings).toEqual([said]);
    // shards of the folder before and after its re-sign do not merge
    expect((await run('eval', '--dataset', copy, '--shard', '1/2', '--out', join(tmp, 'resigned-shard-1'), '--quiet')).code).toBe(0);
    expect((await run('eval', '--dataset', dataset, '--shard', '2/2', '--out', join(tmp, 'resigned-shard-2'), '--quiet')).code).toBe(0);
    const mixed = await run('merge', join(tmp, 'resigned-shard-1'), join(tmp, 'resigned-shard-2'), '--out', join(tmp, 'resigned-merged'));
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(/resigned-shard-2: read the dataset folder re-signed otherwise than the first shard did/);
  });

  it('warnings about the input land in results.json, and a merge of shards keeps them once', async () => {
    const beir = join(tmp, 'beir-warned');
    cpSync('fixtures/beir-mini', beir, { recursive: true });
    const corpus = readFileSync(join(beir, 'corpus.jsonl'));
    const at = corpus.indexOf('"text":"', corpus.indexOf(10)) + '"text":"'.length;
    // one invalid byte in a description on the second line, and a query no qrels file judges
    writeFileSync(join(beir, 'corpus.jsonl'), Buffer.concat([corpus.subarray(0, at), Buffer.from([0xff]), corpus.subarray(at)]));
    writeFileSync(
      join(beir, 'queries.jsonl'),
      `${readFileSync(join(beir, 'queries.jsonl'), 'utf8').trimEnd()}\n${JSON.stringify({ _id: 'q-unjudged', text: 'what about this' })}\n`,
    );
    const whole = await run('eval', '--dataset', beir, '--out', join(tmp, 'beir-warned-out'), '--quiet');
    expect(whole.code, whole.err).toBe(0);
    const warnings = readResults(tmp, 'beir-warned-out').warnings;
    // named relative to the dataset folder: the results do not depend on where it sits
    expect(warnings).toEqual([
      'beir-warned has no manifest.json: read as an unsigned folder (no file of it is vouched for; its tools are checked and hashed as read)',
      'corpus.jsonl: 1 invalid UTF-8 byte sequence was replaced with U+FFFD (first on line 2)',
      expect.stringMatching(/^1 query of queries.jsonl has no judgement .*: q-unjudged$/),
    ]);
    for (const w of warnings) expect(whole.err).toContain(`warning: ${w}`);
    const shards = [1, 2].map((i) => join(tmp, `beir-warned-${i}`));
    for (const [i, d] of shards.entries()) expect((await run('eval', '--dataset', beir, '--shard', `${i + 1}/2`, '--out', d, '--quiet')).code).toBe(0);
    expect((await run('merge', ...shards, '--out', join(tmp, 'beir-warned-merged'))).code).toBe(0);
    expect(readResults(tmp, 'beir-warned-merged').warnings).toEqual(warnings);
    // a catalog file and a cases file: the same, once per file although detection reads the catalog too
    const catalog = join(tmp, 'warned-catalog.json');
    writeFileSync(
      catalog,
      Buffer.concat([
        Buffer.from('{"tools":[{"name":"a","description":"do a '),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('","inputSchema":{"type":"object"}}]}'),
      ]),
    );
    const cases = join(tmp, 'warned-cases.csv');
    writeFileSync(cases, Buffer.concat([Buffer.from('request,expected_tools\ndo a '), Buffer.from([0xc3]), Buffer.from(' please,mcp__warned-catalog__a\n')]));
    const fromFiles = await run('eval', '--catalog', catalog, '--cases', cases, '--out', join(tmp, 'warned-files-out'), '--quiet');
    expect(fromFiles.code, fromFiles.err).toBe(0);
    expect(readResults(tmp, 'warned-files-out').warnings).toEqual([
      `${catalog}: 2 invalid UTF-8 byte sequences were replaced with U+FFFD (first on line 1)`,
      `${cases}: 1 invalid UTF-8 byte sequence was replaced with U+FFFD (first on line 2)`,
    ]);
  });

  it('one writer per results folder: a second eval stops with exit 2 naming the holder; a stale lock is taken over', async () => {
    const out = join(tmp, 'locked');
    writeFileSync(`${out}.lock`, `${process.ppid}\n`);
    const busy = await run('eval', '--dataset', dataset, '--out', out, '--quiet');
    expect(busy.code).toBe(2);
    expect(busy.err).toContain(`pid ${process.ppid}`);
    expect(existsSync(join(out, 'results.json'))).toBe(false);
    writeFileSync(`${out}.lock`, '99999999\n');
    const stale = await run('eval', '--dataset', dataset, '--out', out, '--quiet');
    expect(stale.code, stale.err).toBe(0);
    expect(stale.err).toMatch(/stale lock .*process 99999999 is gone/);
    expect(existsSync(join(out, 'results.json'))).toBe(true);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("applies a profile's default floor unless --floor names it, calibrates it with --calibrate-on, and takes --query-style", async () => {
    const floors = async (...extra: string[]) => {
      const out = join(tmp, `floors-${extra.join('-').replace(/[^a-z0-9]/gi, '')}`);
      // a quarter of the cases scored: what is checked is the configuration (floors, query styles), which
      // a shard records as the whole run does (calibration reads the whole calibration split)
      return (await evalOk(out, '--dataset', dataset, '--profiles', 'gated-sticky-deferred,deferred', '--shard', '1/4', ...extra)).results;
    };
    const def = createProfile('gated-sticky-deferred').defaultFloor!;
    const plain = await floors();
    expect(plain.config.floors).toEqual({ 'gated-sticky-deferred': def, deferred: null });
    expect(plain.config.queryStyle).toBeUndefined();
    expect(plain.profiles['gated-sticky-deferred'].exposure.queryStyle).toBe('raw');
    expect(plain.profiles.deferred.exposure.queryStyle).toBe('keywords');
    expect((await floors('--floor', 'gated-sticky-deferred=none')).config.floors['gated-sticky-deferred']).toBeNull();
    expect((await floors('--floor', 'deferred=3')).config.floors).toEqual({ 'gated-sticky-deferred': def, deferred: 3 });
    const calibrated = await floors('--split', 'test', '--calibrate-on', 'train', '--query-style', 'raw');
    expect(calibrated.config.floors['gated-sticky-deferred']).toMatchObject({ mode: 'auto', target: 0.1, calibratedOn: 'split:train' });
    expect(calibrated.config.floors.deferred).toBeNull();
    expect(calibrated.config.queryStyle).toBe('raw');
    expect(calibrated.profiles.deferred.exposure.queryStyle).toBe('raw');
    expect(calibrated.profiles.deferred.calls.protocol).toEqual({ search: 1, perFoundTool: 1, call: 'each' });
    const bad = await run('eval', '--dataset', dataset, '--profiles', 'deferred', '--query-style', 'verbose', '--quiet');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--query-style.*verbose|verbose.*--query-style/);
  });

  it('lists the registry, and evaluates with sticky retrieval', async () => {
    const l = await run('list', '--json');
    expect(l.code).toBe(0);
    const listed = JSON.parse(l.out);
    expect(listed.retrievers.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['bm25', 'bm25-plain']));
    expect(listed.retrievers.every((r: { description: string }) => r.description.length > 10)).toBe(true);
    const out = join(tmp, 'sticky');
    const r = await run('eval', '--dataset', dataset, '--sticky', '--out', out, '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(readResults(out).config.sticky).toBe(true);
    const details = readFileSync(join(out, 'details', 'bm25.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((x) => JSON.parse(x));
    const kept = details.filter((d) => d.kept);
    expect(kept.length).toBeGreaterThan(0);
    // only turns after the first of a session can keep a set
    const cases = readFileSync(join(dataset, 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((x) => JSON.parse(x));
    const byId = new Map(cases.map((c) => [c._id, c]));
    for (const d of kept) expect(byId.get(d.caseId).turn).toBeGreaterThan(0);
  });

  it('augments tool examples from the train split and scores only the test split', async () => {
    const out = join(tmp, 'examples');
    const { results } = await evalOk(
      out,
      '--dataset',
      'metatool',
      '--split',
      'test',
      '--examples-from',
      'train',
      '--examples-per-tool',
      '5',
      '--retrievers',
      'bm25',
      // a fifth of the test split is scored (the examples come from the whole train split all the same)
      '--shard',
      '1/5',
    );
    expect(results.config.examples).toEqual({ from: 'train', perTool: 5, added: 995 });
    expect(results.dataset.cases).toBe(
      readFileSync(join(out, 'runs', 'cases.tsv'), 'utf8')
        .trim()
        .split('\n').length - 1,
    );
    expect(results.retrievers.bm25.metrics.slices['single-tool']['recall@5']).toBeGreaterThan(0.7);
    expect((await run('eval', '--dataset', 'metatool', '--split', 'train', '--examples-from', 'train')).err).toMatch(/same split/);
    expect((await run('eval', '--dataset', 'metatool', '--examples-from', 'train')).err).toMatch(/needs --dataset … --split/);
  });

  it('re-embeds exactly the one tool whose description changed', async () => {
    const folder = join(tmp, 'embed-catalog');
    mkdirSync(folder);
    // a description no other test uses, so the shared vector cache cannot already hold it
    const unique = `Read a file from a GitHub repository at a given ref (${process.pid}-${Date.now()}).`;
    for (const f of ['github.json', 'filesystem.json'])
      writeFileSync(
        join(folder, f),
        readFileSync(join('fixtures/catalogs/mcp-folder', f), 'utf8').replace('Read a file from a GitHub repository at a given ref.', unique),
      );
    const cases = join(tmp, 'embed-cases.jsonl');
    writeFileSync(cases, '{"id":"c1","request":"read the readme from the repo","expectedTools":["mcp__github__read_file"]}\n');
    const stats = async (out: string) => {
      return (await evalOk(out, '--catalog', folder, '--cases', cases, '--retrievers', 'embed')).results.retrievers.embed.latency.index;
    };
    const first = await stats(join(tmp, 'e1'));
    expect(first.embedded).toBeGreaterThanOrEqual(1);
    const second = await stats(join(tmp, 'e2'));
    expect(second).toMatchObject({ embedded: 0, cacheHits: first.texts });
    const gh = join(folder, 'github.json');
    writeFileSync(gh, readFileSync(gh, 'utf8').replace(unique, `${unique} Changed.`));
    const third = await stats(join(tmp, 'e3'));
    expect(third).toMatchObject({ embedded: 1, cacheHits: first.texts - 1 });
  });

  it('merges shards into the unsharded metrics', async () => {
    const dirs: string[] = [];
    for (const i of [1, 2]) {
      const d = join(tmp, `cli-shard-${i}`);
      expect((await run('eval', '--dataset', dataset, '--shard', `${i}/2`, '--out', d, '--quiet')).code).toBe(0);
      dirs.push(d);
    }
    const merged = join(tmp, 'cli-merged');
    const whole = join(tmp, 'cli-whole');
    expect((await run('merge', ...dirs, '--out', merged)).code).toBe(0);
    expect((await run('eval', '--dataset', dataset, '--out', whole, '--quiet')).code).toBe(0);
    const metrics = (d: string) => JSON.stringify(readResults(d).retrievers.bm25.metrics);
    expect(metrics(merged)).toBe(metrics(whole));
    expect(readFileSync(join(merged, 'runs', 'bm25.trec'), 'utf8')).toBe(readFileSync(join(whole, 'runs', 'bm25.trec'), 'utf8'));
  });

  it('calibrates floors on the train split and scores the test split: the floor is the one the train no-tool cases give', async () => {
    const out = join(tmp, 'auto-floor');
    const { results } = await evalOk(
      out,
      ...['--dataset', dataset, '--split', 'test', '--calibrate-on', 'train', '--floor', 'auto:0.2', '--retrievers', 'bm25', '--profiles', 'static,deferred'],
    );
    const f = results.config.floors.bm25;
    expect(f).toMatchObject({ mode: 'auto', target: 0.2, calibratedOn: 'split:train' });
    expect(typeof f.value).toBe('number');
    expect(f.calibrationFalsePositiveRate).toBeLessThanOrEqual(0.2);
    // harness profiles run as their harness runs: --floor for every strategy does not reach them
    expect(results.config.floors.static).toBeNull();
    expect(results.config.floors.deferred).toBeNull();
    expect(results.config).not.toHaveProperty('floorsNotInHarness');
    expect(results.config.calibration).toMatchObject({ source: 'split:train', noToolCases: f.calibrationNoToolCases });
    // the same floor from an unfloored run over the train split alone: each no-tool case's best score, then the rule
    const train = join(tmp, 'auto-floor-train');
    expect((await run('eval', '--dataset', dataset, '--split', 'train', '--retrievers', 'bm25', '--out', train, '--quiet')).code).toBe(0);
    const cases = new Map(
      readFileSync(join(dataset, 'queries.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((c) => [c._id, c]),
    );
    const trainDetails = readFileSync(join(train, 'details', 'bm25.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const pinned = new Set(trainDetails.flatMap((d) => d.pinned));
    const tops = trainDetails
      .filter((d) => (cases.get(d.caseId)?.expectedTools ?? ['x']).length === 0)
      .map((d) => d.ranked.find(([id]: [string]) => !pinned.has(id))?.[1] ?? -Infinity)
      .sort((a: number, b: number) => b - a);
    expect(tops.length).toBe(f.calibrationNoToolCases);
    const m = Math.floor(0.2 * tops.length + 1e-9);
    expect(f.value).toBeGreaterThan(tops[m]);
    const through = tops.filter((t: number) => t >= f.value).length;
    expect(through).toBe(tops.filter((t: number) => t > tops[m]).length);
    expect(through).toBeLessThanOrEqual(m);
    expect(f.calibrationFalsePositiveRate).toBe(through / tops.length);
    // the scored cases: details keep what the floor dropped; the curve and the rates are there
    const bm25 = results.retrievers.bm25;
    expect(bm25.abstention.length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(bm25.recallAtFalsePositiveRate)).toEqual(['0.05', '0.1', '0.2']);
    const details = readFileSync(join(out, 'details', 'bm25.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(details.every((d) => d.ranked.every(([, s]: [string, number]) => s >= f.value))).toBe(true);
    expect(details.some((d) => d.belowFloor?.length)).toBe(true);
    // honest no-tool figure: static lists every tool, so every no-tool case is a false positive
    expect(results.profiles.static.metrics.overall.noToolFalsePositiveRate).toBe(1);
    expect(results.profiles.static.abstention).toBeNull();
    expect(results.profiles.deferred.metrics.overall).toHaveProperty('searchNoToolFalsePositiveRate');
    expect(results.profiles.static.tokens).toMatchObject({ contextWindow: 200000, fitsContext: expect.any(Number), overflowCases: expect.any(Number) });
  });

  it('a floor for every strategy reaches retrievers and profiles whose design has one; a harness profile gets one only by name, labelled a what-if', async () => {
    const out = join(tmp, 'floor-design');
    const common = ['--dataset', dataset, '--split', 'test', '--calibrate-on', 'train', '--retrievers', 'bm25', '--profiles', 'codex,semantic-retrieval'];
    const all = await evalOk(out, ...common, '--floor', 'auto:0.1');
    expect(all.results.config.floors.bm25).toMatchObject({ mode: 'auto', target: 0.1 });
    expect(all.results.config.floors['semantic-retrieval']).toMatchObject({ mode: 'auto', target: 0.1 }); // floorInDesign
    expect(all.results.config.floors.codex).toBeNull(); // Codex's tool_search has no floor
    expect(all.results.config).not.toHaveProperty('floorsNotInHarness');
    // named: a what-if, recorded and labelled in the report
    const named = join(tmp, 'floor-what-if');
    const w = await evalOk(named, ...common, '--floor', 'bm25=auto:0.1,codex=auto:0.1');
    expect(w.results.config.floors.codex).toMatchObject({ mode: 'auto', target: 0.1, value: expect.any(Number) });
    expect(w.results.config.floorsNotInHarness).toEqual(['codex']);
    const report = join(tmp, 'floor-what-if-report');
    expect((await run('report', named, '--out', report, '--format', 'md')).code).toBe(0);
    const md = readFileSync(join(report, 'summary.md'), 'utf8');
    expect(md).toMatch(/\| codex \| auto → [^|]* — floor not in the harness \|/);
    expect(md).not.toMatch(/\| bm25 \| auto → [^|]* — floor not in the harness/);
  });

  it('a sharded calibrated run merges into the unsharded one: the same floors, curves and figures', async () => {
    const args = [
      '--dataset',
      dataset,
      '--split',
      'test',
      '--calibrate-on',
      'train',
      '--floor',
      'auto',
      '--retrievers',
      'bm25',
      '--profiles',
      'codex',
      '--quiet',
    ];
    const dirs = [1, 2].map((i) => join(tmp, `auto-shard-${i}`));
    for (const [i, d] of dirs.entries()) expect((await run('eval', ...args, '--shard', `${i + 1}/2`, '--out', d)).code).toBe(0);
    const merged = join(tmp, 'auto-merged');
    const whole = join(tmp, 'auto-whole');
    expect((await run('merge', ...dirs, '--out', merged)).code).toBe(0);
    expect((await run('eval', ...args, '--out', whole)).code).toBe(0);
    const [m, w] = [readResults(merged), readResults(whole)];
    expect(m.config.floors).toEqual(w.config.floors);
    for (const [kind, name] of [
      ['retrievers', 'bm25'],
      ['profiles', 'codex'],
    ] as const) {
      for (const key of ['metrics', 'abstention', 'recallAtFalsePositiveRate']) expect(m[kind][name][key], `${name} ${key}`).toEqual(w[kind][name][key]);
    }
  });

  it('eager profiles: every no-tool case is a false positive, and a prompt over the context window shows nothing', async () => {
    const out = join(tmp, 'eager');
    const r = await run('eval', '--dataset', dataset, '--profiles', 'static,deepseek,deferred', '--context-window', '5000', '--out', out, '--quiet');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^static .*does not fit/m);
    const results = readResults(out);
    for (const name of ['static', 'deepseek']) {
      const p = results.profiles[name];
      expect(p.metrics.overall.noToolFalsePositiveRate, name).toBe(1);
      expect(p.metrics.overall).not.toHaveProperty('searchNoToolFalsePositiveRate');
      // 406 tool definitions are far more than 5,000 tokens: no case fits, so nothing is visible
      expect(p.tokens.fitsContext, name).toBe(0);
      expect(p.tokens.overflowCases, name).toBe(p.metrics.overall.gradedCases + p.metrics.overall.noToolCases);
      expect(p.metrics.overall.visible, name).toBe(0);
    }
    // the same profiles in a window they fit: visible is back, the no-tool figure is not
    const wide = join(tmp, 'eager-wide');
    expect((await run('eval', '--dataset', dataset, '--profiles', 'static', '--out', wide, '--quiet')).code).toBe(0);
    const s = readResults(wide).profiles.static;
    expect(s.tokens.fitsContext).toBe(1);
    expect(s.metrics.overall.visible).toBe(1);
    expect(s.metrics.overall.noToolFalsePositiveRate).toBe(1);
    // deferred lists only pinned tools in full (the rest as one-line names): its figure is its search's
    const d = results.profiles.deferred.metrics.overall;
    expect(d.noToolFalsePositiveRate).toBe(d.searchNoToolFalsePositiveRate);
  });

  it('refuses calibration it cannot do honestly, with exit 2, naming the flag or file, and writes nothing', async () => {
    const out = join(tmp, 'refused');
    const refuse = async (args: string[], message: RegExp) => {
      const r = await run('eval', '--dataset', dataset, '--retrievers', 'bm25', '--out', out, '--quiet', ...args);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
      expect(existsSync(out)).toBe(false);
    };
    await refuse(['--split', 'test', '--floor', 'auto'], /--floor auto needs --calibrate-on/);
    await refuse(
      ['--calibrate-on', 'train', '--floor', 'auto'],
      /--calibrate-on train \(split "train"\) overlaps the scored cases \(all cases\): \d+ cases are in both/,
    );
    await refuse(['--split', 'test', '--calibrate-on', 'trian', '--floor', 'auto'], /--calibrate-on: no case is in split "trian"; splits here: test, train/);
    await refuse(['--split', 'test', '--calibrate-on', join(tmp, 'nope.jsonl'), '--floor', 'auto'], /nope\.jsonl: --calibrate-on: no such cases file/);
    await refuse(
      ['--split', 'test', '--calibrate-on', 'train', '--floor', 'auto:1.5'],
      /--floor: the target in "auto:1.5" must be a no-tool false-positive rate from 0 to 1/,
    );
    // a cases file over the same catalog: without no-tool cases; repeating a scored case under another id
    const scored = readFileSync(join(dataset, 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((c) => c.split !== 'train' && c.expectedTools?.length === 1);
    const graded = join(tmp, 'calib-graded.jsonl');
    writeFileSync(graded, `${JSON.stringify({ id: 'c1', request: 'open the quarterly report of something', expectedTools: scored[0].expectedTools })}\n`);
    await refuse(['--split', 'test', '--calibrate-on', graded, '--floor', 'auto'], /calib-graded\.jsonl: --calibrate-on .* has no no-tool case/);
    const copied = join(tmp, 'calib-copied.jsonl');
    writeFileSync(
      copied,
      `${JSON.stringify({ id: 'c1', request: scored[0].text, expectedTools: scored[0].expectedTools })}\n${JSON.stringify({ id: 'c2', request: 'hello there', expectedTools: [] })}\n`,
    );
    await refuse(
      ['--split', 'test', '--calibrate-on', copied, '--floor', 'auto'],
      new RegExp(`repeats scored cases \\(--split test\\) under other ids .*c1 = ${scored[0]._id}`),
    );
  });

  it('a floor calibrated on 30 no-tool cases records the 95% interval of its rate and warns, in results.json and on stderr', async () => {
    const words = ['deals', 'tickets', 'pods', 'invoices', 'alerts', 'campaigns', 'contacts', 'builds', 'pages', 'files'];
    const file = join(tmp, 'calib-30.jsonl');
    const lines = Array.from({ length: 30 }, (_, i) => ({ id: `n${i}`, request: `what is the story behind ${words[i % 10]} number ${i}`, expectedTools: [] }));
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(tmp, 'calib-30-out');
    const { r, results } = await evalOk(
      out,
      ...['--dataset', dataset, '--split', 'test', '--calibrate-on', file, '--floor', 'auto:0.1', '--retrievers', 'bm25'],
    );
    const f = results.config.floors.bm25;
    expect(f.calibrationNoToolCases).toBe(30);
    expect(f.calibrationFalsePositiveRate).toBeLessThanOrEqual(0.1);
    const k = Math.round(f.calibrationFalsePositiveRate * 30);
    expect(f.falsePositiveRateInterval).toEqual(clopperPearson(k, 30));
    const [lo, hi] = clopperPearson(k, 30);
    const said = `the floor of bm25 was calibrated on 30 no-tool cases: its false-positive rate there, ${f.calibrationFalsePositiveRate.toFixed(3)} (target 0.1), has a 95% interval of ${lo.toFixed(3)}–${hi.toFixed(3)}`;
    expect(results.warnings.filter((w: string) => w.startsWith(said))).toHaveLength(1);
    expect(r.err).toContain(`warning: ${said}`);
    // the report of these results prints the interval beside the floor
    const report = join(tmp, 'calib-30-report');
    expect((await run('report', out, '--out', report, '--format', 'md')).code).toBe(0);
    expect(readFileSync(join(report, 'summary.md'), 'utf8')).toContain(`95% CI ${lo.toFixed(3)}–${hi.toFixed(3)} over 30 no-tool cases`);
  });

  it('evaluates a plain BEIR folder by split, keeping its no-tool query', async () => {
    const out = join(tmp, 'beir-out');
    const r = await run('eval', '--dataset', 'fixtures/beir-mini', '--split', 'test', '--out', out, '--quiet');
    expect(r.code, r.err).toBe(0);
    const overall = readResults(out).retrievers.bm25.metrics.overall;
    expect(overall.cases).toBe(4);
    expect(overall.noToolCases).toBe(1);
    expect(readFileSync(join(out, 'runs', 'cases.tsv'), 'utf8')).toMatch(/\nq4\tnone\t/);
  });

  it('gives exit 2 and a clear message for bad input', async () => {
    const unknown = await run('eval', '--dataset', dataset, '--retrievers', 'bm26');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown retriever "bm26" \(did you mean bm25/);
    const missing = await run('eval', '--dataset', join(tmp, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no dataset folder or named dataset/);
    const malformed = await run('eval', '--catalog', 'fixtures/catalogs/mcp-folder', '--cases', 'fixtures/faulty/empty-request.jsonl');
    expect(malformed.code).toBe(2);
    expect(malformed.err).toBe('error: fixtures/faulty/empty-request.jsonl: line 2: case "e2": "request" is empty\n');
    expect((await run('eval', '--dataset', dataset, '--k', '0,5')).code).toBe(2);
    expect((await run('eval', '--dataset', dataset, '--shard', '3/2')).code).toBe(2);
    expect((await run('eval', '--dataset', dataset, '--floor', 'bm9=2')).err).toMatch(/name=value for one of the strategies/);
    expect((await run('eval', '--catalog', 'fixtures/catalogs/mcp-folder')).err).toMatch(/needs --cases/);
    const model = await run('eval', '--dataset', dataset, '--retrievers', 'embed', '--model', join(tmp, 'no-model'), '--quiet');
    expect(model.code).toBe(2);
    expect(model.err).toMatch(/is neither a local model folder/);
    expect((await run('eval', '--dataset', dataset, '--model', 'x/y')).err).toMatch(/--model applies to the embed, hybrid and hybrid-rrf retrievers/);
    const split = await run('eval', '--dataset', dataset, '--split', 'nosuch');
    expect(split.code).toBe(2);
    expect(split.err).toMatch(/no case is in split "nosuch"; splits here: test, train/);
    const roles = join(tmp, 'bad-roles.json');
    writeFileSync(roles, JSON.stringify({ always: ['core'], roles: { sre: { tools: ['mcp__kubernetes__*', 'mcp__nowhere__*'] } } }));
    const badRoles = await run('eval', '--dataset', dataset, '--retrievers', 'gate', '--roles', roles, '--quiet');
    expect(badRoles.code).toBe(2);
    expect(badRoles.err).toBe(`error: ${roles}: $.roles.sre.tools[1]: pattern "mcp__nowhere__*" matches no tool of the catalog\n`);
  });

  it('records where the dataset is so a merge elsewhere finds it, and checks the traces file', async () => {
    const traces = join(tmp, 'traces.csv');
    const first = readFileSync(join(dataset, 'queries.jsonl'), 'utf8').split('\n')[0]!;
    writeFileSync(traces, `case_id,called_tool\n${JSON.parse(first)._id},\n`);
    const dirs: string[] = [];
    for (const i of [1, 2]) {
      const d = join(tmp, `tr-shard-${i}`);
      const r = await run('eval', '--dataset', relative(process.cwd(), dataset), '--shard', `${i}/2`, '--traces', traces, '--out', d, '--quiet');
      expect(r.code, r.err).toBe(0);
      dirs.push(d);
    }
    const results = readResults(dirs[0]!);
    expect(results.dataset.source.ref).toBe(dataset); // absolute, though typed relative
    expect(results.config.traces).toMatch(/^[0-9a-f]{64}$/);
    expect((await run('merge', ...dirs, '--out', join(tmp, 'tr-merged'))).err).toMatch(/give the same file with --traces/);
    writeFileSync(join(tmp, 'other.csv'), 'case_id,called_tool\n');
    expect((await run('merge', ...dirs, '--out', join(tmp, 'tr-merged'), '--traces', join(tmp, 'other.csv'))).err).toMatch(/sha256 differs/);
    const ok = await run('merge', ...dirs, '--out', join(tmp, 'tr-merged'), '--traces', traces, '--dataset', dataset);
    expect(ok.code, ok.err).toBe(0);
    expect(
      readResults(tmp, 'tr-merged').retrievers.bm25.agent.tracedGradedCases + readResults(tmp, 'tr-merged').retrievers.bm25.agent.tracedNoToolCases,
    ).toBeLessThanOrEqual(1);
  });
});
