/**
 * Hand-written tools as the data files write them (`data/core-tools.json`, `data/plugins.json`):
 * a parameter many tools share is written once in the file's `sharedParams` and named by a string
 * in a tool's `params`.
 */
import { generatorDataError } from '../data-schema.ts';
import type { HandToolSpec, ParamSpec } from './types.ts';

/** A tool as written in a data file. */
export interface HandToolData {
  name: string;
  summary: string;
  description: string;
  params: Array<ParamSpec | string>;
  casual: string[];
  pinned?: boolean;
}

/** The shared parameters of a data file by name (one object each, shared by the tools that name it). */
export function sharedParams(params: readonly ParamSpec[]): ReadonlyMap<string, ParamSpec> {
  return new Map(params.map((p) => [p.name, param(p)]));
}

/**
 * Reads hand-written tools of one data file: `tools` are [JSON path, tool] pairs. Throws naming the
 * file and the JSON path of a parameter that names no shared parameter.
 */
export function readHandTools(file: string, shared: ReadonlyMap<string, ParamSpec>, tools: ReadonlyArray<[path: string, tool: HandToolData]>): HandToolSpec[] {
  const problems: string[] = [];
  const out = tools.map(([path, t]): HandToolSpec => {
    const params = t.params.map((p, i) => {
      if (typeof p !== 'string') return param(p);
      const s = shared.get(p);
      if (!s) problems.push(`${path}/params/${i} names no parameter of sharedParams: "${p}"`);
      return s!;
    });
    const { name, summary, description, casual } = t;
    return t.pinned ? { name, summary, description, params, casual, pinned: true } : { name, summary, description, params, casual };
  });
  if (problems.length) throw generatorDataError(file, problems);
  return out;
}

function param({ name, type, description, required, enum: values }: ParamSpec): ParamSpec {
  const p: ParamSpec = required ? { name, type, description, required: true } : { name, type, description };
  if (values) p.enum = values;
  return p;
}
