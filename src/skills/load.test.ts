import { describe, expect, it } from 'vitest';
import { makeSkill } from '../catalog/model.ts';
import { countTokens } from '../tokens/count.ts';
import { CLAUDE_SKILL_REATTACH_TOTAL_TOKENS, loadedSkillCost, MAX_SKILL_PROMPT_BYTES, SkillSession } from './load.ts';

const skill = (name: string, body: string) => makeSkill({ name, description: 'd', body });

describe('loadedSkillCost', () => {
  it('a small body loads whole in both harnesses', () => {
    const body = '# Title\n\nDo the thing.\n';
    const cost = loadedSkillCost(skill('s', body));
    const t = countTokens(body);
    expect(cost).toEqual({
      bodyTokens: t,
      codex: { cap: 8000, loadedTokens: t, truncated: false },
      claudeCode: { reattachCap: 5000, reattachTokens: t, truncated: false },
    });
  });

  it('Codex cuts the body at 8,000 bytes, on a character boundary', () => {
    expect(MAX_SKILL_PROMPT_BYTES).toBe(8000);
    const exact = loadedSkillCost(skill('s', 'a'.repeat(8000)));
    expect(exact.codex.truncated).toBe(false);
    const over = loadedSkillCost(skill('s', 'a'.repeat(8001)));
    expect(over.codex).toEqual({ cap: 8000, loadedTokens: countTokens('a'.repeat(8000)), truncated: true });
    // 4,001 × "é" (2 bytes) = 8,002 bytes → 4,000 characters
    const wide = loadedSkillCost(skill('s', 'é'.repeat(4001)));
    expect(wide.codex).toEqual({ cap: 8000, loadedTokens: countTokens('é'.repeat(4000)), truncated: true });
  });

  it('Claude Code re-attaches at most 5,000 tokens of a body', () => {
    const body = 'word '.repeat(6000);
    const cost = loadedSkillCost(skill('s', body));
    expect(cost.bodyTokens).toBeGreaterThan(5000);
    expect(cost.claudeCode).toEqual({ reattachCap: 5000, reattachTokens: 5000, truncated: true });
  });
});

describe('SkillSession', () => {
  const a = skill('a', 'Alpha body with some words.');
  const b = skill('b', 'Beta body.');

  it('loads a skill once: a repeat invocation adds 0 tokens', () => {
    const session = new SkillSession([a, b]);
    const ta = countTokens(a.body);
    const tb = countTokens(b.body);
    expect(session.load('a')).toEqual({ name: 'a', tokens: ta, repeat: false });
    expect(session.load('a')).toEqual({ name: 'a', tokens: 0, repeat: true });
    expect(session.totalTokens).toBe(ta);
    expect(session.load('b')).toEqual({ name: 'b', tokens: tb, repeat: false });
    expect(session.load('a').tokens).toBe(0);
    expect(session.totalTokens).toBe(ta + tb);
    expect(session.loaded).toEqual(['b', 'a']);
    expect(() => session.load('nope')).toThrow(RangeError);
  });

  it('charges Codex its byte-capped body', () => {
    const big = skill('big', 'a'.repeat(9000));
    const session = new SkillSession([big], 'codex');
    expect(session.load('big').tokens).toBe(countTokens('a'.repeat(8000)));
  });

  it('re-attaches newest first, 5,000 tokens each, 25,000 in all', () => {
    const bodies = Array.from({ length: 6 }, (_, i) => skill(`s${i}`, 'word '.repeat(6000)));
    const small = skill('small', 'Tiny.');
    const session = new SkillSession([...bodies, small]);
    session.load('small');
    expect(session.claudeReattachTokens()).toBe(countTokens('Tiny.'));
    for (const s of bodies) session.load(s.name);
    expect(session.claudeReattachTokens()).toBe(CLAUDE_SKILL_REATTACH_TOTAL_TOKENS);
  });
});
