/**
 * `semantic-retrieval`, the seed's semantic tool retrieval (When Your Agent Has 200 Tools,
 * "Building a tool index"): the `embed` retriever (description, examples and intent, never the raw
 * schema) ranks the tools the caller's scopes allow (scope filter before ranking); the top
 * {@link SEMANTIC_LIMIT} (the seed's `k=8`) scoring at least the floor reach the model in full;
 * pinned tools are always there; sticky per task: a session keeps its tool set and re-retrieves
 * only when the new request scores below the floor against every tool it carries (the seed's
 * expansion trigger, `Policy` in `../../retrievers/policy.ts`).
 *
 * The floor: the seed's snippet uses `floor=0.30` on its own embedding; a floor is a score on the
 * retriever's scale, so Backpack's default is calibrated for `embed` (cosine) — see
 * {@link SEMANTIC_DEFAULT_FLOOR}. A run that configures a floor (`--floor`, or `--floor auto` with
 * `--calibrate-on`) uses that instead.
 */
import { registryEmbed } from '../../retrievers/embed/index.ts';
import type { Retriever } from '../../retrievers/types.ts';
import type { ProfileOptions } from '../types.ts';
import { RetrievalProfile, type RetrievalSettings } from './retrieval.ts';
import { RoleGatedRetriever } from './role-gated.ts';

/** The seed's `k`: tools retrieved per request. */
export const SEMANTIC_LIMIT = 8;

/**
 * The default floor on the `embed` retriever's cosine scale: the lowest floor whose no-tool
 * false-positive rate is ≤ 0.1 (the eval's `--floor auto` rule, target 0.1) on CALIBRATION cases,
 * never on scored ones: generated `small` preset, seed 11 (generator 3.0.0), its `train` split
 * (104 no-tool cases; calibration false-positive rate 0.096): calibrated value 0.70277, the same
 * at depth 5 and at depth 8. (On generator 2.0.2's small-11 the same rule gave 0.7219, the
 * default until generator 3.0.0: a new generator is a new calibration set, so the floor is
 * calibrated again, as BM25's defaults are selected again; docs/tuning.md.)
 * Reproduce: `backpack generate --preset small --seed 11 --out small-11`, then `backpack eval
 * --dataset small-11 --profiles semantic-retrieval --floor auto --calibrate-on train --split test`,
 * `results.json` → `config.floors["semantic-retrieval"].value`. (The false-positive rate depends on
 * the top hit only, so the depth does not change it.) On monster-7's test split, with this floor,
 * sticky keeps a set on few later turns (docs/datasets.md, "Generator 3.0") although a third of
 * them ask for a tool of an earlier turn: the floor leaves most requests with nothing shown, so a
 * session rarely has a set to keep, and a short follow-up ("and the one from yesterday?") scores
 * below the floor against the set it has.
 * The value is on the scale of the default (offline) encoder: with `--model`, the profiles that
 * embed have no default floor (give `--floor` or `--calibrate-on`).
 */
export const SEMANTIC_DEFAULT_FLOOR = 0.7028;

/** Where {@link SEMANTIC_DEFAULT_FLOOR} came from (recorded in `describe()`). */
export const SEMANTIC_FLOOR_SOURCE = {
  value: SEMANTIC_DEFAULT_FLOOR,
  scale: 'embed cosine similarity',
  rule: 'lowest floor with no-tool false-positive rate ≤ 0.1 on the calibration cases (--floor auto)',
  calibratedOn: 'generated small preset, seed 11 (generator 3.0.0), train split: 104 no-tool cases, false-positive rate 0.096',
  overriddenBy: 'a floor the run configures (--floor x, or --floor auto with --calibrate-on)',
  appliesTo: 'the default offline encoder only (no default floor with --model)',
} as const;

/** The default floor of a profile that embeds with `options`' model: only on the default encoder's scale. */
export function embedDefaultFloor(options: ProfileOptions): number | undefined {
  return options.model === undefined ? SEMANTIC_DEFAULT_FLOOR : undefined;
}

/** The registry's embed (the user's `--model`, the embed entry's recipe). */
export function seedEmbed(options: ProfileOptions = {}): Retriever {
  return registryEmbed('embed', options);
}

/** `search` replaces the embed retriever (tests). */
export function createSemanticRetrieval(name: string, options: ProfileOptions = {}, search: Retriever = seedEmbed(options)): RetrievalProfile {
  return new RetrievalProfile(name, search, {
    label: 'semantic-retrieval',
    limit: SEMANTIC_LIMIT,
    sticky: true,
    form: 'schemas',
    advertiseNamespaces: false,
    defaultFloor: embedDefaultFloor(options),
    notes: {
      floor: SEMANTIC_FLOOR_SOURCE,
      stickyRule: 'keep the session set; re-retrieve when the request scores below the floor against every carried tool',
    },
  });
}

/**
 * The seed's "gate, then retrieve, then defer" as a profile: `search` under the caller's role gate
 * (`gateName`), its top {@link SEMANTIC_LIMIT} at or above the embed floor, shown as deferred
 * entries with `load_tool_schema`; `settings` give the rest of the strategy.
 */
export function gatedDeferredRetrieval(
  name: string,
  gateName: string,
  search: Retriever,
  options: ProfileOptions,
  settings: Pick<RetrievalSettings, 'label' | 'sticky' | 'advertiseNamespaces' | 'opener' | 'notes'>,
): RetrievalProfile {
  const gated = new RoleGatedRetriever(gateName, search, options.roles);
  return new RetrievalProfile(name, gated, {
    ...settings,
    limit: SEMANTIC_LIMIT,
    form: 'metadata',
    sees: (position, caller) => gated.roleMaskOf(caller.role)?.[position] !== 0,
    defaultFloor: embedDefaultFloor(options),
  });
}
