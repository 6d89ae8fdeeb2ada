/**
 * The one evaluation pipeline: settings → floors resolved (once) → calibration cases resolved
 * (once) → configuration → the strategies over the cases (`runEval`) → results. `backpack eval`,
 * `backpack run` and the API's `evaluate()` are each their own argument parsing plus
 * {@link planEvaluation} and {@link runPlanned}; none builds floors, a configuration or a
 * calibration set another way.
 */
import { InputError, setting } from '../util/errors.ts';
import type { Case } from '../catalog/types.ts';
import { profileUsesModel } from '../profiles/registry.ts';
import type { QueryStyle } from '../profiles/types.ts';
import { thinCalibrationWarnings, type CalibrationSet } from './calibrate.ts';
import { resolveCalibration } from './calibration-source.ts';
import { floorsFor, profileDefaultFloors } from './floors.ts';
import type { EvalInput } from './input.ts';
import { isAutoFloor, type CachePrices, type EvalConfig, type FloorSetting } from './results.ts';
import { makeConfig, runEval, type EvalRun, type RunOptions } from './run.ts';
import type { Trace } from './traces.ts';
import type { PluginRecord } from '../retrievers/origins.ts';

/** A floor setting as given: one for every strategy whose design has a floor, one per name, or none given (the defaults). */
export type FloorOption = FloorSetting | Readonly<Record<string, FloorSetting>> | undefined;

/** What an evaluation is asked for, before anything is resolved. */
export interface EvaluationSettings {
  retrievers: readonly string[];
  profiles?: readonly string[];
  /** Cut-offs (default 1, 3, 5, 10). */
  ks?: readonly number[];
  floor?: FloorOption;
  /** Calibration cases: a split of the evaluated cases or a cases file (see `resolveCalibration`), or a set already made. */
  calibrateOn?: string | CalibrationSet;
  /** The embedding model (`--model`); a profile's documented default floor is on the offline model's scale. */
  model?: string;
  sticky?: boolean;
  /** The emulated model's context window, when not the default. */
  contextWindow?: number;
  /** Profiles' session prices, when not the default. */
  cache?: CachePrices;
  queryStyle?: QueryStyle;
  /** The plugins active in the run, recorded in the configuration (and so in its hash). */
  plugins?: readonly PluginRecord[];
}

/** What the run adds once its input is loaded: replayed traces, examples added to the catalog. */
export interface RunExtras {
  calibration?: CalibrationSet;
  /** Replayed agent traces: the file's sha256 and the traces by case. */
  traces?: { sha256: string; byCase: ReadonlyMap<string, Trace> };
  /** Examples added to the catalog from a split (recorded in the configuration). */
  examples?: { from: string; perTool: number; added: number };
}

/** Settings resolved: the floors of every strategy and the configuration the run records. */
export interface EvaluationPlan {
  settings: EvaluationSettings;
  floors: Record<string, FloorSetting>;
  config: EvalConfig;
  /** Whether any floor is calibrated (it then needs calibration cases with no-tool cases). */
  calibrates: boolean;
  /** Profiles whose documented default floor is on the offline model's scale while another model is used, with no floor given. */
  unfloored: string[];
}

/**
 * Resolve the floors once (a setting for every strategy reaches the designs that have one, a
 * profile's documented default stands where the setting says nothing about it, calibrated when the
 * run has calibration cases) and make the configuration.
 */
export function planEvaluation(settings: EvaluationSettings): EvaluationPlan {
  const retrievers = [...settings.retrievers];
  const profiles = [...(settings.profiles ?? [])];
  const strategies = [...retrievers, ...profiles];
  const calibrating = settings.calibrateOn !== undefined;
  const plugins = settings.plugins;
  const floors = floorsFor(
    strategies,
    settings.floor,
    profileDefaultFloors(profiles, calibrating, settings.model !== undefined ? { model: settings.model } : {}),
  );
  const named = floorsByName(settings.floor);
  const unfloored =
    settings.model !== undefined && !calibrating ? profiles.filter((p) => profileUsesModel(p) && floors[p] === null && !Object.hasOwn(named, p)) : [];
  const base = makeConfig({
    retrievers,
    profiles,
    floors,
    ...(settings.ks ? { ks: settings.ks } : {}),
    sticky: settings.sticky === true,
  });
  const config: EvalConfig = {
    ...base,
    ...(base.cache && settings.cache ? { cache: { ...settings.cache } } : {}),
    ...(settings.contextWindow !== undefined ? { contextWindow: settings.contextWindow } : {}),
    ...(settings.queryStyle ? { queryStyle: settings.queryStyle } : {}),
    ...(plugins?.length ? { plugins: plugins.map((p) => ({ ...p })) } : {}),
  };
  const calibrates = Object.values(floors).some(isAutoFloor);
  if (calibrates && !calibrating) {
    throw new InputError(
      `${setting('floor')} auto needs ${setting('calibrateOn')} SPLIT|FILE: the calibration cases the floors are chosen on (never the scored ones), e.g. the train split when the test split is scored`,
    );
  }
  return { settings, floors, config, calibrates, unfloored };
}

/** The floors a setting gives by name ({} for one setting for every strategy, or none). */
function floorsByName(f: FloorOption): Readonly<Record<string, FloorSetting>> {
  if (f === undefined || f === null || typeof f === 'number' || (f as { mode?: unknown }).mode === 'auto') return {};
  return f as Readonly<Record<string, FloorSetting>>;
}

/** Where the scored cases come from, for calibration: the source, its label in messages, and every case of a dataset already loaded. */
export interface CalibrationContext {
  input: EvalInput;
  /** The scored cases' label in messages (`--split test`, `all cases`). */
  scoredLabel: string;
  /** Every case of the dataset, when the caller has them already (so it is not read again). */
  loaded?: readonly Case[];
}

/**
 * The calibration cases of a plan, resolved once and checked against the scored cases;
 * `undefined` when the plan names none. Warnings come back to print.
 */
export function planCalibration(plan: EvaluationPlan, ctx: CalibrationContext): { set: CalibrationSet; warnings: string[] } | undefined {
  const spec = plan.settings.calibrateOn;
  if (spec === undefined) return undefined;
  if (typeof spec !== 'string') return { set: spec, warnings: [] };
  return resolveCalibration(spec, ctx.input.source, ctx.input.catalog, ctx.input.cases, ctx.scoredLabel, plan.calibrates, ctx.loaded);
}

/**
 * Evaluate a plan on its input: `runEval` with the plan's configuration, calibration cases,
 * traces and model. Returns the run and the warnings of floors calibrated on few no-tool cases.
 */
export async function runPlanned(
  input: EvalInput,
  plan: EvaluationPlan,
  extras: RunExtras = {},
  opts: Omit<RunOptions, 'calibration' | 'traces'> = {},
): Promise<{ run: EvalRun; warnings: string[] }> {
  const { settings } = plan;
  const { calibration, traces, examples } = extras;
  // the configuration as planned, with what the loaded input added, keys in the order results record them
  const { queryStyle, ...planned } = plan.config;
  const config: EvalConfig = {
    ...planned,
    traces: traces?.sha256 ?? null,
    ...(examples ? { examples } : {}),
    ...(queryStyle ? { queryStyle } : {}),
  };
  const run = await runEval(input, config, {
    ...opts,
    ...(traces ? { traces: traces.byCase } : {}),
    ...(calibration ? { calibration } : {}),
    ...(settings.model !== undefined ? { retrieverOptions: { ...opts.retrieverOptions, model: settings.model } } : {}),
  });
  const thin = thinCalibrationWarnings(run.results.config.floors);
  // and what the strategies reported (a retrieval service that broke its protocol); the input's own were printed as it loaded
  const fromStrategies = (run.results.warnings ?? []).filter((w) => !thin.includes(w) && !(input.warnings ?? []).includes(w));
  return { run, warnings: [...thin, ...fromStrategies] };
}
