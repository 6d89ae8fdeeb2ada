import { describe, expect, it } from 'vitest';
import { ARCHETYPES } from './archetypes.ts';
import { CORE_TOOLS } from './core-tools.ts';
import { PLUGINS } from './plugins.ts';
import { SERVERS } from './servers.ts';
import type { HandToolSpec } from './types.ts';

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const ID_SAFE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Common words a casual request may share with a tool name. */
const STOP_WORDS = new Set(
  (
    'a an the to of in on for with and or me my it its is are be this that these those from by at as ' +
    'all up out into what which who our we i you your us some any can could please just so if then'
  ).split(' '),
);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Plural/singular variants of a word (object vocabulary). */
function nounForms(w: string): Set<string> {
  const out = new Set([w]);
  if (w.endsWith('ies') && w.length > 4) out.add(`${w.slice(0, -3)}y`);
  if (w.endsWith('es') && w.length > 3) out.add(w.slice(0, -2));
  if (w.endsWith('s') && w.length > 2) out.add(w.slice(0, -1));
  return out;
}

/** Noun forms plus simple verb inflections (tool names are mostly verbs). */
function wordForms(w: string): Set<string> {
  const out = nounForms(w);
  if (w.endsWith('ing') && w.length > 5) {
    const stem = w.slice(0, -3);
    out.add(stem);
    out.add(`${stem}e`);
    if (stem.length > 2 && stem.at(-1) === stem.at(-2)) out.add(stem.slice(0, -1));
  }
  if (w.endsWith('ed') && w.length > 4) {
    const stem = w.slice(0, -2);
    out.add(stem);
    out.add(`${stem}e`);
    if (stem.length > 2 && stem.at(-1) === stem.at(-2)) out.add(stem.slice(0, -1));
  }
  return out;
}

function overlaps(a: Set<string>, b: Set<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

/** Words of `phrase` that clash with any word of `reserved` under `forms`. */
function clashes(phrase: string, reserved: string[], forms: (w: string) => Set<string>, stop = new Set<string>()): string[] {
  const reservedForms = reserved.filter((w) => !stop.has(w)).map(forms);
  return words(phrase).filter((w) => !stop.has(w) && reservedForms.some((r) => overlaps(forms(w), r)));
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const v of values) (seen.has(v) ? dups : seen).add(v);
  return [...dups];
}

function checkHandTool(tool: HandToolSpec, where: string, minParams: number, maxParams: number): string[] {
  const problems: string[] = [];
  const at = `${where}/${tool.name}`;
  if (!SNAKE.test(tool.name)) problems.push(`${at}: name not snake_case`);
  if (tool.params.length < minParams || tool.params.length > maxParams) problems.push(`${at}: ${tool.params.length} params`);
  if (tool.casual.length < 2 || tool.casual.length > 4) problems.push(`${at}: ${tool.casual.length} casual phrases`);
  if (!tool.summary.trim() || !tool.description.trim()) problems.push(`${at}: empty summary/description`);
  const paramNames = tool.params.map((p) => p.name);
  for (const d of duplicates(paramNames)) problems.push(`${at}: duplicate param ${d}`);
  for (const p of tool.params) {
    if (!SNAKE.test(p.name)) problems.push(`${at}: param ${p.name} not snake_case`);
    if (!p.description.trim()) problems.push(`${at}: param ${p.name} has no description`);
    if (p.enum && (p.enum.length < 2 || p.type !== 'string')) problems.push(`${at}: param ${p.name} bad enum`);
  }
  const nameWords = tool.name.split('_');
  for (const phrase of tool.casual) {
    const bad = clashes(phrase, nameWords, wordForms, STOP_WORDS);
    if (bad.length > 0) problems.push(`${at}: casual "${phrase}" shares ${bad.join(', ')}`);
  }
  return problems;
}

describe('vocab word helpers', () => {
  it('detects plural, singular and inflected forms', () => {
    expect(clashes('three policies', ['policy'], nounForms)).toEqual(['policies']);
    expect(clashes('the addresses', ['address'], nounForms)).toEqual(['addresses']);
    expect(clashes('my PR', ['pull', 'request'], nounForms)).toEqual([]);
    expect(clashes('files I created', ['create', 'file'], wordForms)).toEqual(['files', 'created']);
    expect(clashes('running it', ['run'], wordForms)).toEqual(['running']);
    expect(clashes('send it to me', ['escalate', 'to', 'human'], wordForms, STOP_WORDS)).toEqual([]);
  });
});

/** Each item's name once, and each of the form `pattern`. */
function expectDistinctNames<T>(items: readonly T[], nameOf: (item: T) => string, pattern: RegExp): void {
  const names = items.map(nameOf);
  expect(duplicates(names)).toEqual([]);
  for (const n of names) expect(n).toMatch(pattern);
}

describe('archetypes', () => {
  it('has at least 22 archetypes with unique snake_case keys', () => {
    expect(ARCHETYPES.length).toBeGreaterThanOrEqual(22);
    expectDistinctNames(ARCHETYPES, (a) => a.key, SNAKE);
  });

  it('gives every archetype a domain and casual domains', () => {
    for (const a of ARCHETYPES) {
      expect(a.domain.trim(), a.key).not.toBe('');
      expect(a.casualDomain.length, a.key).toBeGreaterThanOrEqual(1);
    }
  });

  it('has 35-60 objects per archetype with unique, well-formed keys', () => {
    const problems: string[] = [];
    for (const a of ARCHETYPES) {
      if (a.objects.length < 35 || a.objects.length > 60) problems.push(`${a.key}: ${a.objects.length} objects`);
      for (const d of duplicates(a.objects.map((o) => o.key))) problems.push(`${a.key}: duplicate key ${d}`);
      for (const d of duplicates(a.objects.map((o) => o.plural))) problems.push(`${a.key}: duplicate plural ${d}`);
      for (const o of a.objects) {
        const at = `${a.key}/${o.key}`;
        if (!SNAKE.test(o.key)) problems.push(`${at}: key not snake_case`);
        if (!SNAKE.test(o.plural)) problems.push(`${at}: plural not snake_case`);
        if (o.plural === o.key) problems.push(`${at}: plural equals key`);
        if (/(ss|[^aeiou]ys|xs|chs|shs|zs)$/.test(o.plural)) problems.push(`${at}: suspicious plural ${o.plural}`);
        if (!o.doc.trim()) problems.push(`${at}: empty doc`);
        if (o.casual.length < 2 || o.casual.length > 4) problems.push(`${at}: ${o.casual.length} casual phrases`);
        if (duplicates(o.casual.map((c) => c.toLowerCase())).length) problems.push(`${at}: duplicate casual phrase`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps casual phrases free of the words of key and plural', () => {
    const problems: string[] = [];
    for (const a of ARCHETYPES) {
      for (const o of a.objects) {
        const reserved = [...o.key.split('_'), ...o.plural.split('_')];
        for (const phrase of o.casual) {
          const bad = clashes(phrase, reserved, nounForms);
          if (bad.length > 0) problems.push(`${a.key}/${o.key}: "${phrase}" shares ${bad.join(', ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('names only existing sibling keys as confusable', () => {
    const problems: string[] = [];
    let withConfusable = 0;
    let total = 0;
    for (const a of ARCHETYPES) {
      const keys = new Set(a.objects.map((o) => o.key));
      for (const o of a.objects) {
        total++;
        if (!o.confusable || o.confusable.length === 0) continue;
        withConfusable++;
        for (const c of o.confusable) {
          if (!keys.has(c)) problems.push(`${a.key}/${o.key}: unknown confusable ${c}`);
          if (c === o.key) problems.push(`${a.key}/${o.key}: confusable with itself`);
        }
        if (duplicates(o.confusable).length) problems.push(`${a.key}/${o.key}: duplicate confusable`);
      }
    }
    expect(problems).toEqual([]);
    expect(withConfusable / total).toBeGreaterThan(0.5);
  });
});

describe('servers', () => {
  it('has exactly 100 servers with unique id-safe names', () => {
    expect(SERVERS.length).toBe(100);
    expectDistinctNames(SERVERS, (s) => s.name, ID_SAFE);
  });

  it('starts with the seed article servers and their sizes', () => {
    const head = SERVERS.slice(0, 7).map((s) => [s.name, s.archetype, s.size]);
    expect(head).toEqual([
      ['crm', 'crm', 1400],
      ['aws', 'cloud', 1100],
      ['kubernetes', 'kubernetes', 850],
      ['datadog', 'observability', 600],
      ['clickup', 'project_management', 300],
      ['github', 'vcs', 220],
      ['slack', 'chat', 180],
    ]);
    expect(SERVERS[0]?.display).toBe('CRM');
    expect(SERVERS[2]?.aliases).toEqual(expect.arrayContaining(['k8s', 'kube']));
    for (const s of SERVERS.slice(7)) expect(s.size, s.name).toBeUndefined();
  });

  it('references existing archetypes, with at least 2 servers each and several with 4+', () => {
    const archetypeKeys = new Set(ARCHETYPES.map((a) => a.key));
    const counts = new Map<string, number>();
    for (const s of SERVERS) {
      expect(archetypeKeys.has(s.archetype), `${s.name} -> ${s.archetype}`).toBe(true);
      counts.set(s.archetype, (counts.get(s.archetype) ?? 0) + 1);
    }
    for (const a of ARCHETYPES) expect(counts.get(a.key) ?? 0, a.key).toBeGreaterThanOrEqual(2);
    expect([...counts.values()].filter((n) => n >= 4).length).toBeGreaterThanOrEqual(5);
  });

  it('has display names, descriptions and id-safe-ish aliases', () => {
    for (const s of SERVERS) {
      expect(s.display.trim(), s.name).not.toBe('');
      expect(s.description.trim(), s.name).not.toBe('');
      expect(s.description, s.name).not.toContain('\n');
      expect(duplicates(s.aliases), s.name).toEqual([]);
    }
    expect(duplicates(SERVERS.map((s) => s.description))).toEqual([]);
  });
});

describe('core tools', () => {
  it('has exactly 50 uniquely named core tools', () => {
    expect(CORE_TOOLS.length).toBe(50);
    expect(duplicates(CORE_TOOLS.map((t) => t.name))).toEqual([]);
  });

  it('pins exactly finish and escalate_to_human', () => {
    const pinned = CORE_TOOLS.filter((t) => t.pinned).map((t) => t.name);
    expect(pinned.sort()).toEqual(['escalate_to_human', 'finish']);
  });

  it('has well-formed tools with 2-8 params and name-free casual requests', () => {
    const problems = CORE_TOOLS.flatMap((t) => checkHandTool(t, 'core', 2, 8));
    expect(problems).toEqual([]);
  });
});

describe('plugins', () => {
  it('has exactly 150 plugins with unique id-safe names', () => {
    expect(PLUGINS.length).toBe(150);
    expectDistinctNames(PLUGINS, (p) => p.name, ID_SAFE);
    expect(duplicates(PLUGINS.map((p) => p.display))).toEqual([]);
  });

  it('has 2-6 tools per plugin and 480-520 tools in total', () => {
    for (const p of PLUGINS) {
      expect(p.tools.length, p.name).toBeGreaterThanOrEqual(2);
      expect(p.tools.length, p.name).toBeLessThanOrEqual(6);
      expect(duplicates(p.tools.map((t) => t.name)), p.name).toEqual([]);
      expect(p.description.trim(), p.name).not.toBe('');
    }
    const total = PLUGINS.reduce((n, p) => n + p.tools.length, 0);
    expect(total).toBeGreaterThanOrEqual(480);
    expect(total).toBeLessThanOrEqual(520);
  });

  it('has well-formed tools with 1-6 params and name-free casual requests', () => {
    const problems = PLUGINS.flatMap((p) => p.tools.flatMap((t) => checkHandTool(t, p.name, 1, 6)));
    expect(problems).toEqual([]);
    for (const p of PLUGINS) for (const t of p.tools) expect(t.pinned, `${p.name}/${t.name}`).toBeFalsy();
  });

  it('shares some tool names across plugins and mirrors some MCP operations', () => {
    const byName = new Map<string, number>();
    for (const p of PLUGINS) for (const t of p.tools) byName.set(t.name, (byName.get(t.name) ?? 0) + 1);
    for (const shared of ['summarize', 'search', 'export_report']) {
      expect(byName.get(shared) ?? 0, shared).toBeGreaterThanOrEqual(2);
    }
    const clickup = PLUGINS.find((p) => p.name === 'clickup');
    expect(clickup?.tools.map((t) => t.name)).toContain('create_task');
    expect(SERVERS.some((s) => s.name === 'clickup')).toBe(true);
  });
});
