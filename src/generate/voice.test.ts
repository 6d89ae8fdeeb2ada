import { describe, expect, it } from 'vitest';
import { Rng } from '../util/rng.ts';
import { generatorDataErrors } from './data-schema.ts';
import { askFrame, contextSentence, mentionForm, VOICE, voiceFrames, withContext } from './voice.ts';

describe('voice (generator 3.0)', () => {
  it('asks bare, as a command or as a question at the data file shares, every frame reachable', () => {
    const r = new Rng(3);
    const seen = new Set<string>();
    let bare = 0;
    let questions = 0;
    const n = 6000;
    for (let i = 0; i < n; i++) {
      const a = askFrame('VP', r);
      if (a.text === 'VP') bare++;
      else seen.add(a.text);
      if (a.question) {
        questions++;
        expect(a.text.endsWith('?'), a.text).toBe(true);
      }
    }
    expect(Math.abs(bare / n - VOICE.bareShare)).toBeLessThan(0.03);
    expect(Math.abs(questions / (n - bare) - VOICE.questionShare)).toBeLessThan(0.03);
    expect(seen.size).toBe(VOICE.commands.length + VOICE.questions.length);
  });

  it('does not frame a verb phrase that already asks', () => {
    const r = new Rng(4);
    for (let i = 0; i < 50; i++) {
      expect(askFrame('list the contacts for me', r).text).toBe('list the contacts for me');
      expect(askFrame('who changed it?', r)).toEqual({ text: 'who changed it?', question: true });
    }
  });

  it('puts context before the ask at its share, a sentence starting the ask afresh', () => {
    const r = new Rng(5);
    let some = 0;
    for (let i = 0; i < 4000; i++) {
      const c = contextSentence(r, i % 2 ? 'read' : 'write');
      if (c) {
        some++;
        expect(c).not.toMatch(/\{\w+\}/);
      }
    }
    expect(Math.abs(some / 4000 - VOICE.contextShare)).toBeLessThan(0.03);
    expect(withContext('the nightly job failed again.', 'can you check it?')).toBe('The nightly job failed again. Can you check it?');
    expect(withContext('before the release freeze kicks in,', 'archive it')).toBe('Before the release freeze kicks in, archive it');
    expect(withContext('', 'archive it')).toBe('archive it');
  });

  it('names a product mostly after the request, rarely as a label or in brackets', () => {
    const r = new Rng(6);
    let label = 0;
    let paren = 0;
    for (let i = 0; i < 4000; i++) {
      const f = mentionForm(r);
      expect(f).toContain('{product}');
      if (f.endsWith(':')) label++;
      if (f.startsWith('(')) paren++;
    }
    expect(label / 4000).toBeLessThan(0.06);
    expect(paren / 4000).toBeLessThan(0.06);
  });

  it('validates its data file: a frame without {vp} or a rate above 1 is refused', () => {
    expect(generatorDataErrors('voice', VOICE)).toEqual([]);
    expect(generatorDataErrors('voice', { ...VOICE, kind: 'voice', about: '', commands: [...VOICE.commands.slice(1), 'no placeholder'] }).join()).toMatch(
      /commands/,
    );
    expect(generatorDataErrors('voice', { ...VOICE, kind: 'voice', about: '', questionShare: 1.5 }).join()).toMatch(/questionShare/);
    expect(voiceFrames().frames).toHaveLength(VOICE.commands.length + VOICE.questions.length);
  });
});
