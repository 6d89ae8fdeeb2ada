/**
 * The module graph of `src/` has no cycle: every module imports downward only, so each can be read,
 * tested and replaced after the modules it uses (type-only imports aside: they vanish at run time).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
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
});
