import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir('results-schema');
const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'schemas', 'results.schema.json'), 'utf8'));
const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(schema);

async function run(...argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(argv, { out: () => {}, err: (s) => (err += s) });
  return { code, err };
}

/** results.json of an evaluation of the tiny company with `args`. */
async function evaluated(name: string, ...args: string[]): Promise<Record<string, unknown>> {
  const out = join(tmp, name);
  const r = await run('eval', '--dataset', join(tmp, 'tiny'), '--out', out, '--quiet', ...args);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
}

const errors = () => (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

describe('schemas/results.schema.json', () => {
  let results: Record<string, unknown>;

  it('real results.json files validate: a retriever and profiles, calibrated floors, a shard, fixed floors', async () => {
    expect((await run('generate', '--preset', 'tiny', '--seed', '5', '--out', join(tmp, 'tiny'), '--quiet')).code).toBe(0);
    results = await evaluated(
      'auto',
      '--split',
      'test',
      '--calibrate-on',
      'train',
      '--retrievers',
      'bm25',
      '--profiles',
      'deferred,static',
      '--floor',
      'auto:0.1',
      '--context-window',
      '150000',
    );
    expect(results.profiles).toBeDefined();
    expect(results.skills).toBeDefined();
    expect(validate(results), errors().join('\n')).toBe(true);
    const shard = await evaluated('shard', '--retrievers', 'bm25,bm25-plain', '--floor', 'bm25=3', '--shard', '2/3', '--sticky');
    expect(shard.shard).toEqual({ index: 2, count: 3 });
    expect(validate(shard), errors().join('\n')).toBe(true);
  });

  it('a results.json missing a required key, or with a value of the wrong type, does not', () => {
    const { configHash: _gone, ...missing } = results;
    expect(validate(missing)).toBe(false);
    expect(errors()).toContain(" must have required property 'configHash'");

    const wrong = structuredClone(results) as { dataset: { tools: unknown } };
    wrong.dataset.tools = 'many';
    expect(validate(wrong)).toBe(false);
    expect(errors()).toContain('/dataset/tools must be integer');

    const badFloor = structuredClone(results) as { config: { floors: Record<string, unknown> } };
    badFloor.config.floors.bm25 = { mode: 'auto', target: 0.1 };
    expect(validate(badFloor)).toBe(false);
    expect(errors().some((e) => e.startsWith('/config/floors/bm25 '))).toBe(true);

    const badProfile = structuredClone(results) as { profiles: Record<string, { tokens: { perCase: unknown } }> };
    badProfile.profiles.deferred!.tokens.perCase = null;
    expect(validate(badProfile)).toBe(false);
    expect(errors()).toContain('/profiles/deferred/tokens/perCase must be number');
  });
});
