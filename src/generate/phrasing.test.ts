import { describe, expect, it } from 'vitest';
import lexicon from './data/lexicon.json' with { type: 'json' };
import phrasing from './data/phrasing.json' with { type: 'json' };
import { extractLexicon } from '../../scripts/extract-lexicon.ts';
import { classVerbs, operationPhrasing, paraphraseVerbPhrase, phrasedOperations, phrasingProblems, requestFrame } from './phrasing.ts';
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

describe('paraphraseVerbPhrase and requestFrame', () => {
  it('fills a frame of the operation with a verb of its classes that the caller did not refuse', () => {
    const r = new Rng(5);
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
    const allowed = new Set(classVerbs('remove').filter((v) => v !== 'erase'));
    for (let i = 0; i < 50; i++) {
      const vp = paraphraseVerbPhrase('delete', vars, r, (v) => v === 'erase')!;
      expect(vp).toMatch(/contact #12/);
      expect(vp.startsWith('erase')).toBe(false);
      expect([...allowed].some((v) => vp.startsWith(v))).toBe(true);
    }
    expect(paraphraseVerbPhrase('no-such-op', vars, r, () => false)).toBeUndefined();
  });

  it('puts the verb phrase bare about half the time, else in a frame, all frames reachable', () => {
    const r = new Rng(9);
    const seen = new Set<string>();
    let bare = 0;
    for (let i = 0; i < 4000; i++) {
      const s = requestFrame('VP', r);
      if (s === 'VP') bare++;
      else seen.add(s);
    }
    expect(bare / 4000).toBeGreaterThan(phrasing.requestFrames.bare - 0.05);
    expect(bare / 4000).toBeLessThan(phrasing.requestFrames.bare + 0.05);
    expect(seen.size).toBe(phrasing.requestFrames.frames.length);
  });
});
