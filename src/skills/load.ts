/**
 * What a loaded skill costs: its SKILL.md body as each harness injects it.
 * - Codex reads the SKILL.md from disk bounded to `MAX_SKILL_PROMPT_BYTES` = 8,000 bytes (A6);
 *   pinned: the body is cut at the last character boundary within 8,000 UTF-8 bytes, no marker.
 * - Claude Code injects the rendered SKILL.md as one message; after compaction it re-attaches the
 *   most recent invocation of each skill, its first 5,000 tokens, within a shared 25,000 (C2,
 *   [secondary]). Token counts are o200k's, a stand-in for Claude's tokenizer.
 * Only the body is counted (no front matter, no wrapper such as `<skill_content>`).
 */
import type { Skill } from '../catalog/types.ts';
import { countTokens } from '../tokens/count.ts';
import { cutToBytes, utf8Bytes } from '../util/unicode.ts';

export const MAX_SKILL_PROMPT_BYTES = 8_000;
export const CLAUDE_SKILL_REATTACH_TOKENS = 5_000;
export const CLAUDE_SKILL_REATTACH_TOTAL_TOKENS = 25_000;

export interface LoadedSkillCost {
  bodyTokens: number;
  codex: { cap: number; loadedTokens: number; truncated: boolean };
  claudeCode: { reattachCap: number; reattachTokens: number; truncated: boolean };
}

export function loadedSkillCost(skill: Skill): LoadedSkillCost {
  const bodyTokens = countTokens(skill.body);
  const codexTruncated = utf8Bytes(skill.body) > MAX_SKILL_PROMPT_BYTES;
  const codexText = codexTruncated ? cutToBytes(skill.body, MAX_SKILL_PROMPT_BYTES) : skill.body;
  return {
    bodyTokens,
    codex: { cap: MAX_SKILL_PROMPT_BYTES, loadedTokens: codexTruncated ? countTokens(codexText) : bodyTokens, truncated: codexTruncated },
    claudeCode: {
      reattachCap: CLAUDE_SKILL_REATTACH_TOKENS,
      reattachTokens: Math.min(bodyTokens, CLAUDE_SKILL_REATTACH_TOKENS),
      truncated: bodyTokens > CLAUDE_SKILL_REATTACH_TOKENS,
    },
  };
}

/** Whose load cost a session charges: Codex's byte-capped body, or the whole body (Claude Code, Hermes, DSH). */
export type SkillLoadHarness = 'codex' | 'full';

export interface SkillLoad {
  name: string;
  /** Tokens this load added to the context: 0 for a repeat. */
  tokens: number;
  repeat: boolean;
}

/**
 * The skills loaded in one conversation: the first invocation of a skill adds its body, a repeat
 * adds 0 tokens (Claude Code answers a repeat with a short "already loaded" note, counted as 0 here).
 */
export class SkillSession {
  private readonly skills: ReadonlyMap<string, Skill>;
  private readonly harness: SkillLoadHarness;
  /** Loaded skill → its load tokens, in order of the latest invocation (oldest first). */
  private readonly loadedTokens = new Map<string, number>();
  private total = 0;

  constructor(skills: readonly Skill[], harness: SkillLoadHarness = 'full') {
    this.skills = new Map(skills.map((s) => [s.name, s]));
    this.harness = harness;
  }

  /** Invoke skill `name`; throws a `RangeError` for an unknown skill. */
  load(name: string): SkillLoad {
    const skill = this.skills.get(name);
    if (skill === undefined) throw new RangeError(`unknown skill "${name}"`);
    const previous = this.loadedTokens.get(name);
    if (previous !== undefined) {
      this.loadedTokens.delete(name);
      this.loadedTokens.set(name, previous); // now the most recent invocation
      return { name, tokens: 0, repeat: true };
    }
    const cost = loadedSkillCost(skill);
    const tokens = this.harness === 'codex' ? cost.codex.loadedTokens : cost.bodyTokens;
    this.loadedTokens.set(name, tokens);
    this.total += tokens;
    return { name, tokens, repeat: false };
  }

  /** Tokens all loads added so far. */
  get totalTokens(): number {
    return this.total;
  }

  /** Loaded skill names, oldest invocation first. */
  get loaded(): string[] {
    return [...this.loadedTokens.keys()];
  }

  /**
   * Claude Code after compaction: each loaded skill re-attached newest invocation first, at most
   * 5,000 tokens each, until the shared 25,000 is spent (the last one may be cut to what is left).
   */
  claudeReattachTokens(): number {
    let left = CLAUDE_SKILL_REATTACH_TOTAL_TOKENS;
    for (const name of [...this.loadedTokens.keys()].reverse()) {
      if (left <= 0) break;
      const body = loadedSkillCost(this.skills.get(name)!).claudeCode.reattachTokens;
      left -= Math.min(body, left);
    }
    return CLAUDE_SKILL_REATTACH_TOTAL_TOKENS - left;
  }
}
