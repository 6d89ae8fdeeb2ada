/**
 * The module graph of `src/` follows docs/architecture.md: no cycle among run-time imports, and
 * every import — type imports, re-exports and `import()` included (a type is a dependency on a
 * shape) — goes where the "who may import whom" table allows, so each module can be read, tested
 * and replaced after the modules it uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';

const SRC = join(PACKAGE_ROOT, 'src');

/** A relative import of a module: value imports, `import type`, `export … from` and `import()` alike. */
const IMPORT = /(?:^import\s+(type\s+)?[^;]*?from\s+'(\.[^']+)')|(?:^export\s+(?:type\s+)?[^;]*?from\s+'(\.[^']+)')|(?:\bimport\(\s*'(\.[^']+)'\s*\))/gms;

/**
 * Every non-test `.ts` module of `src/` with the modules it imports: `runtime` only at run time
 * (value imports, re-exports, `import()`), for cycles; `all` also `import type` (a type is a
 * dependency on a shape), for the rules of docs/architecture.md.
 */
function moduleGraph(kind: 'runtime' | 'all' = 'runtime'): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const text = readFileSync(p, 'utf8');
        const deps: string[] = [];
        for (const m of text.matchAll(IMPORT)) {
          if (kind === 'runtime' && m[1] !== undefined) continue;
          deps.push(normalize(join(dirname(p), (m[2] ?? m[3] ?? m[4])!)));
        }
        graph.set(normalize(p), deps);
      }
    }
  };
  walk(SRC);
  return graph;
}

/** The cycles of `graph`, each as the modules on it (relative to src/), found by depth-first search. */
function cycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[][] = [];
  const visit = (m: string, path: string[]): void => {
    state.set(m, 'open');
    path.push(m);
    for (const d of graph.get(m) ?? []) {
      if (!graph.has(d)) continue;
      if (state.get(d) === 'open') found.push([...path.slice(path.indexOf(d)), d].map((x) => relative(SRC, x)));
      else if (state.get(d) === undefined) visit(d, path);
    }
    path.pop();
    state.set(m, 'done');
  };
  for (const m of graph.keys()) if (state.get(m) === undefined) visit(m, []);
  return found;
}

/**
 * Who may import whom (docs/architecture.md, "Who may import whom"): each folder of src/ (or
 * top-level module) and the other folders its modules may import, type imports included.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  util: [],
  metrics: ['util'],
  tokens: ['util'],
  catalog: ['util'],
  generate: ['catalog', 'util'],
  snapshot: ['catalog', 'util'],
  importers: ['catalog', 'util'],
  retrievers: ['tokens', 'catalog', 'util'],
  profiles: ['retrievers', 'tokens', 'catalog', 'util'],
  skills: ['retrievers', 'tokens', 'catalog', 'util'],
  plugins: ['profiles', 'retrievers', 'catalog', 'util'],
  eval: ['catalog', 'generate', 'snapshot', 'retrievers', 'profiles', 'skills', 'metrics', 'tokens', 'util'],
  gate: ['eval', 'metrics', 'util'],
  report: ['eval', 'metrics', 'util'],
  diff: ['catalog', 'retrievers', 'eval', 'metrics', 'util'],
  history: ['eval', 'gate', 'report', 'metrics', 'util'],
  cli: ['*'],
  'index.ts': ['*'],
};

/**
 * Imports that break the table and are known, each with why it is still there (docs/architecture.md
 * lists them): the test fails on any other, and on one of these that is gone (remove it here).
 */
const KNOWN: Readonly<Record<string, string>> = {};

/** The folder of src/ a module is in (or its own name, for a module at the top of src/). */
function folderOf(module: string): string {
  return relative(SRC, module).split(sep)[0]!;
}

/** `from → to` for each import (of `graph`) into a folder the table does not allow, sorted. */
function forbiddenImports(graph: Map<string, string[]>, may: Readonly<Record<string, readonly string[]>>): string[] {
  const out = new Set<string>();
  for (const [m, deps] of graph) {
    const a = folderOf(m);
    for (const d of deps) {
      const b = folderOf(d);
      if (a === b) continue;
      const allowed = may[a];
      if (allowed === undefined || may[b] === undefined || !(allowed.includes('*') || allowed.includes(b)))
        out.add(`${relative(SRC, m)} → ${relative(SRC, d)}`);
    }
  }
  return [...out].sort();
}

describe('the module graph of src/', () => {
  it('reads every module and its run-time imports', () => {
    const graph = moduleGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(join(SRC, 'catalog', 'roles.ts'))).toContain(join(SRC, 'util', 'bounded.ts'));
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const g = new Map([
      ['/s/a.ts', ['/s/b.ts']],
      ['/s/b.ts', ['/s/c.ts']],
      ['/s/c.ts', ['/s/a.ts']],
      ['/s/d.ts', ['/s/a.ts']],
    ]);
    expect(cycles(g).length).toBe(1);
  });

  it('has no import cycle', () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it('reads type imports, re-exports and import() as imports too', () => {
    const all = moduleGraph('all');
    // eval/case-records.ts re-exports catalog/renames.ts's unrenamed; report/html/skills.ts imports only a type of eval/results.ts
    expect(all.get(join(SRC, 'eval', 'case-records.ts'))).toContain(join(SRC, 'catalog', 'renames.ts'));
    expect(all.get(join(SRC, 'report', 'html', 'skills.ts'))).toContain(join(SRC, 'eval', 'results.ts'));
    expect(moduleGraph('runtime').get(join(SRC, 'report', 'html', 'skills.ts'))).not.toContain(join(SRC, 'eval', 'results.ts'));
    // cli/run-command.ts loads the generator with import()
    expect(all.get(join(SRC, 'cli', 'run-command.ts'))!.some((d) => d.startsWith(join(SRC, 'generate')))).toBe(true);
  });

  it('finds an import the table does not allow (the check itself)', () => {
    const g = new Map([
      [join(SRC, 'report', 'a.ts'), [join(SRC, 'metrics', 'b.ts'), join(SRC, 'report', 'c.ts'), join(SRC, 'catalog', 't.ts')]],
      [join(SRC, 'metrics', 'b.ts'), [join(SRC, 'eval', 'd.ts')]],
      [join(SRC, 'gate', 'e.ts'), [join(SRC, 'report', 'a.ts')]],
      [join(SRC, 'skills', 'h.ts'), [join(SRC, 'profiles', 'p.ts'), join(SRC, 'util', 'u.ts')]],
      [join(SRC, 'cli', 'x.ts'), [join(SRC, 'report', 'a.ts')]],
      [join(SRC, 'newfolder', 'f.ts'), [join(SRC, 'util', 'g.ts')]],
    ]);
    expect(forbiddenImports(g, MAY_IMPORT)).toEqual([
      'gate/e.ts → report/a.ts',
      'metrics/b.ts → eval/d.ts',
      'newfolder/f.ts → util/g.ts',
      'report/a.ts → catalog/t.ts',
      'skills/h.ts → profiles/p.ts',
    ]);
  });

  it('imports only what docs/architecture.md allows, type imports, re-exports and import() included (known exceptions named)', () => {
    expect(forbiddenImports(moduleGraph('all'), MAY_IMPORT)).toEqual(Object.keys(KNOWN).sort());
  });

  it('gives every folder of src/ its row of the table, and the doc has the same table and exceptions', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => MAY_IMPORT[f] === undefined)).toEqual([]);
    const doc = readFileSync(join(PACKAGE_ROOT, 'docs', 'architecture.md'), 'utf8');
    const cell = (f: string) => (f === '*' ? 'every folder' : `\`${f}${f.endsWith('.ts') ? '' : '/'}\``);
    for (const [folder, may] of Object.entries(MAY_IMPORT)) {
      const row = `| ${cell(folder)} | ${may.length ? may.map(cell).join(', ') : 'nothing'} |`;
      expect(doc, folder).toContain(row);
    }
    for (const line of Object.keys(KNOWN)) expect(doc, line).toContain(`\`${line}\``);
  });
});
