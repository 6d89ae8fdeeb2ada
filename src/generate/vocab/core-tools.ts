/**
 * The ~50 built-in harness tools every agent of the monster company has (shell, files, search,
 * web, browser, git, tests, memory, planning, delegation). Two are pinned: `finish` and
 * `escalate_to_human` are always exposed, whatever the retriever picks. Hand-written vocabulary in
 * `data/core-tools.json`, checked against the generator data schema when this module loads.
 */
import coreToolsData from '../data/core-tools.json' with { type: 'json' };
import { checkedGeneratorData } from '../data-schema.ts';
import { readHandTools, sharedParams, type HandToolData } from './hand-tools.ts';
import type { HandToolSpec, ParamSpec } from './types.ts';

const data = checkedGeneratorData<{ sharedParams: ParamSpec[]; sections: Array<{ title: string; tools: HandToolData[] }> }>(
  'coreTools',
  'core-tools.json',
  coreToolsData,
);

export const CORE_TOOLS: readonly HandToolSpec[] = readHandTools(
  'core-tools.json',
  sharedParams(data.sharedParams),
  data.sections.flatMap((s, i) => s.tools.map((t, j): [string, HandToolData] => [`/sections/${i}/tools/${j}`, t])),
);
