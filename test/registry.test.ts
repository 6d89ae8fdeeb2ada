/**
 * The generic registry (`src/util/registry.ts`) and what the registries' entries declare about
 * themselves: capabilities the evaluation, the diff and the command line ask for instead of
 * knowing strategies by name, and descriptions that say what a strategy does, never how it scored.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG_FORMATS } from '../src/catalog/loaders/registry.ts';
import { createProfile, profileEntries, profileNames, strategyCapabilities } from '../src/profiles/registry.ts';
import { REPORT_FORMAT_TABLE } from '../src/report/formats.ts';
import { createRetriever, retrieverCapabilities, retrieverEntries, retrieverNames } from '../src/retrievers/registry.ts';
import { isComposite } from '../src/retrievers/types.ts';
import { InputError } from '../src/util/errors.ts';
import { Registry } from '../src/util/registry.ts';
import { inputError } from './helpers.ts';

describe('Registry', () => {
  const make = () => new Registry<number>({ one: 1, two: 2 }, { kind: 'widget', reserved: (n) => (n === 'bm25' ? `"${n}" is taken elsewhere` : undefined) });

  it('lists built-in entries in table order, then registered ones, and forgets an unregistered one', () => {
    const r = make();
    r.register('three', 3);
    expect(r.entries()).toEqual([
      ['one', 1],
      ['two', 2],
      ['three', 3],
    ]);
    expect(r.get('three')).toBe(3);
    r.unregister('three');
    r.unregister('one'); // a built-in entry stays
    expect(r.names()).toEqual(['one', 'two']);
    expect(r.get('three')).toBeUndefined();
  });

  it('refuses a taken, reserved or malformed name, in that order', () => {
    const r = make();
    expect(() => r.register('one', 9)).toThrow('widget "one" is already registered');
    expect(() => r.register('bm25', 9)).toThrow('"bm25" is taken elsewhere');
    expect(() => r.register('Bad Name', 9)).toThrow('widget name "Bad Name" must be lowercase letters, digits, dots and dashes');
  });

  it('counts no inherited property as an entry', () => {
    const r = make();
    expect(r.get('constructor')).toBeUndefined();
    expect(inputError(() => r.require('constructor')).message).toMatch(/^unknown widget "constructor"/);
    r.register('constructor', 9);
    expect(r.get('constructor')).toBe(9);
  });

  it('names the unknown with a "did you mean", and parses lists rejecting empty, repeated and unknown names', () => {
    const r = make();
    expect(inputError(() => r.require('tow')).message).toBe('unknown widget "tow" (did you mean two?); widgets: one, two');
    expect(r.parseList(' two ,one,')).toEqual(['two', 'one']);
    expect(inputError(() => r.parseList(',')).message).toBe('no widget named');
    expect(inputError(() => r.parseList('one,one')).message).toBe('widget "one" is listed twice');
    expect(() => r.parseList('one,six')).toThrow(InputError);
  });
});

describe('capabilities', () => {
  it('--model applies to the retrievers and profiles that embed, and only their figures are approximate', () => {
    expect(retrieverNames().filter((n) => retrieverCapabilities(n).usesModel)).toEqual(['embed', 'hybrid', 'hybrid-rrf', 'hybrid-zscore']);
    expect(profileNames().filter((n) => strategyCapabilities(n).usesModel)).toEqual(['semantic-retrieval', 'gated-sticky-deferred', 'routed-deferred']);
    for (const n of [...retrieverNames(), ...profileNames()])
      expect(strategyCapabilities(n).approximate === true, n).toBe(strategyCapabilities(n).usesModel === true);
  });

  it("only embed is tool-local (a tool's score depends on that tool alone)", () => {
    expect(retrieverNames().filter((n) => retrieverCapabilities(n).toolLocal)).toEqual(['embed']);
  });

  it('declares the measured relative costs (the heaviest strategies start first)', () => {
    const costs = Object.fromEntries(
      [...retrieverNames(), ...profileNames()].map((n) => [n, strategyCapabilities(n).costHint ?? 1]).filter(([, c]) => c !== 1),
    );
    expect(costs).toEqual({
      hybrid: 10,
      'hybrid-rrf': 8,
      'hybrid-zscore': 10,
      'semantic-retrieval': 5,
      'gated-sticky-deferred': 5,
      'routed-deferred': 5,
      'namespace-routing': 5,
      embed: 5,
      'claude-code': 6,
      'claude-code-auto': 6,
      gate: 3,
      codex: 2,
      hermes: 2,
      deferred: 2,
      static: 2,
      deepseek: 2,
    });
    expect(strategyCapabilities('no-such-strategy')).toEqual({});
  });

  it('composites declare their children: the hybrids and the seed profiles that search through a retriever', () => {
    const hybrid = createRetriever('hybrid');
    expect(isComposite(hybrid) && hybrid.children.map((c) => c.name)).toEqual(['bm25', 'embed']);
    expect(isComposite(createRetriever('bm25'))).toBe(false);
    expect(isComposite(createProfile('semantic-retrieval'))).toBe(true);
    expect(isComposite({ children: [{}] })).toBe(false);
  });
});

describe('descriptions', () => {
  /** A measured figure: recall or a false-positive rate followed by a number, or a test split named as the source of one. */
  const figure = /recall(@\d+)?[ :]+[01]\.\d|false-positive rate of|test[- ]split/i;
  const all = [...retrieverEntries(), ...profileEntries(), ...Object.entries(CATALOG_FORMATS), ...Object.entries(REPORT_FORMAT_TABLE)];

  it.each(all.map(([name, e]) => [name, e.description]))(
    '%s says what it does, with no benchmark figure (those are in docs/retrievers.md)',
    (_, description) => {
      expect(description).not.toMatch(figure);
    },
  );

  it('the figure pattern catches the figures the descriptions used to quote', () => {
    for (const old of ['MetaTool test-split recall@5 0.562', 'recall@5 0.708 (hybrid-zscore 0.702', 'at a no-tool false-positive rate of 0.1 0.292'])
      expect(old).toMatch(figure);
  });
});
