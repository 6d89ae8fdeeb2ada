/**
 * The diff for people: plain text for a terminal (untrusted text stripped of control characters,
 * so a tool description cannot move the cursor or recolour the screen) and Markdown for a pull
 * request comment or a step summary (untrusted text through `escapeMarkdown`).
 */
import { escapeMarkdown, markdownId } from '../util/escape.ts';
import type { ToolStatus } from './changes.ts';
import type { DiffReport, DiffTimings } from './diff.ts';
import type { SideStats } from './rankings.ts';
import type { Takeover } from './movement.ts';

/** Groups of each kind shown in text and Markdown (JSON has them all). */
export const SHOWN = 10;
/** Near-duplicate pairs not involving a change shown in the terminal (JSON and Markdown list more). */
export const OTHER_PAIRS_SHOWN = 5;

/** C0/C1 controls (ESC included), DEL, bidirectional overrides and isolates. */
const TERMINAL_DROPPED = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const LINE_BREAKS = /\r\n|[\n\r\u000B\u000C\u0085\u2028\u2029]/g;

/** Untrusted text for one terminal line: line breaks and tabs become spaces, controls are dropped. */
export function terminalSafe(s: string): string {
  return String(s).replace(LINE_BREAKS, ' ').replace(/\t/g, ' ').replace(TERMINAL_DROPPED, '');
}

type Esc = (s: string) => string;

/** A tool or case id in diff's Markdown (see `markdownId`). */
export const mdId = markdownId;

const fmt = (x: number | null) => (x === null ? '-' : x.toFixed(3));
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const quote = (s: string, max = 100) => {
  const t = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return `"${t}"`;
};

function winnerPhrase(id: string, status: ToolStatus | null, esc: Esc): string {
  const name = esc(id);
  return status === 'added' ? `new tool ${name}` : status === 'changed' ? `changed tool ${name}` : `tool ${name}`;
}

function displacedPhrase(id: string, status: ToolStatus | null, esc: Esc): string {
  const name = esc(id);
  return status === 'removed' ? `removed tool ${name}` : status === 'changed' ? `changed tool ${name}` : name;
}

/** One sentence for a takeover: "new tool X took top-1 from Y on N cases (…)". */
export function takeoverSentence(t: Takeover, esc: Esc = terminalSafe): string {
  let s: string;
  if (t.winner !== null && t.displaced !== null)
    s = `${winnerPhrase(t.winner, t.winnerStatus, esc)} took top-1 from ${displacedPhrase(t.displaced, t.displacedStatus, esc)} on ${plural(t.cases, 'case')}`;
  else if (t.winner !== null) s = `${winnerPhrase(t.winner, t.winnerStatus, esc)} took top-1 on ${plural(t.cases, 'case')} where nothing ranked before`;
  else s = `${displacedPhrase(t.displaced!, t.displacedStatus, esc)} lost top-1 on ${plural(t.cases, 'case')}, where nothing ranks now`;
  const notes: string[] = [];
  if (t.goldLost) notes.push(`${esc(t.displaced!)} was the labelled tool on ${t.goldLost}`);
  if (t.goldGained) notes.push(`${esc(t.winner!)} is the labelled tool on ${t.goldGained}`);
  if (t.winnerStatus === 'unchanged' && (t.displacedStatus === 'unchanged' || t.displacedStatus === null))
    notes.push('neither changed: the catalog-wide statistics moved');
  return notes.length ? `${s} (${notes.join('; ')})` : s;
}

function changeLines(r: DiffReport, esc: Esc, style: 'text' | 'markdown'): string[] {
  const c = r.changes;
  const lines: string[] = [];
  const [bullet, plus, minus, tilde] = style === 'text' ? ['  ', '+ ', '− ', '~ '] : ['- ', 'added ', 'removed ', 'changed '];
  const show = <T>(list: readonly T[], line: (x: T) => string) => {
    for (const x of list.slice(0, SHOWN * 2)) lines.push(`${bullet}${line(x)}`);
    if (list.length > SHOWN * 2) lines.push(`${bullet}… and ${list.length - SHOWN * 2} more`);
  };
  // ids as code spans in Markdown; the terminal's ids as they are (made safe)
  const id = style === 'markdown' ? mdId : esc;
  show(c.added, (t) => `${plus}${id(t.id)} (${esc(t.namespace)})`);
  show(c.removed, (t) => `${minus}${id(t.id)} (${esc(t.namespace)})`);
  // (results written before renames were detected have none)
  show(
    c.renamed ?? [],
    (x) =>
      `${style === 'text' ? '↔ ' : 'renamed? '}${id(x.from)} → ${id(x.to)} (${esc(x.namespace)}: same input schema, descriptions ${x.similarity.toFixed(2)} alike; eval --renames maps its cases)`,
  );
  show(c.changed, (t) => {
    const words = t.words ? `; words added: ${t.words.added.map(esc).join(', ') || 'none'}; removed: ${t.words.removed.map(esc).join(', ') || 'none'}` : '';
    return `${tilde}${id(t.id)}: ${t.fields.join(', ')}${words}`;
  });
  return lines;
}

function sideLine(name: string, s: SideStats): string {
  const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const parts: string[] = [];
  if (s.sameAsOld) return `${name}: identical to the old catalog, nothing to rank`;
  if (s.fromCache) parts.push(`${plural(s.fromCache, 'case')} from the rankings cache`);
  if (s.derived) parts.push(`${plural(s.derived, 'case')} ranked from the old ranking and ${plural(s.deltaTools ?? 0, 'changed tool')}`);
  if (s.searched) parts.push(`${plural(s.searched, 'case')} searched`);
  if (s.indexMs || s.searchMs) parts.push(`index ${sec(s.indexMs)}, search ${sec(s.searchMs)}`);
  const embed = (label: string, x: Record<string, number> | undefined) =>
    x && x.embedded !== undefined
      ? `${label}: ${plural(x.embedded, 'text')} embedded, ${(x.cacheHits ?? 0).toLocaleString('en-US')} from the vector cache`
      : null;
  for (const e of [embed('changed-tools index', s.deltaIndex), embed('full index', s.index)]) if (e) parts.push(e);
  return `${name}: ${parts.join('; ') || 'nothing to rank'}`;
}

/** The timing lines (they vary run to run). */
export function timingLines(t: DiffTimings): string[] {
  return [
    `evaluation: ${sideLine('old catalog', t.old)}`,
    `            ${sideLine('new catalog', t.new)}`,
    `            near-duplicates ${(t.nearDuplicatesMs / 1000).toFixed(2)} s (${t.nearDuplicatesFrom}); diff ${(t.totalMs / 1000).toFixed(2)} s${t.loadMs !== undefined ? ` (+ loading ${(t.loadMs / 1000).toFixed(2)} s)` : ''}`,
  ];
}

/** The conclusion line. */
export function verdict(r: DiffReport, esc: Esc = terminalSafe): string {
  if (r.review.required) {
    const renamedTo = new Map((r.changes.renamed ?? []).map((x) => [x.from, x.to]));
    const tools = r.review.tools.slice(0, 5).map((t) => {
      if (t.status !== 'removed') return `${esc(t.tool)} lost top-1 as the labelled tool on ${plural(t.goldLost, 'case')}`;
      const to = renamedTo.get(t.tool);
      return `${esc(t.tool)} was ${to ? `renamed to ${esc(to)} (likely)` : 'removed'}: the labelled tool of ${plural(t.goldLost, 'case')}`;
    });
    const more = r.review.tools.length > 5 ? `, and ${r.review.tools.length - 5} more tools` : '';
    return `review required: ${tools.join('; ')}${more} (threshold: ${plural(r.review.threshold, 'case')})`;
  }
  if (r.moved.top1 === 0 && r.moved.topK === 0) return 'no tool moved: every case keeps its top-1 and top-k';
  return `no review required: no tool present in both catalogs lost top-1 as the labelled tool on ${plural(r.review.threshold, 'case')} or more, and no removed tool is the labelled tool of that many`;
}

/** The report as terminal text. */
export function formatDiffText(r: DiffReport, timings?: DiffTimings): string {
  const esc = terminalSafe;
  const k = r.k;
  const out: string[] = [];
  const c = r.changes;
  out.push(`registry diff: ${esc(r.old.catalog)} (${plural(r.old.tools, 'tool')}) → ${esc(r.new.catalog)} (${plural(r.new.tools, 'tool')})`);
  out.push(`retriever ${esc(r.retriever.name)}, top-${k}, ${plural(r.cases.toolLabelled, 'case')} labelled for tools (${esc(r.cases.from)})`);
  out.push('');
  out.push(`changes: ${c.added.length} added, ${c.removed.length} removed, ${c.changed.length} changed, ${c.unchanged.toLocaleString('en-US')} unchanged`);
  out.push(...changeLines(r, esc, 'text'));
  for (const [what, n, note] of [
    ['skills', c.skills, ' (not part of tool retrieval)'],
    ['servers', c.servers, ''],
    ['plugins', c.plugins, ''],
  ] as const) {
    if (n.added.length + n.removed.length + n.changed.length)
      out.push(`  ${what}: ${n.added.length} added, ${n.removed.length} removed, ${n.changed.length} changed${note}`);
  }
  out.push('');
  const o = r.overall;
  const delta = (a: number | null, b: number | null) => (a !== null && b !== null ? ` (${signed(b - a)})` : '');
  out.push(
    `overall: top1 ${fmt(o.old.top1)} → ${fmt(o.new.top1)}${delta(o.old.top1, o.new.top1)}, recall@${k} ${fmt(o.old.recallAtK)} → ${fmt(o.new.recallAtK)}${delta(o.old.recallAtK, o.new.recallAtK)} over ${plural(o.new.graded, 'graded case')}`,
  );
  if (r.moved.top1 === 0 && r.moved.topK === 0) out.push('moved: no tool moved (no case changed its top-1 or its top-' + k + ')');
  else out.push(`moved: top-1 changed on ${plural(r.moved.top1, 'case')}, the top-${k} on ${plural(r.moved.topK, 'case')}`);
  if (r.takeovers.length) {
    out.push('', 'top-1 takeovers:');
    for (const t of r.takeovers.slice(0, SHOWN)) {
      out.push(`  ${takeoverSentence(t, esc)}`);
      for (const e of t.examples) out.push(`      ${esc(e.id)} ${esc(quote(e.request))}`);
    }
    if (r.takeovers.length > SHOWN) out.push(`  … and ${r.takeovers.length - SHOWN} more (--json has them all)`);
  }
  if (r.dropouts.length) {
    out.push('', `dropped out of the top-${k}:`);
    for (const d of r.dropouts.slice(0, SHOWN)) {
      const by = d.pushedOutBy.map((p) => `${esc(p.tool)} (${p.cases})`).join(', ');
      out.push(
        `  tool ${esc(d.tool)} dropped out of the top-${k} on ${plural(d.cases, 'case')}${d.goldLost ? ` (the labelled tool on ${d.goldLost})` : ''}${by ? `, pushed out by ${by}` : ''}`,
      );
    }
    if (r.dropouts.length > SHOWN) out.push(`  … and ${r.dropouts.length - SHOWN} more`);
  }
  if (r.neverSurfaceNow.length) {
    out.push(
      '',
      `surfaced before, now in no case's top-${k}: ${r.neverSurfaceNow
        .slice(0, SHOWN * 2)
        .map(esc)
        .join(', ')}${r.neverSurfaceNow.length > SHOWN * 2 ? `, … (${r.neverSurfaceNow.length} in all)` : ''}`,
    );
  }
  if (r.namespaces.length) {
    out.push('', `namespaces whose recall@${k} fell:`);
    for (const n of r.namespaces.slice(0, SHOWN))
      out.push(`  ${esc(n.namespace)}: ${fmt(n.old)} → ${fmt(n.new)} (${signed(n.delta)}) over ${plural(n.cases, 'case')}`);
    if (r.namespaces.length > SHOWN) out.push(`  … and ${r.namespaces.length - SHOWN} more`);
  }
  const nd = r.nearDuplicates;
  out.push(
    '',
    `near-duplicates (Jaccard ≥ ${nd.similarity} of the ${nd.text}): ${plural(nd.pairs, 'pair')} in the new catalog (${plural(nd.tools, 'tool')}), ${nd.pairsInvolvingChanges} involving added or changed tools`,
  );
  const shown = [...nd.listed.filter((p) => p.involvesChange).slice(0, SHOWN * 2), ...nd.listed.filter((p) => !p.involvesChange).slice(0, OTHER_PAIRS_SHOWN)];
  for (const p of shown) {
    out.push(`  ${esc(p.a)} ~ ${esc(p.b)}  Jaccard ${p.jaccard.toFixed(2)}${p.involvesChange ? ', involves a change' : ''}`);
    for (const s of p.suggestions) out.push(`      ${esc(s)}`);
  }
  if (shown.length < nd.pairs) out.push(`  (${shown.length} of ${plural(nd.pairs, 'pair')} shown; --json lists ${nd.listed.length})`);
  if (timings) out.push('', ...timingLines(timings));
  out.push('', verdict(r, esc));
  return `${out.join('\n')}\n`;
}

/** The report as Markdown (GitHub-flavoured): every untrusted string escaped. */
export function formatDiffMarkdown(r: DiffReport): string {
  const esc = escapeMarkdown;
  const id = mdId;
  const k = r.k;
  const c = r.changes;
  const o = r.overall;
  const out: string[] = [];
  out.push(`## Registry diff: ${esc(r.old.catalog)} → ${esc(r.new.catalog)}`, '');
  out.push(`Retriever **${esc(r.retriever.name)}**, top-${k}, ${plural(r.cases.toolLabelled, 'case')} labelled for tools (${esc(r.cases.from)}).`, '');
  out.push(`**${verdict(r, mdId)}**`, '');
  out.push('| | old | new |', '|---|---:|---:|');
  out.push(`| tools | ${r.old.tools} | ${r.new.tools} |`);
  out.push(`| top1 | ${fmt(o.old.top1)} | ${fmt(o.new.top1)} |`);
  out.push(`| recall@${k} | ${fmt(o.old.recallAtK)} | ${fmt(o.new.recallAtK)} |`, '');
  out.push(`### Changes`, '', `${c.added.length} added, ${c.removed.length} removed, ${c.changed.length} changed, ${c.unchanged} unchanged.`, '');
  out.push(...changeLines(r, esc, 'markdown'));
  out.push('');
  out.push('### Moved cases', '');
  if (r.moved.top1 === 0 && r.moved.topK === 0) out.push('No tool moved: no case changed its top-1 or its top-' + k + '.', '');
  else out.push(`Top-1 changed on ${plural(r.moved.top1, 'case')}, the top-${k} on ${plural(r.moved.topK, 'case')}.`, '');
  if (r.takeovers.length) {
    out.push('| takeover | cases | examples |', '|---|---:|---|');
    for (const t of r.takeovers.slice(0, SHOWN))
      out.push(`| ${takeoverSentence(t, id)} | ${t.cases} | ${t.examples.map((e) => `${id(e.id)}: ${esc(quote(e.request))}`).join('<br>')} |`);
    if (r.takeovers.length > SHOWN) out.push(`| … and ${r.takeovers.length - SHOWN} more | | |`);
    out.push('');
  }
  if (r.dropouts.length) {
    out.push(`| dropped out of the top-${k} | cases | labelled | pushed out by |`, '|---|---:|---:|---|');
    for (const d of r.dropouts.slice(0, SHOWN))
      out.push(`| ${id(d.tool)} | ${d.cases} | ${d.goldLost} | ${d.pushedOutBy.map((p) => `${id(p.tool)} (${p.cases})`).join(', ')} |`);
    out.push('');
  }
  if (r.neverSurfaceNow.length) out.push(`Surfaced before, now in no case's top-${k}: ${r.neverSurfaceNow.map(id).join(', ')}.`, '');
  if (r.namespaces.length) {
    out.push(`| namespace whose recall@${k} fell | cases | old | new |`, '|---|---:|---:|---:|');
    for (const n of r.namespaces.slice(0, SHOWN)) out.push(`| ${esc(n.namespace)} | ${n.cases} | ${fmt(n.old)} | ${fmt(n.new)} |`);
    out.push('');
  }
  const nd = r.nearDuplicates;
  out.push(
    '### Near-duplicates',
    '',
    `${plural(nd.pairs, 'pair')} with Jaccard ≥ ${nd.similarity} (${esc(nd.text)}) in the new catalog, ${nd.pairsInvolvingChanges} involving added or changed tools.`,
    '',
  );
  if (nd.listed.length) {
    out.push('| pair | Jaccard | say what each is not for |', '|---|---:|---|');
    for (const p of nd.listed) out.push(`| ${id(p.a)} ~ ${id(p.b)} | ${p.jaccard.toFixed(2)} | ${p.suggestions.map(esc).join('<br>')} |`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
