import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Command, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { configSchema, findConfigFile, loadConfigFile, useConfigFile } from '../src/cli/config-file.ts';
import { buildProgram } from '../src/cli/main.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { BACKPACK_BIN, inputError, tempDir, runCli } from './helpers.ts';

const tmp = tempDir('config');
let folders = 0;

const run = runCli;

/** A fresh folder holding one config file with `text`; returns the file's path. */
function configFile(name: string, text: string): string {
  const dir = join(tmp, `p${++folders}`);
  mkdirSync(dir);
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

const manifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { params: { seed: number; preset: string }; counts: { cases: number } };

describe('config file: precedence and paths', () => {
  it('the file overrides the defaults, and its relative paths are relative to its own folder (YAML)', async () => {
    const file = configFile('backpack.config.yaml', 'generate:\n  preset: tiny\n  seed: 3\n  cases: 30\n  out: data   # next to this file\n  quiet: true\n');
    const r = await run('--config-file', file, 'generate');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const m = manifest(join(file, '..', 'data'));
    expect(m.params.seed).toBe(3);
    expect(m.counts.cases).toBe(30);
  });

  it('flags on the command line override the file; --config-file also goes after the command (JSON)', async () => {
    const file = configFile(
      'settings.json',
      JSON.stringify({ $schema: '../schemas/backpack.config.schema.json', generate: { preset: 'tiny', seed: 3, cases: 30, out: 'data', quiet: true } }),
    );
    const out = join(tmp, 'flag-out');
    const r = await run('generate', '--seed', '4', '--out', out, '--config-file', file);
    expect(r.code).toBe(0);
    expect(manifest(out).params.seed).toBe(4);
    expect(manifest(out).counts.cases).toBe(30);
    expect(existsSync(join(file, '..', 'data'))).toBe(false);
  });

  it('a config for eval drives a real evaluation: retrievers, profiles, k, floors and the context window come from the file', async () => {
    const data = join(tmp, 'tiny');
    expect((await run('generate', '--preset', 'tiny', '--seed', '5', '--out', data, '--quiet')).code).toBe(0);
    const file = configFile(
      'backpack.config.yml',
      [
        'eval:',
        '  dataset: ../tiny',
        '  split: test',
        '  calibrateOn: train',
        '  retrievers: [bm25]',
        '  profiles: deferred',
        '  k: [1, 5]',
        "  floor: 'auto:0.2'",
        '  contextWindow: 150000',
        '  out: results',
        '  quiet: true',
        'report:',
        '  format: md',
      ].join('\n'),
    );
    const r = await run('eval', '--config-file', file);
    expect(r.code, r.err).toBe(0);
    const results = JSON.parse(readFileSync(join(file, '..', 'results', 'results.json'), 'utf8'));
    expect(results.dataset.source).toEqual({ kind: 'dataset', ref: data, split: 'test' });
    expect(results.config.retrievers).toEqual(['bm25']);
    expect(results.config.profiles).toEqual(['deferred']);
    expect(results.config.ks).toEqual([1, 5]);
    expect(results.config.floors.bm25).toMatchObject({ mode: 'auto', target: 0.2, calibratedOn: 'split:train' });
    expect(results.config.contextWindow).toBe(150000);
    // The same file drives report: only Markdown is written.
    const rep = await run('report', join(file, '..', 'results'), '--config-file', file);
    expect(rep.code, rep.err).toBe(0);
    expect(rep.out.trim().split('\n')).toEqual([expect.stringMatching(/summary\.md$/)]);
  });
});

describe('config file: errors exit 2 naming the file and the JSON path', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ['not JSON', 'c.json', '{"eval": {"k": 1,}}', /c\.json: line 1, column \d+: invalid JSON/],
    ['not YAML', 'c.yaml', 'eval:\n  k: [1, 5\n', /c\.yaml: line \d+: invalid YAML/],
    ['an unknown command section', 'c.json', '{"evall": {}}', /c\.json: line 1 \(\$\.evall\): unknown command "evall" \(did you mean eval\?\)/],
    [
      'an unknown key',
      'c.yaml',
      'eval:\n  k: 5\n  retreivers: bm25\n',
      /c\.yaml: line 3 \(\$\.eval\.retreivers\): unknown option "retreivers" of eval \(did you mean retrievers\?\)/,
    ],
    [
      'a flag spelled as on the command line',
      'c.yaml',
      'eval:\n  context-window: 5\n',
      /\(\$\.eval\["context-window"\]\): unknown option "context-window" of eval \(did you mean contextWindow\?\)/,
    ],
    ['a switch that is not a boolean', 'c.json', '{"eval": {"sticky": "yes"}}', /\(\$\.eval\.sticky\): --sticky is a switch: give true or false, not a string/],
    [
      'an object for a list',
      'c.json',
      '{"eval": {"retrievers": {"bm25": true}}}',
      /\(\$\.eval\.retrievers\): --retrievers <list> takes a comma-separated string or an array of strings and numbers, not an object/,
    ],
    ['an array for a single value', 'c.json', '{"run": {"seed": [1, 2]}}', /\(\$\.run\.seed\): --seed <n> takes a string or a number, not an array/],
    ['a section that is not an object', 'c.yaml', 'gate: strict\n', /c\.yaml: line 1 \(\$\.gate\): the options of gate must be an object/],
    [
      "a value the option's parser rejects",
      'c.yaml',
      'eval:\n  workers: 0\n',
      /c\.yaml: line 2 \(\$\.eval\.workers\): --workers <n>: --workers must be a whole number ≥ 1/,
    ],
    [
      'a value outside the choices',
      'c.json',
      '{\n  "generate": {\n    "preset": "giant"\n  }\n}',
      /c\.json: line 3 \(\$\.generate\.preset\): --preset <name>: Allowed choices are tiny, small, monster/,
    ],
    [
      'an unknown retriever in a list',
      'c.json',
      '{"eval": {"retrievers": ["bm25", "bm26"]}}',
      /c\.json: line 1 \(\$\.eval\.retrievers\): --retrievers <list>: unknown retriever "bm26" \(did you mean bm25\?\)/,
    ],
    [
      'cut-offs that are not whole numbers',
      'c.yaml',
      'run:\n  profiles: codex\neval:\n  k: 0,x\n',
      /c\.yaml: line 4 \(\$\.eval\.k\): --k <list>: --k must be a comma-separated list of whole numbers/,
    ],
    [
      'a floor that is not a number, none or auto',
      'c.yaml',
      'eval:\n  floor: lots\n',
      /c\.yaml: line 2 \(\$\.eval\.floor\): --floor <x\|auto\[:T\]\|name=x,…>: "lots" is not a number, "none" or "auto\[:TARGET\]"/,
    ],
    [
      'a floor target outside 0 to 1',
      'c.json',
      '{"run": {"floor": "auto:2"}}',
      /c\.json: line 1 \(\$\.run\.floor\): --floor <x\|auto\[:T\]\|name=x,…>: the target in "auto:2" must be a no-tool false-positive rate from 0 to 1/,
    ],
    [
      'a per-strategy floor list with an entry that names none',
      'c.yaml',
      'eval:\n  floor: [bm25=0.3, "0.2"]\n',
      /c\.yaml: line 2 \(\$\.eval\.floor\): --floor <x\|auto\[:T\]\|name=x,…>: "0\.2" must be name=value/,
    ],
    [
      'a per-strategy floor that is not a number',
      'c.yaml',
      'run:\n  floor: bm25=auto,hybrid=high\n',
      /c\.yaml: line 2 \(\$\.run\.floor\): --floor <x\|auto\[:T\]\|name=x,…>: "high" is not a number/,
    ],
    [
      'a shard that is not i/n',
      'c.yaml',
      'eval:\n  shard: 3/2\n',
      /c\.yaml: line 2 \(\$\.eval\.shard\): --shard <i\/n>: --shard must be i\/n with 1 ≤ i ≤ n \(got "3\/2"\)/,
    ],
    [
      'an unknown report format',
      'c.yaml',
      'report:\n  format: [html, pdf]\n',
      /c\.yaml: line 2 \(\$\.report\.format\): --format <list>: unknown format "pdf"; formats: /,
    ],
    ['a report format listed twice', 'c.json', '{"report": {"format": "md,md"}}', /\(\$\.report\.format\): --format <list>: "md" is listed twice/],
    [
      'a tolerance that is not finite',
      'c.yaml',
      'bless:\n  tolerance: top1=1e999\n',
      /c\.yaml: line 2 \(\$\.bless\.tolerance\): --tolerance <list>: "top1=1e999": not a finite number ≥ 0/,
    ],
    [
      'a tolerance that is not figure=value',
      'c.json',
      '{"bless": {"tolerance": ["top1=0.01", "tokens"]}}',
      /\(\$\.bless\.tolerance\): --tolerance <list>: "tokens" is not figure=value/,
    ],
    [
      'a reason of two lines',
      'c.yaml',
      'bless:\n  reason: |\n    one\n    two\n',
      /c\.yaml: line 2 \(\$\.bless\.reason\): --reason <text>: --reason must be one line/,
    ],
    ['an empty reason', 'c.json', '{"bless": {"reason": " "}}', /\(\$\.bless\.reason\): --reason <text>: --reason is empty/],
    [
      'an unknown diff retriever',
      'c.yaml',
      'diff:\n  retriever: bm26\n',
      /c\.yaml: line 2 \(\$\.diff\.retriever\): --retriever <name>: unknown retriever "bm26" \(did you mean bm25\?\)/,
    ],
    [
      'a context window of 0 tokens',
      'c.yaml',
      'eval:\n  contextWindow: 0\n',
      /c\.yaml: line 2 \(\$\.eval\.contextWindow\): --context-window <tokens>: --context-window must be a whole number ≥ 1/,
    ],
    [
      '0 examples per tool',
      'c.yaml',
      'eval:\n  examplesPerTool: 0\n',
      /\(\$\.eval\.examplesPerTool\): --examples-per-tool <n>: --examples-per-tool must be a whole number ≥ 1/,
    ],
    [
      'a key given twice in a JSON object',
      'c.json',
      '{"eval": {"k": "1", "retrievers": "bm25", "k": "5"}}',
      /c\.json: line 1 \(\$\.eval\.k\): duplicate key "k" \(a key may be given once\)/,
    ],
    [
      'a command section given twice in JSON',
      'c.json',
      '{\n  "eval": {"k": "1"},\n  "run": {},\n  "eval": {"k": "5"}\n}\n',
      /c\.json: line 4 \(\$\.eval\): duplicate key "eval"/,
    ],
    ['a key given twice in YAML', 'c.yaml', 'eval:\n  k: 1\n  k: 5\n', /c\.yaml: line \d+: invalid YAML: Map keys must be unique/],
    ['a file that is not a mapping', 'c.yaml', '- eval\n', /c\.yaml: a config file is a mapping of command names/],
  ];
  it.each(cases)('%s', async (_what, name, text, message) => {
    const file = configFile(name, text);
    const r = await run('--config-file', file, 'list');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).toBe('');
  });

  it('the same key in two different JSON objects is not a duplicate', async () => {
    const file = configFile('c.json', '{"eval": {"k": "1,5", "quiet": true}, "diff": {"k": 3, "quiet": true}}');
    const r = await run('--config-file', file, 'list');
    expect(r.code, r.err).toBe(0);
  });

  it('a YAML alias bomb is refused, not expanded', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const file = configFile('c.yaml', `${levels.join('\n')}\n`);
    const r = await run('--config-file', file, 'list');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/c\.yaml: invalid YAML: .*alias/i);
  });

  it('a --config-file that does not exist', async () => {
    const r = await run('list', '--config-file', join(tmp, 'nowhere.json'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/nowhere\.json: cannot read the config file: no such file/);
  });

  it('two config files in the working folder', () => {
    const dir = join(configFile('backpack.config.json', '{}'), '..');
    writeFileSync(join(dir, 'backpack.config.yml'), '');
    expect(inputError(() => findConfigFile(dir)).message).toMatch(/two config files: backpack\.config\.json and backpack\.config\.yml/);
  });
});

// Budget: 60 s a test, each one `backpack generate` process (measured 2026-12-07 on 2 cores: about
// 3 s quiet, 13–17 s at load 10–13; the three were one test of 10 s quiet and 87 s at load 12–17).
describe('config file found in the working folder (a child process: the working folder is per process)', { timeout: 60_000 }, () => {
  const backpack = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BACKPACK_BIN, ...args], { cwd, encoding: 'utf8' });
  /** A fresh working folder whose config file generates 20 cases of the tiny preset into `data`. */
  const workingFolder = () => join(configFile('backpack.config.json', JSON.stringify({ generate: { preset: 'tiny', cases: 20, out: 'data' } })), '..');

  it('is used and announced on stderr', () => {
    const dir = workingFolder();
    const first = backpack(dir, 'generate');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^using backpack\.config\.json$/m);
    expect(manifest(join(dir, 'data')).counts.cases).toBe(20);
  });

  it('--quiet silences the announcement, the file still used', () => {
    const dir = workingFolder();
    const quiet = backpack(dir, 'generate', '--quiet');
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/using/);
    expect(manifest(join(dir, 'data')).counts.cases).toBe(20);
  });

  it('--no-config-file ignores it', () => {
    const dir = workingFolder();
    // without the file: its out (data) and cases (20) do not apply, the defaults do
    const ignored = backpack(dir, 'generate', '--no-config-file', '--preset', 'tiny', '--seed', '2');
    expect(ignored.status, ignored.stderr).toBe(0);
    expect(ignored.stderr).not.toMatch(/using/);
    expect(ignored.stdout).toMatch(/^wrote datasets\/tiny-2: /);
    expect(manifest(join(dir, 'datasets', 'tiny-2')).counts.cases).toBeGreaterThan(20);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });
});

// That schemas/backpack.config.schema.json is what the program gives is checked with the generated docs (test/docs.test.ts).
describe('the config file JSON Schema', () => {
  const schema = configSchema(buildProgram({ out: () => {}, err: () => {} }));
  const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);

  it('accepts what the CLI accepts and rejects unknown sections, keys and wrong types', () => {
    expect(
      validate({
        $schema: 'x',
        eval: { retrievers: ['bm25', 'hybrid'], floor: 'auto:0.1', contextWindow: 128000, k: '1,5', sticky: true, model: null },
        run: { seed: 7 },
        gate: { strict: true },
        report: null,
      }),
    ).toBe(true);
    expect(validate({ evall: {} })).toBe(false);
    expect(validate({ eval: { retreivers: 'bm25' } })).toBe(false);
    expect(validate({ eval: { sticky: 'yes' } })).toBe(false);
    expect(validate({ run: { seed: [1, 2] } })).toBe(false);
    expect(validate({ generate: { preset: 'giant' } })).toBe(false);
  });
});

describe("config file: driven by commander's metadata, for options added later", () => {
  /** A program with option kinds backpack does not use yet: variadic, negatable, optional argument, a parser. */
  function program(seen: Array<Record<string, unknown>>): Command {
    const p = new Command().exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    useConfigFile(p, { err: () => {} });
    p.command('snap')
      .option('--tags <tag...>', 'tags')
      .option('--color', 'coloured output')
      .option('--no-color', 'plain output')
      .option('--level [n]', 'level', (v) => {
        if (!/^\d+$/.test(v)) throw new InvalidArgumentError('--level must be a whole number');
        return Number(v);
      })
      .requiredOption('--into <file>', 'where')
      .action((opts: Record<string, unknown>) => void seen.push(opts));
    return p;
  }

  it('variadic lists are replaced by the command line, not appended to; negatable switches and optional arguments work', async () => {
    const file = configFile('c.yaml', 'snap:\n  tags: [a, b]\n  color: false\n  level: 3\n  into: out.json\n');
    const seen: Array<Record<string, unknown>> = [];
    await program(seen).parseAsync(['--config-file', file, 'snap'], { from: 'user' });
    await program(seen).parseAsync(['snap', '--tags', 'c', '--color', '--level', '--into', 'x', '--config-file', file], { from: 'user' });
    expect(seen[0]).toEqual({ tags: ['a', 'b'], color: false, level: 3, into: join(file, '..', 'out.json') });
    expect(seen[1]).toEqual({ tags: ['c'], color: true, level: true, into: 'x' });
  });

  it('a value its own parser rejects names the path', () => {
    const file = configFile('c.json', '{"snap": {"level": "high"}}');
    const err = inputError(() => loadConfigFile(file, program([])));
    expect(err.describe()).toMatch(/c\.json: line 1 \(\$\.snap\.level\): --level \[n\]: --level must be a whole number/);
  });
});

describe('docs/config.md', () => {
  it('its YAML example is a valid config file and valid under the schema', () => {
    const text = /```yaml\n([\s\S]*?)```/.exec(readFileSync(join(PACKAGE_ROOT, 'docs', 'config.md'), 'utf8'))![1]!;
    const file = configFile('backpack.config.yaml', text);
    const loaded = loadConfigFile(file, buildProgram({ out: () => {}, err: () => {} }));
    expect([...loaded.values.keys()]).toEqual(['eval', 'report', 'gate']);
    expect(loaded.values.get('eval')).toContainEqual({ key: 'out', value: join(file, '..', 'reports', 'acme'), mandatory: false });
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(configSchema(buildProgram({ out: () => {}, err: () => {} })));
    expect(validate(parseYaml(text))).toBe(true);
  });
});
