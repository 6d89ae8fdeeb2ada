/**
 * A folder of skills (Claude Code's layout) as a catalog.
 *
 * Every `SKILL.md` under the root, down to 6 folders deep, is one skill: `<root>/<name>/SKILL.md`,
 * or nested by category `<root>/<category>/<name>/SKILL.md`. A folder that holds a `SKILL.md` is
 * not searched further (its subfolders are the skill's own resources); hidden folders and
 * `node_modules` are skipped; folders are visited in name order, so the skill order is fixed.
 *
 * A `SKILL.md` starts with YAML front matter between `---` lines:
 *   name                      required
 *   description               required
 *   when_to_use               optional (→ `whenToUse`)
 *   disable-model-invocation  optional boolean
 *   category, or metadata.category   optional; default: the folder above the skill's folder when
 *                             that is not the root, else `uncategorized`
 * The body is the markdown after the front matter (leading blank lines and trailing whitespace
 * removed). The locator is the path of the `SKILL.md` relative to the root's parent, with `/`
 * separators (`skills/writing/release-notes/SKILL.md` for root `…/skills`).
 *
 * Errors name the `SKILL.md` and a line: missing or unclosed front matter (line 1), invalid YAML
 * (its line in the file), a missing or non-text `name`/`description` (the line of the key, or
 * line 1 when the key is absent). Two skills with the same name are an error naming both files.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { LineCounter, parseDocument, isMap, isScalar } from 'yaml';
import { InputError } from '../../util/errors.ts';
import { checkConfigSize, readTextFile, yamlErrorMessage, yamlValue } from '../../util/bounded.ts';
import { makeSkill } from '../model.ts';
import type { Catalog, Skill } from '../types.ts';
import { assembleCatalog, type Located } from '../validate.ts';
import { describeJson, isDirectory, isObject, quoted, requireExists } from './common.ts';

export const SKILL_FILE = 'SKILL.md';
/** How many folders below the root a `SKILL.md` may sit. */
export const SKILL_SEARCH_DEPTH = 6;

/** Paths of the `SKILL.md` files under `root` (root included), in a fixed order. */
export function findSkillFiles(root: string, maxDepth = SKILL_SEARCH_DEPTH): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    if (names.includes(SKILL_FILE) && isFileAt(join(dir, SKILL_FILE))) {
      out.push(join(dir, SKILL_FILE));
      return;
    }
    if (depth >= maxDepth) return;
    for (const n of names) {
      if (n.startsWith('.') || n === 'node_modules') continue;
      const p = join(dir, n);
      if (isDirectory(p)) walk(p, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

function isFileAt(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** True if `dir` holds at least one `SKILL.md` within the search depth. */
export function hasSkills(dir: string): boolean {
  return isDirectory(dir) && findSkillFiles(dir).length > 0;
}

export interface SkillFileContext {
  /** Category from the folder layout, used when the front matter names none. */
  category?: string;
  /** Locator to record; default `skills/<name>/SKILL.md`. */
  locator?: string;
}

/** Parse one `SKILL.md` text. `where` is the line of the `name` key, for duplicate-name errors. */
export function parseSkillMarkdown(text: string, file: string, ctx: SkillFileContext = {}): { skill: Skill; where: string } {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (lines[0]?.trim() !== '---') {
    throw new InputError('missing YAML front matter: SKILL.md must start with a "---" line, then name and description, then "---"', { file, where: 'line 1' });
  }
  const close = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
  if (close < 0) throw new InputError('front matter is not closed: no "---" line after the opening one', { file, where: 'line 1' });
  const yamlText = lines.slice(1, close).join('\n');
  // Line i of the YAML text is line i + 1 of the file.
  const fileLine = (yamlLine: number): string => `line ${yamlLine + 1}`;
  checkConfigSize(yamlText, file, 'line 2', 'YAML front matter');
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, prettyErrors: false, logLevel: 'error' });
  const err = doc.errors[0];
  if (err) {
    const line = counter.linePos(err.pos[0]).line;
    throw new InputError(yamlErrorMessage(err.message, 'YAML in front matter'), { file, where: fileLine(line) });
  }
  const data: unknown = yamlValue(doc, file, 'line 2', 'YAML in front matter');
  if (!isObject(data)) throw new InputError(`front matter must be a YAML mapping (got ${describeJson(data)})`, { file, where: 'line 2' });
  const keyLine = (key: string): string => {
    if (isMap(doc.contents)) {
      for (const pair of doc.contents.items) {
        if (isScalar(pair.key) && pair.key.value === key && pair.key.range) return fileLine(counter.linePos(pair.key.range[0]).line);
      }
    }
    return 'line 1';
  };
  const text_ = (key: string, required: boolean): string | undefined => {
    const v = data[key];
    if (v === undefined || v === null) {
      if (required) throw new InputError(`front matter has no "${key}"`, { file, where: keyLine(key) });
      return undefined;
    }
    if (typeof v !== 'string') throw new InputError(`"${key}" must be text (got ${describeJson(v)})`, { file, where: keyLine(key) });
    if (required && v.trim() === '') throw new InputError(`"${key}" is empty`, { file, where: keyLine(key) });
    return v;
  };
  const name = text_('name', true)!.trim();
  const description = text_('description', true)!.trim();
  const whenToUse = text_('when_to_use', false);
  const dmi = data['disable-model-invocation'];
  if (dmi !== undefined && dmi !== null && typeof dmi !== 'boolean') {
    throw new InputError(`"disable-model-invocation" must be true or false (got ${quoted(dmi)})`, { file, where: keyLine('disable-model-invocation') });
  }
  let category = text_('category', false);
  if (category === undefined && isObject(data.metadata) && data.metadata.category !== undefined) {
    if (typeof data.metadata.category !== 'string')
      throw new InputError(`"metadata.category" must be text (got ${describeJson(data.metadata.category)})`, { file, where: keyLine('metadata') });
    category = data.metadata.category;
  }
  const body = lines
    .slice(close + 1)
    .join('\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
  const skill = makeSkill({
    name,
    description,
    ...(whenToUse !== undefined ? { whenToUse: whenToUse.trim() } : {}),
    category: category?.trim() || ctx.category || 'uncategorized',
    body,
    ...(ctx.locator !== undefined ? { locator: ctx.locator } : {}),
    disableModelInvocation: dmi === true,
  });
  return { skill, where: keyLine('name') };
}

/** Load every skill under `root` (see the module comment). */
export function loadSkillsFolder(root: string): Catalog {
  requireExists(root);
  if (!isDirectory(root)) throw new InputError('expected a folder of skills (<root>/<name>/SKILL.md)', { file: root });
  const files = findSkillFiles(root);
  if (files.length === 0) throw new InputError(`no ${SKILL_FILE} found in this folder or ${SKILL_SEARCH_DEPTH} levels below it`, { file: root });
  const absRoot = resolve(root);
  const base = dirname(absRoot);
  const skills: Array<Located<Skill>> = files.map((file) => {
    const skillDir = dirname(resolve(file));
    const parent = dirname(skillDir);
    const category = skillDir !== absRoot && parent !== absRoot ? basename(parent) : undefined;
    const locator = relative(base, resolve(file)).split(sep).join('/');
    const { skill, where } = parseSkillMarkdown(readTextFile(file), file, { ...(category !== undefined ? { category } : {}), locator });
    return { value: skill, file, where };
  });
  return assembleCatalog({ tools: [], skills });
}
