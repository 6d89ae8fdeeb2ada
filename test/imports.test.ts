/**
 * The module graph of `src/` follows docs/architecture.md: no cycle, and every run-time import goes
 * down the layers (a folder imports only itself and folders of lower rank), so each module can be
 * read, tested and replaced after the modules it uses (type-only imports aside: they vanish at run
 * time).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';

const SRC = join(PACKAGE_ROOT, 'src');

/** Every non-test `.ts` module of `src/` with the modules it imports at run time (relative imports). */
function moduleGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        const text = readFileSync(p, 'utf8');
        const deps = [...text.matchAll(/^import (?!type )[^;]*?from '(\.[^']+)'/gms)].map((m) => normalize(join(dirname(p), m[1]!)));
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

/** The layers of docs/architecture.md: a folder of src/ (or a top-level module) and its rank. */
const LAYERS: Readonly<Record<string, number>> = {
  util: 0,
  metrics: 1,
  tokens: 1,
  catalog: 2,
  snapshot: 3,
  generate: 3,
  importers: 3,
  retrievers: 4,
  profiles: 5,
  skills: 6,
  eval: 7,
  gate: 8,
  report: 8,
  diff: 8,
  history: 9,
  cli: 10,
  'index.ts': 10,
};

/** The folder of src/ a module is in (or its own name, for a module at the top of src/). */
function layerOf(module: string): string {
  return relative(SRC, module).split(sep)[0]!;
}

/** Imports that break the layering: `from → to` for each run-time import into a higher or same-rank other folder. */
function upwardImports(graph: Map<string, string[]>, layers: Readonly<Record<string, number>>): string[] {
  const out: string[] = [];
  for (const [m, deps] of graph) {
    const a = layerOf(m);
    for (const d of deps) {
      const b = layerOf(d);
      if (a === b) continue;
      if (layers[a] === undefined || layers[b] === undefined || layers[b]! >= layers[a]!) out.push(`${relative(SRC, m)} → ${relative(SRC, d)}`);
    }
  }
  return out.sort();
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

  it('finds an import that goes up the layers or sideways (the check itself)', () => {
    const g = new Map([
      [join(SRC, 'report', 'a.ts'), [join(SRC, 'metrics', 'b.ts'), join(SRC, 'report', 'c.ts')]],
      [join(SRC, 'metrics', 'b.ts'), [join(SRC, 'eval', 'd.ts')]],
      [join(SRC, 'gate', 'e.ts'), [join(SRC, 'report', 'a.ts')]],
      [join(SRC, 'newfolder', 'f.ts'), [join(SRC, 'util', 'g.ts')]],
    ]);
    expect(upwardImports(g, LAYERS)).toEqual(['gate/e.ts → report/a.ts', 'metrics/b.ts → eval/d.ts', 'newfolder/f.ts → util/g.ts']);
  });

  it('imports only down the layers of docs/architecture.md', () => {
    expect(upwardImports(moduleGraph(), LAYERS)).toEqual([]);
  });

  it('gives every folder of src/ a layer, and the doc lists every layer', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => LAYERS[f] === undefined)).toEqual([]);
    const doc = readFileSync(join(PACKAGE_ROOT, 'docs', 'architecture.md'), 'utf8');
    for (const [folder, rank] of Object.entries(LAYERS))
      expect(doc, folder).toMatch(new RegExp(`\\| ${rank} \\| [^\\n]*\`${folder.replace('.', '\\.')}${folder.endsWith('.ts') ? '' : '/'}\``));
  });
});
