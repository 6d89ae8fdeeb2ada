import { describe, expect, it } from 'vitest';
import { InputError } from '../util/errors.ts';
import { blessedText, jsonPath, parseRegression } from './file.ts';

const SHA = 'a'.repeat(64);
const SHA2 = 'b'.repeat(64);

const YAML = `# Our expected figures
schemaVersion: 1
dataset:
  name: tiny-5
  catalogSha256: ${SHA}
defaults:
  tolerance: { abs: 0.01 }
strategies:
  bm25:
    figures:
      top1: 0.5 # measured on the tiny preset
      # recall is what the agent needs
      recall@5: 0.7
    tolerance:
      top1: { abs: 0.02 }  # approximate on purpose
`;

function problem(text: string, path = 'gate.yaml'): InputError {
  try {
    parseRegression(text, path);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

describe('regression file', () => {
  it('reads YAML and JSON', () => {
    const y = parseRegression(YAML, 'gate.yaml');
    expect(y.spec.strategies.bm25!.figures).toEqual({ top1: 0.5, 'recall@5': 0.7 });
    expect(y.figures.get('bm25')!.map((f) => f.key)).toEqual(['top1', 'recall@5']);
    const j = parseRegression(JSON.stringify(y.spec), 'gate.json');
    expect(j.spec).toEqual(y.spec);
  });

  it('names the file, line and path of a schema error', () => {
    const e = problem(YAML.replace('recall@5: 0.7', 'recall@5: high'));
    expect(e.describe()).toBe('gate.yaml: line 13 ($.strategies.bm25.figures["recall@5"]): must be number');
    const unknown = problem(YAML.replace('defaults:', 'default:'));
    expect(unknown.describe()).toMatch(
      /^gate\.yaml: line 6 \(\$\.default\): unknown field "default" \(did you mean defaults\?\) \(fields here: schemaVersion, dataset, defaults/,
    );
    expect(problem(YAML.replace(`catalogSha256: ${SHA}`, 'catalogSha256: abc')).describe()).toMatch(/line 5 \(\$\.dataset\.catalogSha256\): must be a sha256/);
    expect(problem(YAML.replace('schemaVersion: 1', 'schemaVersion: 2')).describe()).toMatch(/line 2.*newer than this Backpack reads/);
    expect(problem('schemaVersion: 1\n').describe()).toMatch(/missing required field "dataset"/);
  });

  it('names the line of an unknown figure, with a suggestion', () => {
    const e = problem(YAML.replace('recall@5: 0.7', 'recal@5: 0.7'));
    expect(e.where).toBe('line 13 ($.strategies.bm25.figures["recal@5"])');
    expect(e.message).toMatch(/did you mean.*recall/i);
  });

  it('refuses a tolerance for a figure the strategy does not pin', () => {
    expect(problem(YAML.replace('      top1: { abs: 0.02 }', '      mrr@10: { abs: 0.02 }')).describe()).toMatch(/line 15 .*a tolerance for "mrr@10"/);
  });

  it('warns that scopeLeakCount tolerates nothing', () => {
    const y = parseRegression(
      YAML.replace('recall@5: 0.7', 'recall@5: 0.7\n      scopeLeakCount: 0').replace('top1: { abs: 0.02 }', 'scopeLeakCount: { abs: 3 }'),
      'gate.yaml',
    );
    expect(y.warnings.join('\n')).toMatch(/scopeLeakCount tolerates nothing/);
  });

  it('reports YAML and JSON syntax errors with a line', () => {
    expect(problem('schemaVersion: 1\ndataset: [\n').describe()).toMatch(/^gate\.yaml: line \d+: invalid YAML/);
    expect(problem('{\n  "schemaVersion": 1,\n}', 'gate.json').describe()).toMatch(/^gate\.json: line 3: invalid JSON/);
    expect(problem('a: 1\na: 2\n').message).toMatch(/invalid YAML/);
  });

  it('refuses an unknown extension', () => {
    expect(() => parseRegression(YAML, 'gate.toml')).toThrow(/\.yaml, \.yml or \.json/);
  });

  it('formats JSON paths', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['strategies', 'bm25-plain', 'figures', 'top1'])).toBe('$.strategies["bm25-plain"].figures.top1');
  });
});

describe('blessedText', () => {
  const update = {
    dataset: { name: 'tiny-5', catalogSha256: SHA2 },
    strategies: { bm25: { top1: 0.3875432525951557, 'mrr@10': 0.25 }, codex: { 'tokens.beforeSearch': 2473 } },
  };

  it('keeps comments, tolerances and order of a YAML file and changes only the values', () => {
    const text = blessedText(parseRegression(YAML, 'gate.yaml'), 'gate.yaml', update);
    expect(text).toContain('# Our expected figures');
    expect(text).toContain('top1: 0.3875432525951557 # measured on the tiny preset');
    expect(text).toContain('# recall is what the agent needs\n      recall@5: 0.7');
    expect(text).toContain('top1: { abs: 0.02 } # approximate on purpose');
    expect(text).toContain(`catalogSha256: ${SHA2}`);
    const back = parseRegression(text, 'gate.yaml').spec;
    expect(back.strategies.bm25!.figures).toEqual({ top1: 0.3875432525951557, 'recall@5': 0.7, 'mrr@10': 0.25 });
    expect(back.strategies.codex!.figures).toEqual({ 'tokens.beforeSearch': 2473 });
    expect(back.defaults).toEqual({ tolerance: { abs: 0.01 } });
  });

  it('writes a new file in either format that reads back', () => {
    for (const path of ['new.yaml', 'new.json']) {
      const text = blessedText(undefined, path, update);
      const back = parseRegression(text, path).spec;
      expect(back).toEqual({
        schemaVersion: 1,
        dataset: update.dataset,
        strategies: { bm25: { figures: { top1: 0.3875432525951557, 'mrr@10': 0.25 } }, codex: { figures: { 'tokens.beforeSearch': 2473 } } },
      });
    }
    expect(blessedText(undefined, 'new.yaml', update)).toMatch(/^# Expected figures for `backpack gate`/);
  });

  it('keeps the other fields of a JSON file', () => {
    const json = JSON.stringify({ ...parseRegression(YAML, 'gate.yaml').spec, significance: { require: true } }, null, 2);
    const back = JSON.parse(blessedText(parseRegression(json, 'gate.json'), 'gate.json', update));
    expect(back.significance).toEqual({ require: true });
    expect(back.strategies.bm25.tolerance).toEqual({ top1: { abs: 0.02 } });
    expect(Object.keys(back)).toEqual(['schemaVersion', 'dataset', 'defaults', 'strategies', 'significance']);
  });
});
