import { describe, expect, it } from 'vitest';
import lexicon from './data/lexicon.json' with { type: 'json' };
import phrasing from './data/phrasing.json' with { type: 'json' };
import { extractLexicon } from '../../scripts/extract-lexicon.ts';
import { classVerbs, operationPhrasing, paraphraseVerbPhrase, phrasedOperations, phrasingProblems } from './phrasing.ts';
import { Rng } from '../util/rng.ts';
import { OPERATIONS } from './vocab/operations.ts';
import { sharesNoNameWord } from './text.ts';

describe('phrasing data', () => {
  it('validates against the generator data schema, with a lexicon for every verb class', () => {
    expect(phrasingProblems(phrasing, lexicon)).toEqual([]);
  });

  it('broken copies are refused, naming the place', () => {
    const noClass = structuredClone(phrasing);
    noClass.operations.get.verbs = ['nothing'];
    expect(phrasingProblems(noClass, lexicon).join('\n')).toMatch(/operations\/get: verb class "nothing"/);
    const badSense = structuredClone(phrasing);
    badSense.verbClasses.show.senses = ['show'];
    expect(phrasingProblems(badSense, lexicon).join('\n')).toMatch(/verbClasses\/show\/senses\/0/);
    const badFrame = structuredClone(phrasing);
    badFrame.operations.list.frames = ['show everything'];
    expect(phrasingProblems(badFrame, lexicon).join('\n')).toMatch(/operations\/list\/frames\/0/);
    const shares = structuredClone(phrasing);
    shares.objectWording.own = 0.9;
    expect(phrasingProblems(shares, lexicon).join('\n')).toMatch(/own \+ doc \+ casual must be 1/);
  });

  it('lexicon.json is what WordNet gives for the reviewed senses (scripts/extract-lexicon.ts)', () => {
    expect(extractLexicon(phrasing)).toBe(`${JSON.stringify(lexicon, null, 2)}\n`);
  });

  it('words every operation of the vocabulary', () => {
    expect(phrasedOperations().sort()).toEqual(OPERATIONS.map((o) => o.key).sort());
  });

  it('for every operation, some verb of its classes is not a word of its tool name (the paraphrase rule)', () => {
    for (const op of OPERATIONS) {
      const name = op.name('x', 'x');
      const p = operationPhrasing(op.key)!;
      expect(p.verbs.filter((v) => sharesNoNameWord(v, name)).length, op.key).toBeGreaterThan(0);
    }
  });
});

describe('paraphraseVerbPhrase', () => {
  /** The fillers of a contact's frames. */
  const vars = {
    obj: 'contact',
    objs: 'contacts',
    ref: '#12',
    ref2: '#13',
    person: 'Dana',
    field: 'owner',
    value: 'Sam',
    term: 'renewal',
    name: 'Kestrel',
    label: 'urgent',
    place: 'Archive',
    text: 'ok',
  };

  it('fills a frame of the operation with a verb of its classes that the caller did not refuse', () => {
    const r = new Rng(5);
    const allowed = new Set(classVerbs('remove').filter((v) => v !== 'erase'));
    for (let i = 0; i < 50; i++) {
      const vp = paraphraseVerbPhrase('delete', vars, r, (v) => v === 'erase')!;
      expect(vp).toMatch(/contact #12/);
      expect(vp.startsWith('erase')).toBe(false);
      expect([...allowed].some((v) => vp.startsWith(v))).toBe(true);
    }
    expect(paraphraseVerbPhrase('no-such-op', vars, r, () => false)).toBeUndefined();
  });

  it('carries a listed operation by its verb alone in a plain frame for its share of paraphrases, and never an unlisted one', () => {
    const r = new Rng(11);
    const single = new Set(phrasing.plainFrames.frames.single.map((f) => f.replace('{verb}', 'erase').replace('{obj}', 'contact').replace('{ref}', '#12')));
    let plain = 0;
    for (let i = 0; i < 2000; i++) if (single.has(paraphraseVerbPhrase('delete', vars, r, (v) => v !== 'erase')!)) plain++;
    expect(plain / 2000).toBeGreaterThan(phrasing.plainFrames.share - 0.05);
    expect(plain / 2000).toBeLessThanOrEqual(phrasing.plainFrames.share);
    expect(phrasing.plainFrames.operations).not.toHaveProperty('history');
    const own = new Set(phrasing.operations.history.frames.map((f) => f.replace('{verb}', 'show').replace('{obj}', 'contact').replace('{ref}', '#12')));
    for (let i = 0; i < 50; i++) expect(own.has(paraphraseVerbPhrase('history', vars, r, (v) => v !== 'show')!)).toBe(true);
  });

  it('refuses plain frames for an operation it does not word or of a kind it lacks', () => {
    const data = structuredClone(phrasing) as unknown as { plainFrames: { operations: Record<string, string> } };
    data.plainFrames.operations.nope = 'single';
    data.plainFrames.operations.get = 'nokind';
    const problems = phrasingProblems(data, lexicon);
    expect(problems).toContain('phrasing.json/plainFrames/operations: "nope" is not an operation of phrasing.json');
    expect(problems).toContain('phrasing.json/plainFrames/operations/get: no frames of kind "nokind"');
  });
});
