import { describe, expect, it } from 'vitest';
import { makeSkill } from '../catalog/model.ts';
import type { Skill } from '../catalog/types.ts';
import {
  claudeCappedEntryText,
  claudeCodeSkillListing,
  claudeSkillBudgetChars,
  codexCatalogDescription,
  codexSkillBudget,
  codexSkillListing,
  CODEX_DESCRIPTION_TRUNCATED_WARNING,
  deepseekSkillListing,
  dshDescription,
  hermesSkillListing,
  renderSkillListing,
  searchedIndexSkillListing,
  SKILL_LISTING_NAMES,
  SKILL_SEARCH_TOOL,
  xmlEscape,
} from './listings.ts';

const sk = (name: string, description: string, more: Partial<Omit<Skill, 'hash' | 'name' | 'description'>> = {}): Skill =>
  makeSkill({ name, description, ...more });

describe('codex (A6)', () => {
  it('budget: 2% of a known window in tokens (at least 1), else 8,000 characters', () => {
    expect(codexSkillBudget(200_000)).toEqual({ unit: 'tokens', value: 4000 });
    expect(codexSkillBudget(99)).toEqual({ unit: 'tokens', value: 1 });
    expect(codexSkillBudget(null)).toEqual({ unit: 'characters', value: 8000 });
    expect(codexSkillBudget(0)).toEqual({ unit: 'characters', value: 8000 });
  });

  it('cuts a description to 1,024 chars (1,021 + ...)', () => {
    expect(codexCatalogDescription('x'.repeat(1024))).toBe('x'.repeat(1024));
    expect(codexCatalogDescription('x'.repeat(1100))).toBe(`${'x'.repeat(1021)}...`);
  });

  // a: "- a: abcdefgh (file: p)\n" = 24 bytes = 6 tokens, minimum "- a: (file: p)\n" = 15 bytes = 4 tokens
  // b: "- b: xy (file: q)\n" = 18 bytes = 5 tokens, minimum 4 tokens. Full 11, minimum 8.
  const a = sk('a', 'abcdefgh', { locator: 'p' });
  const b = sk('b', 'xy', { locator: 'q' });

  it('branch 1: every full line fits (budget 11 tokens = window 550)', () => {
    const l = codexSkillListing([b, a], { contextWindow: 550 });
    expect(l.budget).toEqual({ unit: 'tokens', value: 11 });
    expect(l.text).toBe('- a: abcdefgh (file: p)\n- b: xy (file: q)');
    expect(l.listed).toEqual(['a', 'b']);
    expect(l.withDescription).toEqual(['a', 'b']);
    expect(l.dropped).toEqual([]);
    expect(l.truncatedChars).toBe(0);
    expect(l.warnings).toEqual([]);
  });

  it('branch 2: minimum lines fit, one spare token goes round-robin (budget 9)', () => {
    // spare 1: a's first char (+ space) takes 15→17 bytes = 5 tokens (+1); b cannot pay; a's chars 2..4
    // stay within 20 bytes = 5 tokens (free); the 5th would make 21 bytes = 6 tokens.
    const l = codexSkillListing([a, b], { contextWindow: 450 });
    expect(l.budget).toEqual({ unit: 'tokens', value: 9 });
    expect(l.text).toBe('- a: abcd (file: p)\n- b: (file: q)');
    expect(l.listed).toEqual(['a', 'b']);
    expect(l.withDescription).toEqual(['a']);
    expect(l.truncatedChars).toBe(4 + 2);
    expect(l.warnings).toEqual([]);
  });

  it('branch 2 under a character budget shares equally (upstream test: "ab", "uv")', () => {
    const alpha = sk('alpha-skill', 'abcdef', { locator: 'x/alpha' });
    const beta = sk('beta-skill', 'uvwxyz', { locator: 'x/beta' });
    // minimum lines: "- alpha-skill: (file: x/alpha)" 30 + 1, "- beta-skill: (file: x/beta)" 28 + 1
    const l = codexSkillListing([beta, alpha], { contextWindow: null, codexBudget: { unit: 'characters', value: 31 + 29 + 6 } });
    expect(l.text).toBe('- alpha-skill: ab (file: x/alpha)\n- beta-skill: uv (file: x/beta)');
    expect(l.truncatedChars).toBe(8);
    expect(l.warnings).toEqual([]);
  });

  it('branch 2 warns when the average cut exceeds 100 chars (upstream: 202 chars over 2 skills)', () => {
    const long = sk('long-skill', 'a'.repeat(250), { locator: 'l' });
    const empty = sk('empty-skill', '', { locator: 'e' });
    // minimum lines "- long-skill: (file: l)" 23 + 1, "- empty-skill: (file: e)" 24 + 1; +49: first char costs 2, then 1 → 48 chars
    const l = codexSkillListing([long, empty], { contextWindow: null, codexBudget: { unit: 'characters', value: 24 + 25 + 49 } });
    expect(l.text).toBe(`- empty-skill: (file: e)\n- long-skill: ${'a'.repeat(48)} (file: l)`);
    expect(l.withDescription).toEqual(['long-skill']);
    expect(l.truncatedChars).toBe(202);
    expect(l.warnings).toEqual([CODEX_DESCRIPTION_TRUNCATED_WARNING]);
  });

  it('branch 3: minimum lines greedily in order, the rest omitted (budget 7)', () => {
    const l = codexSkillListing([a, b], { contextWindow: 350 });
    expect(l.text).toBe('- a: (file: p)');
    expect(l.listed).toEqual(['a']);
    expect(l.withDescription).toEqual([]);
    expect(l.dropped).toEqual(['b']);
    expect(l.truncatedChars).toBe(8 + 2);
    expect(l.warnings).toEqual([
      'Exceeded skills context budget of 2%. All skill descriptions were removed and 1 additional skill was not included in the model-visible skills list.',
    ]);
  });

  it('branch 3 keeps scanning after a line that does not fit; skips disabled skills', () => {
    // long minimum "- bbbbbbbbbbbbbbbbbbbb: (file: q)\n" = 34 bytes = 9 tokens; budget 8 = a (4) + c (4)
    const long = sk('b'.repeat(20), 'zz', { locator: 'q' });
    const c = sk('c', 'cc', { locator: 'r' });
    const off = sk('d', 'dd', { locator: 's', disableModelInvocation: true });
    const l = codexSkillListing([off, c, long, a], { contextWindow: 400 });
    expect(l.text).toBe('- a: (file: p)\n- c: (file: r)');
    expect(l.listed).toEqual(['a', 'c']);
    expect(l.dropped).toEqual(['d', 'b'.repeat(20)]);
    expect(l.warnings[0]).toContain('and 1 additional skill was not included');
  });

  it('orders by name, then locator; character budget warning has no "of 2%"', () => {
    const x1 = sk('x', 'one', { locator: 'b' });
    const x2 = sk('x', 'two', { locator: 'a' });
    expect(codexSkillListing([x1, x2], { contextWindow: null }).text).toBe('- x: two (file: a)\n- x: one (file: b)');
    const l = codexSkillListing([a, b], { contextWindow: null, codexBudget: { unit: 'characters', value: 15 } });
    expect(l.warnings[0]).toMatch(/^Exceeded skills context budget\. All skill descriptions were removed and 1 additional skill was/);
  });
});

describe('claude-code (C2)', () => {
  it('budget: window × 4 chars × 1% (200K → 8,000), 8,000 when unknown', () => {
    expect(claudeSkillBudgetChars(200_000)).toBe(8000);
    expect(claudeSkillBudgetChars(1000)).toBe(40);
    expect(claudeSkillBudgetChars(null)).toBe(8000);
  });

  // "- alpha: Aaa. - Use a." 22, "- beta: Bbb." 12, "- gamma: Ccc." 13, + 2 newlines = 49
  const alpha = sk('alpha', 'Aaa.', { whenToUse: 'Use a.' });
  const beta = sk('beta', 'Bbb.');
  const gamma = sk('gamma', 'Ccc.');

  it('everything fits at 49 chars', () => {
    const l = claudeCodeSkillListing([gamma, alpha, beta], { contextWindow: 1225 });
    expect(l.budget).toEqual({ unit: 'characters', value: 49 });
    expect(l.text).toBe('- alpha: Aaa. - Use a.\n- beta: Bbb.\n- gamma: Ccc.');
    expect(l.withDescription).toEqual(['alpha', 'beta', 'gamma']);
    expect(l.warnings).toEqual([]);
  });

  it('without usage, descriptions drop in reverse name order until the text fits (budget 40)', () => {
    // gamma: 49 − 6 = 43 > 40; beta: 43 − 6 = 37 ≤ 40
    const l = claudeCodeSkillListing([alpha, beta, gamma], { contextWindow: 1000 });
    expect(l.text).toBe('- alpha: Aaa. - Use a.\n- beta\n- gamma');
    expect(l.listed).toEqual(['alpha', 'beta', 'gamma']);
    expect(l.withDescription).toEqual(['alpha']);
    expect(l.dropped).toEqual([]);
    expect(l.truncatedChars).toBe(8);
    expect(l.warnings).toHaveLength(1);
  });

  it('least-invoked skills lose their descriptions first', () => {
    // alpha (0 uses) first: 49 − 15 = 34 ≤ 40
    const usage = new Map([
      ['gamma', 5],
      ['beta', 1],
    ]);
    const l = claudeCodeSkillListing([alpha, beta, gamma], { contextWindow: 1000, usage });
    expect(l.text).toBe('- alpha\n- beta: Bbb.\n- gamma: Ccc.');
    expect(l.withDescription).toEqual(['beta', 'gamma']);
    expect(l.truncatedChars).toBe(13);
  });

  it('names are always kept, even over budget', () => {
    const l = claudeCodeSkillListing([alpha, beta, gamma, sk('off', 'x', { disableModelInvocation: true })], { contextWindow: 100 });
    expect(l.text).toBe('- alpha\n- beta\n- gamma');
    expect(l.listed).toEqual(['alpha', 'beta', 'gamma']);
    expect(l.withDescription).toEqual([]);
    expect(l.dropped).toEqual(['off']);
    expect(l.warnings).toHaveLength(2);
  });

  it('caps description + when_to_use at 1,536 chars', () => {
    const big = sk('big', 'd'.repeat(1600));
    expect(claudeCappedEntryText(big)).toBe(`${'d'.repeat(1535)}…`);
    const l = claudeCodeSkillListing([big], { contextWindow: 200_000 });
    expect(l.text).toBe(`- big: ${'d'.repeat(1535)}…`);
    expect(l.truncatedChars).toBe(65);
  });
});

/** Skills in two categories, one of them not model-invocable (the Hermes and searched-index listings group by category). */
const CATEGORISED = [
  sk('zeta', 'Restart the service. Then check logs.', { category: 'ops' }),
  // first sentence is 84 chars; 60 chars end in "production tr", cut back to the last space (57 chars)
  sk('alpha', 'Roll back a deployment when the release breaks production traffic badly and quickly.', { category: 'ops' }),
  sk('beta', 'Review e.g. a PR.  More.', { category: 'dev' }),
  sk('off', 'Hidden.', { category: 'dev', disableModelInvocation: true }),
];

describe('hermes (B4 short descriptions)', () => {
  it('groups by category, sorted, with 60-char first-sentence descriptions', () => {
    const l = hermesSkillListing(CATEGORISED, { contextWindow: 200_000 });
    expect(l.text).toBe(
      [
        '<available_skills>',
        '  dev:',
        '    - beta: Review e.g. a PR.',
        '  ops:',
        '    - alpha: Roll back a deployment when the release breaks production…',
        '    - zeta: Restart the service.',
        '</available_skills>',
      ].join('\n'),
    );
    expect(l.budget).toEqual({ unit: 'none', value: null });
    expect(l.listed).toEqual(['beta', 'alpha', 'zeta']);
    expect(l.withDescription).toEqual(['beta', 'alpha', 'zeta']);
    expect(l.dropped).toEqual(['off']);
    // beta 23 − 17, alpha 84 − 57, zeta 37 − 20
    expect(l.truncatedChars).toBe(6 + 27 + 17);
  });
});

describe('deepseek (DSH)', () => {
  it('XML-escapes < & " (and > \'), after normalising whitespace', () => {
    expect(xmlEscape(`<a & "b" 'c'>`)).toBe('&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;');
    expect(dshDescription('Use <b> & "quote"   spaced\n out ')).toBe('Use &lt;b&gt; &amp; &quot;quote&quot; spaced out');
  });

  it('cuts to 500 chars in all (497 + ...), before escaping', () => {
    // DSH's catalogDescriptionMaxLength counts the `...` (its minimum is 3); a Go port's test: max 50
    // turns "Long   description " ×5 into "Long description Long description Long descript..." (47 + 3).
    expect(dshDescription('a'.repeat(500))).toBe('a'.repeat(500));
    expect(dshDescription('a'.repeat(501))).toBe(`${'a'.repeat(497)}...`);
    expect(dshDescription(`${'a'.repeat(496)}&&&&&`)).toBe(`${'a'.repeat(496)}&amp;...`);
  });

  it('escapes untrusted skill names too (the XML must stay well-formed)', () => {
    const l = deepseekSkillListing([sk('x</available_skills><y>&', 'Desc.')], { contextWindow: 200_000 });
    expect(l.text).toBe(['<available_skills>', '- `x&lt;/available_skills&gt;&lt;y&gt;&amp;`: Desc.', '</available_skills>'].join('\n'));
    expect(l.listed).toEqual(['x</available_skills><y>&']);
  });

  it('renders <available_skills> with - `name`: description lines, sorted by name', () => {
    const l = deepseekSkillListing(
      [sk('b-skill', 'x'.repeat(510)), sk('a-skill', 'Fix <html> & "more".'), sk('c-skill', ''), sk('d-off', 'x', { disableModelInvocation: true })],
      { contextWindow: 200_000 },
    );
    expect(l.text).toBe(
      [
        '<available_skills>',
        '- `a-skill`: Fix &lt;html&gt; &amp; &quot;more&quot;.',
        `- \`b-skill\`: ${'x'.repeat(497)}...`,
        '- `c-skill`',
        '</available_skills>',
      ].join('\n'),
    );
    expect(l.listed).toEqual(['a-skill', 'b-skill', 'c-skill']);
    expect(l.withDescription).toEqual(['a-skill', 'b-skill']);
    expect(l.dropped).toEqual(['d-off']);
    expect(l.truncatedChars).toBe(13);
  });
});

describe('searched-index', () => {
  it('lists categories with their sizes, then the skill_search tool; no names, no descriptions', () => {
    const l = searchedIndexSkillListing(CATEGORISED, { contextWindow: 200_000 });
    expect(l.text).toBe(`<skill_categories>\ndev (1 skill)\nops (2 skills)\n</skill_categories>\n\n${JSON.stringify(SKILL_SEARCH_TOOL)}`);
    expect(l.listed).toEqual([]);
    expect(l.withDescription).toEqual([]);
    expect(l.dropped).toEqual(['off']);
    // every listed skill's description: 37 + 84 + 24
    expect(l.truncatedChars).toBe(37 + 84 + 24);
    expect(SKILL_SEARCH_TOOL.name).toBe('skill_search');
    expect(SKILL_SEARCH_TOOL.inputSchema.required).toEqual(['query']);
  });

  it('escapes untrusted category names inside <skill_categories>', () => {
    const l = searchedIndexSkillListing([sk('a', 'A.', { category: 'x</skill_categories>&' })], { contextWindow: 200_000 });
    expect(l.text.startsWith('<skill_categories>\nx&lt;/skill_categories&gt;&amp; (1 skill)\n</skill_categories>\n')).toBe(true);
  });
});

describe('registry', () => {
  it('has the five listings and renders by name', () => {
    expect(SKILL_LISTING_NAMES).toEqual(['codex', 'claude-code', 'hermes', 'deepseek', 'searched-index']);
    const skills = [sk('a', 'Does a.')];
    for (const name of SKILL_LISTING_NAMES) expect(renderSkillListing(name, skills, { contextWindow: 200_000 }).harness).toBe(name);
    expect(() => renderSkillListing('nope', skills, { contextWindow: 1 })).toThrow(RangeError);
  });

  it('is deterministic and does not depend on input order', () => {
    const skills = [sk('b', 'B.'), sk('a', 'A.'), sk('c', 'C.')];
    for (const name of SKILL_LISTING_NAMES) {
      const one = renderSkillListing(name, skills, { contextWindow: 300 });
      const two = renderSkillListing(name, [...skills].reverse(), { contextWindow: 300 });
      expect(two.text).toBe(one.text);
      expect(two.listed).toEqual(one.listed);
    }
  });
});
