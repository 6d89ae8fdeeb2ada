/** Codex's skills catalog (`openai/codex` `codex-rs/core-skills/src/render.rs` @0899b7c4). */
import type { Skill } from '../../catalog/types.ts';
import { charBytes, charCount, cutToChars, utf8Bytes } from '../../util/unicode.ts';
import { byName, droppedOf, invocable, type SkillListing, type SkillListingOptions } from './common.ts';

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
