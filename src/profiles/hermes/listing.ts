/**
 * Hermes's deferred catalog listing (`build_catalog_listing_with_form`, `NousResearch/hermes-agent`
 * `tools/tool_search_catalog.py` @13a4e497), which upstream embeds in the `tool_search` description:
 * tools grouped by source label, degraded along a ladder (full → names → groups collapsed to
 * summaries, largest first → none) until it fits the budget at chars/4.
 */
import { charCount } from '../../util/unicode.ts';
import { SHORT_DESCRIPTION_CHARS, shortDescription } from '../../util/short-description.ts';
import { TOOL_CALL_NAME, TOOL_DESCRIBE_NAME, TOOL_SEARCH_NAME } from './bridge.ts';
import { CHARS_PER_TOKEN } from './config.ts';
import { compareCodePoints } from '../../util/py-strings.ts';

export { SHORT_DESCRIPTION_CHARS, shortDescription };

export const LISTING_HEADER = `Deferred tool catalog (call schemas via \`${TOOL_DESCRIBE_NAME}\`, invoke via \`${TOOL_CALL_NAME}\`):`;

/** `full`, `names`, `mixed` (some groups summarised), `groups` (all summarised) or `none` (no listing). */
export type ListingForm = 'full' | 'names' | 'mixed' | 'groups' | 'none';

export interface Listing {
  /** The listing, `null` for `none`. */
  text: string | null;
  form: ListingForm;
}

type GroupMode = 'full' | 'names' | 'summary';

export interface PreparedTool {
  name: string;
  short: string;
  nameLen: number;
  /** characters of `- name: short` (or `- name`) */
  lineLen: number;
}

interface PreparedGroup {
  label: string;
  labelLen: number;
  /** sorted by (name, short description) */
  tools: PreparedTool[];
}

export function prepareTool(name: string, short: string): PreparedTool {
  const nameLen = charCount(name);
  return { name, short, nameLen, lineLen: 2 + nameLen + (short ? 2 + charCount(short) : 0) };
}

export function compareTools(a: PreparedTool, b: PreparedTool): number {
  return compareCodePoints(a.name, b.name) || compareCodePoints(a.short, b.short);
}

const summarySuffix = (n: number) => ` (${n} tools — names not listed; discover via \`${TOOL_SEARCH_NAME}\`)`;
const headLine = (label: string, n: number) => `${label} tools (${n}):`;

function renderGroup(g: PreparedGroup, mode: GroupMode): string {
  const n = g.tools.length;
  if (mode === 'summary') return `${g.label}${summarySuffix(n)}`;
  const lines = [headLine(g.label, n)];
  if (mode === 'full') for (const t of g.tools) lines.push(t.short ? `- ${t.name}: ${t.short}` : `- ${t.name}`);
  else lines.push(g.tools.map((t) => t.name).join(', '));
  return lines.join('\n');
}

/** Characters of `renderGroup(g, mode)`, without rendering it. */
function groupLength(g: PreparedGroup, mode: GroupMode): number {
  const n = g.tools.length;
  if (mode === 'summary') return g.labelLen + charCount(summarySuffix(n));
  const head = g.labelLen + ' tools ('.length + String(n).length + '):'.length;
  let len = head;
  if (mode === 'full') for (const t of g.tools) len += 1 + t.lineLen;
  else {
    len += 1 + 2 * (n - 1);
    for (const t of g.tools) len += t.nameLen;
  }
  return len;
}

/**
 * The ladder of `build_catalog_listing_with_form` over non-empty groups sorted by label: every group
 * full; every group names-only; then groups collapsed to their summary line one at a time, largest
 * names-only rendering first (ties by label), until the listing fits (`mixed`, or `groups` once all
 * are summaries); else `none`. Fits = ceil(characters / 4) ≤ maxTokens. Lengths are computed, and
 * only the chosen listing is rendered.
 */
export function ladder(groups: readonly PreparedGroup[], maxTokens: number): Listing {
  if (groups.length === 0) return { text: null, form: 'none' };
  const headerLen = charCount(LISTING_HEADER);
  const fits = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN) <= maxTokens;
  const render = (modes: readonly GroupMode[]) => [LISTING_HEADER, ...groups.map((g, i) => renderGroup(g, modes[i]!))].join('\n');
  const total = (lens: readonly number[]) => lens.reduce((s, l) => s + 1 + l, headerLen);
  for (const mode of ['full', 'names'] as const) {
    if (fits(total(groups.map((g) => groupLength(g, mode))))) return { text: render(groups.map(() => mode)), form: mode };
  }
  const namesLen = groups.map((g) => groupLength(g, 'names'));
  const modes: GroupMode[] = groups.map(() => 'names');
  let chars = total(namesLen);
  const order = groups.map((_, i) => i).sort((a, b) => namesLen[b]! - namesLen[a]! || compareCodePoints(groups[a]!.label, groups[b]!.label));
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    modes[i] = 'summary';
    chars += groupLength(groups[i]!, 'summary') - namesLen[i]!;
    if (fits(chars)) return { text: render(modes), form: j === order.length - 1 ? 'groups' : 'mixed' };
  }
  return { text: null, form: 'none' };
}

/**
 * Entries grouped by label (`_group_entries`): groups in code-point order of their labels, each
 * group's tools sorted by `compare`.
 */
export function groupByLabel<T>(
  entries: Iterable<{ label: string; tool: T }>,
  compare: (a: T, b: T) => number,
): { label: string; labelLen: number; tools: T[] }[] {
  const byLabel = new Map<string, T[]>();
  for (const { label, tool } of entries) {
    const list = byLabel.get(label);
    if (list) list.push(tool);
    else byLabel.set(label, [tool]);
  }
  return [...byLabel.entries()]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([label, tools]) => ({ label, labelLen: charCount(label), tools: tools.sort(compare) }));
}

/** Tier of an assembly: 0 = bridge off; 1 = a per-tool listing (full, names, mixed); 2 = groups or none. */
export function listingTier(activated: boolean, form: ListingForm): 0 | 1 | 2 {
  if (!activated) return 0;
  return form === 'full' || form === 'names' || form === 'mixed' ? 1 : 2;
}
