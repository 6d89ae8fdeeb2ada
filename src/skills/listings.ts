/**
 * The skill listing each harness puts in front of the model, rendered from a catalog's skills
 * under that harness's own budget: Codex (`openai/codex` `codex-rs/core-skills/src/render.rs`
 * @0899b7c4), Claude Code (settings schema `skillListingBudgetFraction`, `skillListingMaxDescChars`),
 * Hermes Agent (`NousResearch/hermes-agent` `agent/prompt_builder.py` @00067189, short descriptions
 * as in `tools/tool_search_catalog.py` @13a4e497), DeepSeek DSH (`@deepseek-ai/dsh-tool-skill`,
 * `packages/skill/tool-skill/src/index.ts`, as quoted by ports); the seed article for the searched
 * index. Every renderer is a pure, deterministic function
 * `(skills, {contextWindow, usage?}) => SkillListing`.
 *
 * Shared rules:
 * - skills with `disableModelInvocation` are never listed (Codex lists only skills allowed for
 *   implicit invocation, DSH only model-invocable ones, Claude Code hides manual-only skills); they
 *   count in `dropped`, which holds every input skill that is not in the listing for any reason;
 * - `text` is the skill catalog itself, not the fixed prose a harness wraps around it (Codex's
 *   `## Skills` intro and "How to use skills", Hermes's "Before replying, scan the skills below…");
 * - `truncatedChars` = characters of the description text the harness would show in full
 *   (per renderer: see each one) that the model cannot see.
 */
import type { Skill } from '../catalog/types.ts';
import { normalizeWhitespace, shortDescription } from '../profiles/hermes/index.ts';
import { charBytes, charCount, compareStrings, cutToChars, utf8Bytes } from '../util/unicode.ts';

export interface SkillListingOptions {
  /** Context window in tokens; `null` = unknown (Codex then falls back to `Characters(8000)`, Claude Code to 8,000 chars). */
  contextWindow: number | null;
  /** Invocation counts by skill name (Claude Code drops the descriptions of the least-invoked skills first). */
  usage?: ReadonlyMap<string, number>;
  /** Codex only: an explicit budget instead of {@link codexSkillBudget}'s (e.g. `skills.max_context_tokens`, or a small one for tests). */
  codexBudget?: CodexSkillBudget;
}

export interface SkillListingBudget {
  unit: 'tokens' | 'characters' | 'none';
  value: number | null;
}

export interface SkillListing {
  harness: string;
  text: string;
  budget: SkillListingBudget;
  /** Names visible in the listing, in listing order. */
  listed: string[];
  /** Names whose (possibly cut) description is visible, in listing order. */
  withDescription: string[];
  /** Input skills not in the listing at all (over budget, or `disableModelInvocation`), in input order. */
  dropped: string[];
  truncatedChars: number;
  warnings: string[];
}

export type SkillListingRenderer = (skills: readonly Skill[], opts: SkillListingOptions) => SkillListing;

function invocable(skills: readonly Skill[]): Skill[] {
  return skills.filter((s) => !s.disableModelInvocation);
}

function droppedOf(skills: readonly Skill[], listed: readonly string[]): string[] {
  const shown = new Set(listed);
  return skills.filter((s) => !shown.has(s.name)).map((s) => s.name);
}

const byName = (a: Skill, b: Skill): number => compareStrings(a.name, b.name) || compareStrings(a.locator, b.locator);

// ---------------------------------------------------------------------------------------------
// Codex (codex-rs/core-skills/src/render.rs)
// ---------------------------------------------------------------------------------------------

export const CODEX_DEFAULT_SKILL_METADATA_CHAR_BUDGET = 8_000;
export const CODEX_SKILL_METADATA_CONTEXT_WINDOW_PERCENT = 2;
export const CODEX_MAX_SKILL_DESCRIPTION_CHARS = 1_024;
export const CODEX_TRUNCATED_DESCRIPTION_SUFFIX = '...';
export const CODEX_TRUNCATION_WARNING_THRESHOLD_CHARS = 100;
export const CODEX_DESCRIPTION_TRUNCATED_WARNING =
  'Skill descriptions were shortened to fit the skills context budget. Codex can still see every skill, but some descriptions are shorter. Disable unused skills or plugins to leave more room for the rest.';
export const CODEX_DESCRIPTION_TRUNCATED_WARNING_WITH_PERCENT =
  'Skill descriptions were shortened to fit the 2% skills context budget. Codex can still see every skill, but some descriptions are shorter. Disable unused skills or plugins to leave more room for the rest.';

export type CodexSkillBudget = { unit: 'tokens' | 'characters'; value: number };

/** `default_skill_metadata_budget`: `Tokens(max(1, window·2/100))` for a known window (> 0), else `Characters(8000)`. */
export function codexSkillBudget(contextWindow: number | null): CodexSkillBudget {
  if (contextWindow !== null && Number.isFinite(contextWindow) && contextWindow > 0) {
    return { unit: 'tokens', value: Math.max(1, Math.floor((Math.floor(contextWindow) * CODEX_SKILL_METADATA_CONTEXT_WINDOW_PERCENT) / 100)) };
  }
  return { unit: 'characters', value: CODEX_DEFAULT_SKILL_METADATA_CHAR_BUDGET };
}

/** A description cut to 1,024 chars (1,021 + `...`) when longer. */
export function codexCatalogDescription(description: string): string {
  if (charCount(description) <= CODEX_MAX_SKILL_DESCRIPTION_CHARS) return description;
  return cutToChars(description, CODEX_MAX_SKILL_DESCRIPTION_CHARS - CODEX_TRUNCATED_DESCRIPTION_SUFFIX.length) + CODEX_TRUNCATED_DESCRIPTION_SUFFIX;
}

/** A Codex skill line with the first `descChars` characters of `description` (0 = the minimum line `- name: (file: path)`). */
export function codexSkillLine(name: string, description: string, locator: string, descChars = Infinity): string {
  const desc = descChars === Infinity ? description : cutToChars(description, descChars);
  return desc === '' ? `- ${name}: (file: ${locator})` : `- ${name}: ${desc} (file: ${locator})`;
}

/** Cost of a rendered line plus its trailing `\n`: ceil(bytes/4) under a token budget, characters otherwise. */
export function codexLineCost(unit: CodexSkillBudget['unit'], line: string): number {
  return costFromCounts(unit, charCount(line) + 1, utf8Bytes(line) + 1);
}

function costFromCounts(unit: CodexSkillBudget['unit'], chars: number, bytes: number): number {
  return unit === 'tokens' ? Math.ceil(bytes / 4) : chars;
}

interface CodexLine {
  name: string;
  description: string;
  locator: string;
  descChars: number;
}

/**
 * Codex's skills catalog, emulating `codex-rs/core-skills/src/render.rs` @0899b7c4 (the older path):
 * - lines `- {name}: {description} (file: {locator})` — the older `(file: …)` form, not the newer
 *   `({locator_kind}: {locator})`; the minimum line (no description) is `- {name}: (file: {locator})`,
 *   as upstream's `render_minimum` writes it (the colon stays);
 * - descriptions first cut to 1,024 chars (1,021 + `...`);
 * - order: scope rank, then name, then path — our skills have no scope, so name then locator;
 * - budget {@link codexSkillBudget}; cost per line = ceil(bytes/4) with its `\n` (tokens) or chars;
 * - `allocate_skill_lines`: (1) every full line fits → all; (2) every minimum line fits → the rest of
 *   the budget goes one description character at a time, round-robin in order (a skill is skipped
 *   once fully shown or when its next character's extra cost exceeds what is left; the cut has no
 *   `...`); (3) else minimum lines in order, each kept if it still fits (later, cheaper lines may
 *   still get in), the rest omitted;
 * - warnings as upstream (omitted count; else average truncated chars per skill, ceil, > 100).
 * `truncatedChars` is upstream's `truncated_description_chars`: description chars not shown in
 * case (2); in case (3) every skill's description length (all descriptions are removed). The
 * 1,024-char pre-cut is not counted. **Not modelled:** the skill-root alias table retry
 * (`r0`, `### Skill roots`) — our locators share no absolute root — and the newer path's inline
 * `- N additional skills omitted…` marker and 10,000-token cap on a configured budget.
 */
export function codexSkillListing(skills: readonly Skill[], opts: SkillListingOptions): SkillListing {
  const { unit, value: limit } = opts.codexBudget ?? codexSkillBudget(opts.contextWindow);
  const lines: CodexLine[] = invocable(skills)
    .sort(byName)
    .map((s) => ({ name: s.name, description: codexCatalogDescription(s.description), locator: s.locator, descChars: 0 }));
  const render = (l: CodexLine): string => codexSkillLine(l.name, l.description, l.locator, l.descChars);
  const total = lines.length;

  let included: CodexLine[];
  let truncated = 0;
  let omitted = 0;
  const fullCost = lines.reduce((sum, l) => sum + codexLineCost(unit, codexSkillLine(l.name, l.description, l.locator)), 0);
  const minCosts = lines.map((l) => codexLineCost(unit, codexSkillLine(l.name, '', l.locator)));
  const minimumCost = minCosts.reduce((a, b) => a + b, 0);
  if (fullCost <= limit) {
    for (const l of lines) l.descChars = charCount(l.description);
    included = lines;
  } else if (minimumCost <= limit) {
    roundRobin(unit, lines, limit - minimumCost);
    for (const l of lines) truncated += charCount(l.description) - l.descChars;
    included = lines;
  } else {
    included = [];
    let used = 0;
    lines.forEach((l, i) => {
      const cost = minCosts[i]!;
      if (used + cost <= limit) {
        used += cost;
        included.push(l);
      } else omitted++;
      truncated += charCount(l.description);
    });
  }

  const warnings: string[] = [];
  if (omitted > 0) {
    const prefix = unit === 'tokens' ? 'Exceeded skills context budget of 2%.' : 'Exceeded skills context budget.';
    warnings.push(
      `${prefix} All skill descriptions were removed and ${omitted} additional ${omitted === 1 ? 'skill was' : 'skills were'} not included in the model-visible skills list.`,
    );
  } else if (total > 0 && truncated > 0 && Math.ceil(truncated / total) > CODEX_TRUNCATION_WARNING_THRESHOLD_CHARS) {
    warnings.push(unit === 'tokens' ? CODEX_DESCRIPTION_TRUNCATED_WARNING_WITH_PERCENT : CODEX_DESCRIPTION_TRUNCATED_WARNING);
  }
  const listed = included.map((l) => l.name);
  return {
    harness: 'codex',
    text: included.map(render).join('\n'),
    budget: { unit, value: limit },
    listed,
    withDescription: included.filter((l) => l.descChars > 0).map((l) => l.name),
    dropped: droppedOf(skills, listed),
    truncatedChars: truncated,
    warnings,
  };
}

/**
 * `render_lines_with_description_budget`: hand out `remaining` one description character at a
 * time, round-robin over `lines` in order, until a full pass changes nothing. The extra cost of
 * showing p characters is cost(minimum line + p chars + the separating space + `\n`) − cost(minimum
 * line + `\n`), so under a token budget some characters are free.
 */
function roundRobin(unit: CodexSkillBudget['unit'], lines: CodexLine[], remaining: number): void {
  const prepared = lines.map((l) => {
    const min = codexSkillLine(l.name, '', l.locator);
    const minChars = charCount(min) + 1;
    const minBytes = utf8Bytes(min) + 1;
    const minCost = costFromCounts(unit, minChars, minBytes);
    const bytes = charBytes(l.description);
    const extra = [0];
    let prefixBytes = 0;
    for (let p = 1; p <= bytes.length; p++) {
      prefixBytes += bytes[p - 1]!;
      extra.push(costFromCounts(unit, minChars + p + 1, minBytes + prefixBytes + 1) - minCost);
    }
    return { extra, chars: bytes.length, current: 0 };
  });
  for (;;) {
    let changed = false;
    for (let i = 0; i < lines.length; i++) {
      const p = prepared[i]!;
      const line = lines[i]!;
      if (line.descChars >= p.chars) continue;
      const next = p.extra[line.descChars + 1]!;
      const delta = Math.max(0, next - p.current);
      if (delta <= remaining) {
        line.descChars++;
        p.current = next;
        remaining -= delta;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

// ---------------------------------------------------------------------------------------------
// Claude Code (skillListingBudgetFraction, skillListingMaxDescChars)
// ---------------------------------------------------------------------------------------------

/** `skillListingBudgetFraction` 0.01, as a percentage (integer arithmetic). */
export const CLAUDE_SKILL_LISTING_BUDGET_PERCENT = 1;
/** Pinned conversion: 4 characters per token (200K tokens × 4 × 1% = 8,000 chars). Unverified. */
export const CLAUDE_CHARS_PER_TOKEN = 4;
export const CLAUDE_SKILL_LISTING_FALLBACK_CHARS = 8_000;
export const CLAUDE_SKILL_LISTING_MAX_DESC_CHARS = 1_536;

/** 1% of the window in characters: floor(window × 4 / 100); 8,000 when the window is unknown. */
export function claudeSkillBudgetChars(contextWindow: number | null): number {
  if (contextWindow === null || !Number.isFinite(contextWindow) || contextWindow <= 0) return CLAUDE_SKILL_LISTING_FALLBACK_CHARS;
  return Math.floor((contextWindow * CLAUDE_CHARS_PER_TOKEN * CLAUDE_SKILL_LISTING_BUDGET_PERCENT) / 100);
}

/** `description` + ` - ` + `when_to_use` (the separator only when both are non-empty): the text capped at 1,536 chars. */
export function claudeEntryText(skill: Skill): string {
  return skill.whenToUse !== '' && skill.description !== '' ? `${skill.description} - ${skill.whenToUse}` : skill.description || skill.whenToUse;
}

/** The capped entry text: over 1,536 chars → the first 1,535 + `…`. */
export function claudeCappedEntryText(skill: Skill): string {
  const text = claudeEntryText(skill);
  return charCount(text) <= CLAUDE_SKILL_LISTING_MAX_DESC_CHARS ? text : `${cutToChars(text, CLAUDE_SKILL_LISTING_MAX_DESC_CHARS - 1)}…`;
}

/**
 * Claude Code's skill listing (settings schema: `skillListingBudgetFraction` 0.01 of the window
 * in characters, `skillListingMaxDescChars` 1,536). Pinned, unverified choices:
 * - budget = window × 4 chars/token × 1% (200K → 8,000 chars; the conversion is inferred from a
 *   third-party test suite's "8,000 at the default window"), counted as the characters of `text` (lines joined by `\n`);
 * - entries sorted by name, each `- {name}: {description} - {when_to_use}` (the format is ours;
 *   `- {name}: {description}` without a when_to_use), description + when_to_use capped together at
 *   1,536 chars (1,535 + `…`); a name-only entry is `- {name}`;
 * - on overflow, descriptions are dropped one skill at a time, least-invoked first (`usage`, missing
 *   = 0); ties, and everything when there is no usage map, drop in **reverse name order** (z… first),
 *   until the text fits; names are always kept, even when they alone exceed the budget (warned).
 * `truncatedChars` = characters of description + when_to_use (joined as above) not visible: the
 * part cut by the 1,536 cap, or all of it for a dropped description. The warnings are ours.
 */
export function claudeCodeSkillListing(skills: readonly Skill[], opts: SkillListingOptions): SkillListing {
  const budget = claudeSkillBudgetChars(opts.contextWindow);
  const entries = invocable(skills)
    .sort(byName)
    .map((s) => {
      const raw = claudeEntryText(s);
      const capped = claudeCappedEntryText(s);
      const full = capped === '' ? `- ${s.name}` : `- ${s.name}: ${capped}`;
      const bare = `- ${s.name}`;
      return { skill: s, raw: charCount(raw), capped, full, bare, showDesc: capped !== '' };
    });
  let total = entries.reduce((sum, e) => sum + charCount(e.full), 0) + Math.max(0, entries.length - 1);
  const usage = opts.usage;
  const dropOrder = entries
    .filter((e) => e.showDesc)
    .sort((a, b) => (usage?.get(a.skill.name) ?? 0) - (usage?.get(b.skill.name) ?? 0) || compareStrings(b.skill.name, a.skill.name));
  let droppedDescs = 0;
  for (const e of dropOrder) {
    if (total <= budget) break;
    total -= charCount(e.full) - charCount(e.bare);
    e.showDesc = false;
    droppedDescs++;
  }
  const warnings: string[] = [];
  if (droppedDescs > 0) warnings.push(`${droppedDescs} of ${entries.length} skill descriptions were dropped (least-invoked first) to fit the ${budget}-character skill listing budget.`);
  if (total > budget) warnings.push(`Skill names alone take ${total} characters, over the ${budget}-character budget; names are always kept.`);
  let truncated = 0;
  for (const e of entries) {
    if (!e.showDesc) truncated += e.raw;
    else if (e.raw > CLAUDE_SKILL_LISTING_MAX_DESC_CHARS) truncated += e.raw - (CLAUDE_SKILL_LISTING_MAX_DESC_CHARS - 1);
  }
  const listed = entries.map((e) => e.skill.name);
  return {
    harness: 'claude-code',
    text: entries.map((e) => (e.showDesc ? e.full : e.bare)).join('\n'),
    budget: { unit: 'characters', value: budget },
    listed,
    withDescription: entries.filter((e) => e.showDesc).map((e) => e.skill.name),
    dropped: droppedOf(skills, listed),
    truncatedChars: truncated,
    warnings,
  };
}

// ---------------------------------------------------------------------------------------------
// Hermes (agent/prompt_builder.py, with tool_search_catalog.py's short description)
// ---------------------------------------------------------------------------------------------

/** Characters of a Hermes short description that show the original text (the `…` it appends is not one). */
function hermesVisibleChars(description: string, short: string): number {
  const norm = normalizeWhitespace(description);
  const clipped = short.endsWith('…') && !norm.startsWith(short);
  return charCount(short) - (clipped ? 1 : 0);
}

/**
 * Hermes Agent's skills index, in the shape of `_render_skills_index` (hermes-agent
 * `agent/prompt_builder.py` @00067189): `<available_skills>`, categories sorted, each `  {category}:`
 * followed by `    - {name}: {short description}` lines sorted by name (`    - {name}` when the
 * description is empty), `</available_skills>`. Descriptions are `_short_desc`'s short first sentence
 * ({@link shortDescription}: whitespace normalised, first sentence, over 60 chars clipped at the
 * last space + `…`). No category descriptions (DESCRIPTION.md), no `[names only]` demotion.
 * **No total budget** (none is known upstream for Hermes skills: pinned). `truncatedChars` =
 * characters of the whitespace-normalised description not in the short one.
 */
export function hermesSkillListing(skills: readonly Skill[], _opts: SkillListingOptions): SkillListing {
  const byCategory = new Map<string, Skill[]>();
  for (const s of invocable(skills)) {
    const list = byCategory.get(s.category);
    if (list) list.push(s);
    else byCategory.set(s.category, [s]);
  }
  const lines: string[] = ['<available_skills>'];
  const listed: string[] = [];
  const withDescription: string[] = [];
  let truncated = 0;
  for (const category of [...byCategory.keys()].sort(compareStrings)) {
    lines.push(`  ${category}:`);
    const seen = new Set<string>();
    for (const s of byCategory.get(category)!.sort(byName)) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      const short = shortDescription(s.description);
      lines.push(short === '' ? `    - ${s.name}` : `    - ${s.name}: ${short}`);
      listed.push(s.name);
      if (short !== '') withDescription.push(s.name);
      truncated += charCount(normalizeWhitespace(s.description)) - hermesVisibleChars(s.description, short);
    }
  }
  lines.push('</available_skills>');
  return {
    harness: 'hermes',
    text: lines.join('\n'),
    budget: { unit: 'none', value: null },
    listed,
    withDescription,
    dropped: droppedOf(skills, listed),
    truncatedChars: truncated,
    warnings: [],
  };
}

// ---------------------------------------------------------------------------------------------
// DeepSeek DSH (@deepseek-ai/dsh-tool-skill)
// ---------------------------------------------------------------------------------------------

/** `catalogDescriptionMaxLength` (default 500, minimum 3): the cut description **including** its `...`. */
export const DSH_CATALOG_DESCRIPTION_MAX_LENGTH = 500;
const DSH_TRUNCATION_SUFFIX = '...';

/** XML escape of `& < > " '`. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;'));
}

/** Characters of a normalised DSH description that stay visible: all of it up to 500, else 497 (the `...` takes 3). */
function dshVisibleChars(normalised: string): number {
  const n = charCount(normalised);
  return n > DSH_CATALOG_DESCRIPTION_MAX_LENGTH ? DSH_CATALOG_DESCRIPTION_MAX_LENGTH - DSH_TRUNCATION_SUFFIX.length : n;
}

/**
 * A DSH catalog description: whitespace runs → one space, trimmed; over 500 chars → the first 497 +
 * `...` (500 in all: the maximum counts the suffix, as a Go port's test pins — max 50 → 47 + `...`);
 * then XML-escaped.
 */
export function dshDescription(description: string): string {
  const norm = description.replace(/\s+/g, ' ').trim();
  const cut = charCount(norm) > DSH_CATALOG_DESCRIPTION_MAX_LENGTH ? `${cutToChars(norm, dshVisibleChars(norm))}${DSH_TRUNCATION_SUFFIX}` : norm;
  return xmlEscape(cut);
}

/**
 * DSH's skill catalog (`@deepseek-ai/dsh-tool-skill`): `<available_skills>` then one ``- `name`: description`` line per
 * model-invocable skill, then `</available_skills>` (the enclosing `<system-reminder>` is left out).
 * Pinned: sorted by name (one port sorts, another keeps provider order); the cut is applied to the
 * raw normalised text, then escaped; a name-only line ``- `name` `` when the description is empty;
 * names are XML-escaped too (DSH requires kebab-case names, but ours are not validated, and the
 * catalog must stay well-formed). No total budget. `truncatedChars` = normalised characters not
 * shown (past 497 for a cut description).
 */
export function deepseekSkillListing(skills: readonly Skill[], _opts: SkillListingOptions): SkillListing {
  const sorted = invocable(skills).sort(byName);
  const listed: string[] = [];
  const withDescription: string[] = [];
  let truncated = 0;
  const lines = sorted.map((s) => {
    const desc = dshDescription(s.description);
    const norm = s.description.replace(/\s+/g, ' ').trim();
    truncated += charCount(norm) - dshVisibleChars(norm);
    listed.push(s.name);
    if (desc !== '') withDescription.push(s.name);
    const name = xmlEscape(s.name);
    return desc === '' ? `- \`${name}\`` : `- \`${name}\`: ${desc}`;
  });
  return {
    harness: 'deepseek',
    text: ['<available_skills>', ...lines, '</available_skills>'].join('\n'),
    budget: { unit: 'none', value: null },
    listed,
    withDescription,
    dropped: droppedOf(skills, listed),
    truncatedChars: truncated,
    warnings: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Searched skill index (the seed article's extension)
// ---------------------------------------------------------------------------------------------

/** The `skill_search` meta tool the searched index exposes (MCP-style definition). */
export const SKILL_SEARCH_TOOL = Object.freeze({
  name: 'skill_search',
  description:
    'Search the skill catalog for procedures that match the task. Skill categories and names are listed above; ' +
    'this returns the best-matching skills with their descriptions. Load a skill by name before following it.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need to do, in a few words.' },
      limit: { type: 'integer', minimum: 1, maximum: 25, default: 5, description: 'How many skills to return.' },
    },
    required: ['query'],
  },
});

/**
 * The searched skill index's visible part: `<skill_categories>`, one `{category} (N skills)` line
 * per category (sorted; the category XML-escaped), `</skill_categories>`, a blank line, then the
 * compact JSON of {@link SKILL_SEARCH_TOOL}. Nothing has a description before a search
 * (`withDescription` = []); `truncatedChars` = every listed skill's description length. No budget.
 */
export function searchedIndexSkillListing(skills: readonly Skill[], _opts: SkillListingOptions): SkillListing {
  const byCategory = new Map<string, Set<string>>();
  for (const s of invocable(skills)) {
    const set = byCategory.get(s.category);
    if (set) set.add(s.name);
    else byCategory.set(s.category, new Set([s.name]));
  }
  // Categories with their sizes only: at 2,500 skills even a names-only line per category costs
  // ~19,000 tokens (measured on monster-7), so names come from skill_search, not from the listing.
  const lines: string[] = ['<skill_categories>'];
  const searchable: string[] = [];
  for (const category of [...byCategory.keys()].sort(compareStrings)) {
    const names = [...byCategory.get(category)!].sort(compareStrings);
    // the category is untrusted text inside our own XML element: escaped
    lines.push(`${xmlEscape(category)} (${names.length} skill${names.length === 1 ? '' : 's'})`);
    searchable.push(...names);
  }
  lines.push('</skill_categories>');
  const shown = new Set(searchable);
  const truncated = skills.filter((s) => shown.has(s.name)).reduce((sum, s) => sum + charCount(s.description), 0);
  return {
    harness: 'searched-index',
    text: `${lines.join('\n')}\n\n${JSON.stringify(SKILL_SEARCH_TOOL)}`,
    budget: { unit: 'none', value: null },
    listed: [],
    withDescription: [],
    // not named before a search, but every invocable skill is searchable: only disabled ones are dropped
    dropped: droppedOf(skills, searchable),
    truncatedChars: truncated,
    warnings: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

export const SKILL_LISTINGS = Object.freeze({
  codex: codexSkillListing,
  'claude-code': claudeCodeSkillListing,
  hermes: hermesSkillListing,
  deepseek: deepseekSkillListing,
  'searched-index': searchedIndexSkillListing,
} satisfies Record<string, SkillListingRenderer>);

export type SkillListingName = keyof typeof SKILL_LISTINGS;

export const SKILL_LISTING_NAMES = Object.freeze(Object.keys(SKILL_LISTINGS) as SkillListingName[]);

/** Render the listing registered under `name`; throws a `RangeError` for an unknown name. */
export function renderSkillListing(name: string, skills: readonly Skill[], opts: SkillListingOptions): SkillListing {
  if (!Object.prototype.hasOwnProperty.call(SKILL_LISTINGS, name)) {
    throw new RangeError(`unknown skill listing "${name}" (known: ${SKILL_LISTING_NAMES.join(', ')})`);
  }
  return SKILL_LISTINGS[name as SkillListingName](skills, opts);
}
