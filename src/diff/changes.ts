/**
 * What changed between two catalogs, by content hash (`Tool.hash`, `Skill.hash`): tools added,
 * removed and changed (with the fields that differ), matched by id. Deterministic: lists are in
 * tool-id order (code-unit order), fields in the order of the `Tool` type.
 */
import { canonicalJson } from '../util/hash.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { compareStrings } from '../util/unicode.ts';
import { contentWordForms, wordsOnlyIn } from './words.ts';

/** The fields of a tool definition, in the order changes are listed (any other field comes after, sorted). */
export const TOOL_FIELDS = [
  'name',
  'source',
  'server',
  'plugin',
  'namespace',
  'title',
  'summary',
  'description',
  'inputSchema',
  'examples',
  'scopes',
  'pinned',
  'annotations',
] as const;

/** At most this many added or removed words are listed for a changed text field. */
export const MAX_CHANGED_WORDS = 12;

export interface ToolRef {
  id: string;
  namespace: string;
}

export interface ToolChange extends ToolRef {
  /** Fields whose canonical JSON differs, in `TOOL_FIELDS` order. */
  fields: string[];
  /** Content words the new description (with title and summary) has and the old one lacks, and the reverse; when one of them changed. */
  words?: { added: string[]; removed: string[] };
}

/** A removed and an added tool that look like one tool renamed (see {@link detectRenames}). */
export interface DetectedRename {
  from: string;
  to: string;
  namespace: string;
  /** Jaccard of the content-word sets of the two descriptions (with title and summary). */
  similarity: number;
}

/** Two descriptions at least this alike (content-word Jaccard), on the same server with the same input schema, are taken for a rename. */
export const RENAME_MIN_SIMILARITY = 0.5;

export interface CatalogChanges {
  added: ToolRef[];
  removed: ToolRef[];
  /**
   * Removed tools that look renamed: an added tool on the same server (namespace) with the same
   * input schema and a close description. They stay in `added` and `removed` too; this only says
   * which pairs look like one tool (`diff --renames-out` writes them for `eval --renames`).
   */
  renamed: DetectedRename[];
  changed: ToolChange[];
  /** Tools with the same id and hash in both catalogs. */
  unchanged: number;
  /** Skills by name (they do not take part in tool retrieval; listed for completeness). */
  skills: NamedChanges;
  /** Servers and plugins by name (their descriptions and instructions feed namespace routing). */
  servers: NamedChanges;
  plugins: NamedChanges;
}

export interface NamedChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

function namedChanges<T extends { name: string }>(before: readonly T[], after: readonly T[], key: (x: T) => string): NamedChanges {
  const a = new Map(before.map((x) => [x.name, key(x)]));
  const b = new Map(after.map((x) => [x.name, key(x)]));
  const sorted = (xs: Iterable<string>) => [...xs].sort(compareStrings);
  return {
    added: sorted([...b.keys()].filter((n) => !a.has(n))),
    removed: sorted([...a.keys()].filter((n) => !b.has(n))),
    changed: sorted([...b.keys()].filter((n) => a.has(n) && a.get(n) !== b.get(n))),
  };
}

/** Status of a tool id in a diff. */
export type ToolStatus = 'added' | 'removed' | 'changed' | 'unchanged';

export function catalogChanges(before: Catalog, after: Catalog): CatalogChanges {
  const oldById = new Map(before.tools.map((t) => [t.id, t]));
  const newById = new Map(after.tools.map((t) => [t.id, t]));
  const added: ToolRef[] = [];
  const removed: ToolRef[] = [];
  const changed: ToolChange[] = [];
  let unchanged = 0;
  for (const id of [...newById.keys()].sort(compareStrings)) {
    const b = newById.get(id)!;
    const a = oldById.get(id);
    if (!a) added.push(ref(b));
    else if (a.hash !== b.hash) changed.push(toolChange(a, b));
    else unchanged++;
  }
  for (const id of [...oldById.keys()].sort(compareStrings)) if (!newById.has(id)) removed.push(ref(oldById.get(id)!));
  return {
    added,
    removed,
    renamed: detectRenames(
      removed.map((r) => oldById.get(r.id)!),
      added.map((a) => newById.get(a.id)!),
    ),
    changed,
    unchanged,
    skills: namedChanges(before.skills, after.skills, (x) => x.hash),
    servers: namedChanges(before.servers, after.servers, (x) => canonicalJson(x)),
    plugins: namedChanges(before.plugins, after.plugins, (x) => canonicalJson(x)),
  };
}

/** Status of every tool id of either catalog. */
export function statusMap(changes: CatalogChanges, after: Catalog): Map<string, ToolStatus> {
  const status = new Map<string, ToolStatus>();
  for (const t of after.tools) status.set(t.id, 'unchanged');
  for (const t of changes.added) status.set(t.id, 'added');
  for (const t of changes.changed) status.set(t.id, 'changed');
  for (const t of changes.removed) status.set(t.id, 'removed');
  return status;
}

function ref(t: Tool): ToolRef {
  return { id: t.id, namespace: t.namespace };
}

function toolChange(a: Tool, b: Tool): ToolChange {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('hash');
  const known: readonly string[] = TOOL_FIELDS;
  const order = [...TOOL_FIELDS.filter((f) => keys.has(f)), ...[...keys].filter((k) => !known.includes(k)).sort(compareStrings)];
  const field = (t: Tool, k: string) => canonicalJson((t as unknown as Record<string, unknown>)[k] ?? null);
  const fields = order.filter((k) => field(a, k) !== field(b, k));
  const out: ToolChange = { ...ref(b), fields };
  if (fields.some((f) => f === 'description' || f === 'summary' || f === 'title')) {
    const before = contentWordForms(textOf(a));
    const after = contentWordForms(textOf(b));
    out.words = { added: wordsOnlyIn(after, before, MAX_CHANGED_WORDS), removed: wordsOnlyIn(before, after, MAX_CHANGED_WORDS) };
  }
  return out;
}

function textOf(t: Tool): string {
  return `${t.title ?? ''} ${t.summary} ${t.description}`;
}

/**
 * Pairs of a removed and an added tool that look like one tool renamed: the same namespace (its
 * server or plugin), the same input schema (canonical JSON) and descriptions (with title and
 * summary) whose content-word sets have a Jaccard of at least {@link RENAME_MIN_SIMILARITY}. Each
 * tool is in one pair at most: the most alike pairs first (ties by the old id, then the new).
 */
export function detectRenames(removed: readonly Tool[], added: readonly Tool[], min = RENAME_MIN_SIMILARITY): DetectedRename[] {
  const text = (t: Tool) => new Set(contentWordForms([t.title ?? '', t.summary, t.description].join(' ')).keys());
  const schema = (t: Tool) => canonicalJson(t.inputSchema);
  const candidates: DetectedRename[] = [];
  for (const r of removed) {
    const rs = schema(r);
    const rw = text(r);
    for (const a of added) {
      if (a.namespace !== r.namespace || schema(a) !== rs) continue;
      const aw = text(a);
      let both = 0;
      for (const w of rw) if (aw.has(w)) both++;
      const union = rw.size + aw.size - both;
      const similarity = union === 0 ? 1 : both / union;
      if (similarity >= min) candidates.push({ from: r.id, to: a.id, namespace: r.namespace, similarity });
    }
  }
  candidates.sort((x, y) => y.similarity - x.similarity || compareStrings(x.from, y.from) || compareStrings(x.to, y.to));
  const used = new Set<string>();
  const out: DetectedRename[] = [];
  for (const c of candidates) {
    if (used.has(c.from) || used.has(c.to)) continue;
    used.add(c.from);
    used.add(c.to);
    out.push(c);
  }
  return out.sort((x, y) => compareStrings(x.from, y.from));
}
