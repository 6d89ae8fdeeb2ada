/**
 * The seeded monster-company generator: servers, tools, plugins, skills and labelled cases, as a
 * `Dataset` plus the manifest fields that describe it. Same seed and version → same bytes.
 */
import { getHeapStatistics } from 'node:v8';
import { datasetCounts, splitCounts, type Manifest } from '../catalog/manifest.ts';
import { sliceStats } from '../catalog/overlap.ts';
import type { Catalog, Dataset } from '../catalog/types.ts';
import { generateCases } from './cases.ts';
import { GenerateParamsError } from './errors.ts';
import { setting } from '../util/errors.ts';
import { PRESETS, type GenerateParams, type Overrides, type PresetName } from './presets.ts';
import { Rng } from '../util/rng.ts';
import { assignRoles, companyRoles } from './roles.ts';
import { roleScope } from '../catalog/roles.ts';
import { generateSkills, skillCapacity } from './skills.ts';
import { coreTools, planServers, pluginTools, serverRecord, serverTools, type ToolMeta } from './tools.ts';
import { PLUGINS } from './vocab/plugins.ts';

/** Bump when the generator's output changes for the same seed (it is part of every manifest). */
export const GENERATOR = { name: 'backpack-monster', version: '3.0.1' } as const;

/**
 * The label of the generator's random stream. It was the version (1.0.0) and is kept when a
 * version adds files without changing the drawn catalog and cases (1.0.1 added realism.json);
 * change it only when the draws themselves must change (3.0.0: requests in a real voice, sessions
 * that come back to their tools, descriptions in the words users use).
 */
export const RNG_LABEL = '3.0.0';

export { GenerateParamsError };

/** Resolve a preset, a seed and overrides into the full parameter set, checking ranges. */
export function resolveParams(preset: string, seed: number, overrides: Overrides = {}): GenerateParams {
  if (!(preset in PRESETS)) throw new GenerateParamsError(`unknown preset "${preset}" (presets: ${Object.keys(PRESETS).join(', ')})`);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new GenerateParamsError(`${setting('seed')} must be a whole number ≥ 0 (got ${seed})`);
  const p = PRESETS[preset as PresetName];
  const pluginToolCount = PLUGINS.slice(0, p.plugins).reduce((a, pl) => a + pl.tools.length, 0);
  let mcpTools: number = p.mcpTools;
  let servers: number = p.servers;
  if (overrides.tools !== undefined) {
    const min = p.coreTools + pluginToolCount + 7;
    if (!Number.isSafeInteger(overrides.tools) || overrides.tools < min) {
      throw new GenerateParamsError(
        `${setting('tools')} must be a whole number ≥ ${min} for preset ${preset} (${p.coreTools} core + ${pluginToolCount} plugin tools + at least one per server)`,
      );
    }
    mcpTools = overrides.tools - p.coreTools - pluginToolCount;
    servers = Math.max(7, Math.ceil(mcpTools / 500));
  }
  const skills = overrides.skills ?? p.skills;
  const cap = skillCapacity(servers);
  if (!Number.isSafeInteger(skills) || skills < 0 || skills > cap)
    throw new GenerateParamsError(`${setting('skills')} must be a whole number from 0 to ${cap} for ${servers} servers (got ${skills})`);
  const cases = overrides.cases ?? p.cases;
  if (!Number.isSafeInteger(cases) || cases < 20) throw new GenerateParamsError(`${setting('cases')} must be a whole number ≥ 20 (got ${cases})`);
  checkFits(mcpTools + p.coreTools + pluginToolCount, skills, cases, heapLimitBytes());
  return { preset: preset as PresetName, seed, mcpTools, servers, plugins: p.plugins, coreTools: p.coreTools, skills, cases };
}

/**
 * Heap bytes the generator needs per tool, skill and case, with its transient strings, at the
 * peak of `generate` and `writeDataset` (measured on monster-7: ~2 KB of each tool and ~0.5 KB of
 * each case stay live after generating; writing the files about doubles that; the estimates leave
 * a margin on top).
 */
export const HEAP_BYTES_PER = { tool: 6_000, skill: 4_000, case: 2_000 } as const;

/** V8's heap limit of this process (what `--max-old-space-size` sets). */
export function heapLimitBytes(): number {
  return getHeapStatistics().heap_size_limit;
}

/**
 * Throw a {@link GenerateParamsError} (exit 2) when a company of this size cannot fit in `limit`
 * bytes of heap: the generator holds the whole dataset in memory, so a size past the bound would
 * run for hours and then fail (`generate --tools 1000000000`). The message names the bound.
 */
export function checkFits(tools: number, skills: number, cases: number, limit: number): void {
  const need = tools * HEAP_BYTES_PER.tool + skills * HEAP_BYTES_PER.skill + cases * HEAP_BYTES_PER.case;
  if (need <= limit) return;
  const room = (spare: number, per: number) => Math.max(0, Math.floor(spare / per));
  const maxTools = room(limit - skills * HEAP_BYTES_PER.skill - cases * HEAP_BYTES_PER.case, HEAP_BYTES_PER.tool);
  const maxCases = room(limit - tools * HEAP_BYTES_PER.tool - skills * HEAP_BYTES_PER.skill, HEAP_BYTES_PER.case);
  const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;
  const fmt = (n: number) => n.toLocaleString('en-US');
  throw new GenerateParamsError(
    `a company of ${fmt(tools)} tools, ${fmt(skills)} skills and ${fmt(cases)} cases needs about ${gb(need)} of memory; this process may use ${gb(limit)} (Node's heap limit): at most ${fmt(maxTools)} tools with these cases, or ${fmt(maxCases)} cases with these tools (${setting('tools')}, ${setting('cases')}; a larger heap: NODE_OPTIONS=--max-old-space-size=MB)`,
  );
}

export interface Generated {
  dataset: Dataset;
  manifest: Omit<Manifest, 'files' | 'catalogSha256' | 'schemaVersion'>;
}

export interface Progress {
  (stage: string, done: number, total: number): void;
}

/** Generate the dataset for `params`. `progress` is told of each server and each stage. */
export function generate(params: GenerateParams, progress: Progress = () => {}): Generated {
  const rng = new Rng(params.seed, RNG_LABEL);
  const plans = planServers(params.servers, params.mcpTools, rng.fork('servers'));
  const metas: ToolMeta[] = [...coreTools(params.coreTools)];
  const { plugins, tools: pTools } = pluginTools(params.plugins);
  metas.push(...pTools);
  plans.forEach((plan, i) => {
    metas.push(...serverTools(plan, rng.fork('tools')));
    progress('tools', i + 1, plans.length);
  });
  progress('skills', 0, params.skills);
  const skills = generateSkills(params.skills, plans, metas, rng.fork('skills'));
  const catalog: Catalog = {
    tools: metas.map((m) => m.tool),
    skills: skills.map((s) => s.skill),
    servers: plans.map(serverRecord),
    plugins,
  };
  // The roles come first: requests come from people, so tools some department uses get more of them.
  const roles = companyRoles(plans, metas, catalog);
  const scopes = Object.keys(roles.roles).map((name) => roleScope(roles, name)!);
  const cases = generateCases(
    params.cases,
    metas,
    plans,
    skills,
    rng.fork('cases'),
    (done, total) => progress('cases', done, total),
    (m) => scopes.some((s) => s.sees(m.tool)),
  );
  assignRoles(cases, roles, catalog, rng.fork('roles'));
  const name = `${params.preset}-${params.seed}`;
  return {
    dataset: { name, catalog, cases, roles },
    manifest: {
      name,
      generator: { ...GENERATOR },
      seed: params.seed,
      preset: params.preset,
      params: { ...params },
      counts: datasetCounts(catalog, cases),
      slices: sliceStats(catalog, cases),
      splits: splitCounts(cases),
      provenance: `Synthetic "monster company" generated by Backpack ${GENERATOR.name} ${GENERATOR.version} (preset ${params.preset}, seed ${params.seed}).`,
    },
  };
}
