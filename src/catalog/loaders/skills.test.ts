import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, inputError, tempDir } from '../../../test/helpers.ts';
import { findSkillFiles, loadSkillsFolder, parseSkillMarkdown } from './skills.ts';

const tmp = tempDir('skills');

function writeSkill(root: string, rel: string, text: string): string {
  const file = join(root, rel, 'SKILL.md');
  mkdirSync(join(root, rel), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('loadSkillsFolder', () => {
  const c = loadSkillsFolder(join(FIXTURES, 'skills'));

  it('finds every SKILL.md, in folder order', () => {
    expect(c.tools).toEqual([]);
    expect(c.skills.map((s) => s.name)).toEqual(['csv-summary', 'deploy-production', 'commit-message', 'release-notes']);
    expect(c.skills.map((s) => s.locator)).toEqual([
      'skills/data/csv-summary/SKILL.md',
      'skills/ops/deploy-production/SKILL.md',
      'skills/writing/commit-message/SKILL.md',
      'skills/writing/release-notes/SKILL.md',
    ]);
  });

  it('takes the category from front matter, metadata.category, or the parent folder', () => {
    expect(Object.fromEntries(c.skills.map((s) => [s.name, s.category]))).toEqual({
      'csv-summary': 'analytics',
      'deploy-production': 'ops',
      'commit-message': 'git',
      'release-notes': 'writing',
    });
  });

  it('reads description, when_to_use, disable-model-invocation and the body', () => {
    const notes = c.skills.find((s) => s.name === 'release-notes')!;
    expect(notes.description).toBe('Draft release notes from merged pull requests since the last tag.');
    expect(notes.whenToUse).toBe('When the user asks for a changelog, release notes or "what changed since vX".');
    expect(notes.disableModelInvocation).toBe(false);
    expect(notes.body).toBe(
      '# Release notes\n\n1. List the pull requests merged since the last tag.\n2. Group them into Features, Fixes and Chores.\n3. Write one line per change, newest first.',
    );
    expect(notes.hash).toMatch(/^[0-9a-f]{64}$/);
    const deploy = c.skills.find((s) => s.name === 'deploy-production')!;
    expect(deploy.disableModelInvocation).toBe(true);
    expect(deploy.whenToUse).toBe('');
    expect(c.skills.find((s) => s.name === 'csv-summary')!.description).toBe('Summarise a CSV file: columns, types, row count and obvious anomalies.');
    expect(c.skills.find((s) => s.name === 'commit-message')!.body.startsWith('Summarise the staged diff')).toBe(true);
  });

  it('files skills directly under the root as uncategorized', () => {
    const root = mkdtempSync(join(tmp, 'flat-'));
    writeSkill(root, 'pdf', '---\r\nname: pdf\r\ndescription: Fill PDF forms.\r\n---\r\nUse pdftk.\r\n');
    const [skill] = loadSkillsFolder(root).skills;
    expect(skill).toMatchObject({ name: 'pdf', category: 'uncategorized', locator: `${basename(root)}/pdf/SKILL.md`, body: 'Use pdftk.' });
  });

  it('searches 6 folders deep, skips hidden folders and does not look inside a skill', () => {
    const root = mkdtempSync(join(tmp, 'deep-'));
    writeSkill(root, 'a/b/c/d/e/six', '---\nname: six\ndescription: d\n---\n');
    writeSkill(root, 'a/b/c/d/e/f/seven', '---\nname: seven\ndescription: d\n---\n');
    writeSkill(root, '.hidden/h', '---\nname: h\ndescription: d\n---\n');
    writeSkill(root, 'outer', '---\nname: outer\ndescription: d\n---\n');
    writeSkill(root, 'outer/inner', '---\nname: inner\ndescription: d\n---\n');
    expect(findSkillFiles(root).map((f) => f.slice(root.length + 1))).toEqual(['a/b/c/d/e/six/SKILL.md', 'outer/SKILL.md']);
    expect(loadSkillsFolder(root).skills.find((s) => s.name === 'six')!.category).toBe('e');
  });

  it('rejects duplicate skill names, naming both files', () => {
    const root = mkdtempSync(join(tmp, 'dup-'));
    const first = writeSkill(root, 'a/x', '---\nname: x\ndescription: one\n---\n');
    const second = writeSkill(root, 'b/x', '---\ndescription: two\nname: x\n---\n');
    expect(inputError(() => loadSkillsFolder(root))).toMatchObject({
      message: `duplicate skill name "x" (first defined at ${first}: line 2)`,
      file: second,
      where: 'line 3',
    });
  });
});

describe('SKILL.md errors', () => {
  it.each([
    {
      what: 'missing front matter',
      fixture: 'skills-no-front-matter',
      message: expect.stringContaining('missing YAML front matter'),
      file: 'notes/SKILL.md',
      where: 'line 1',
    },
    {
      what: 'invalid YAML, with its line in the file',
      fixture: 'skills-bad-yaml',
      message: expect.stringMatching(/^invalid YAML in front matter: /),
      file: 'broken/SKILL.md',
      where: 'line 4',
    },
    { what: 'missing description', fixture: 'skills-no-description', message: 'front matter has no "description"', file: 'half/SKILL.md', where: 'line 1' },
  ])('$what', ({ fixture, message, file, where }) => {
    const root = join(FIXTURES, 'faulty', fixture);
    expect(inputError(() => loadSkillsFolder(root))).toMatchObject({ message, file: join(root, file), where });
  });

  it('missing or non-text name, unclosed front matter, bad flag', () => {
    expect(inputError(() => parseSkillMarkdown('---\ndescription: d\n---\n', 'S.md')).message).toBe('front matter has no "name"');
    const e = inputError(() => parseSkillMarkdown('---\ndescription: d\nname: [a, b]\n---\n', 'S.md'));
    expect(e.message).toBe('"name" must be text (got an array)');
    expect(e.where).toBe('line 3');
    expect(inputError(() => parseSkillMarkdown('---\nname: n\ndescription: d\n', 'S.md')).message).toContain('not closed');
    const f = inputError(() => parseSkillMarkdown('---\nname: n\ndescription: d\ndisable-model-invocation: "yes"\n---\n', 'S.md'));
    expect(f.where).toBe('line 4');
  });

  it('an empty or missing root', () => {
    const empty = mkdtempSync(join(tmp, 'none-'));
    expect(inputError(() => loadSkillsFolder(empty)).message).toContain('no SKILL.md found');
    expect(inputError(() => loadSkillsFolder(join(tmp, 'missing'))).message).toBe('file not found');
  });
});
