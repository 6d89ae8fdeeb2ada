/**
 * The monster company's 150 plugins: boxes of a few native tools each, across engineering,
 * support, sales, finance, HR, recruiting, legal, marketing, design, data, security and IT.
 * Some tool names recur across plugins (`summarize`, `search`, `export_report`) and some plugins
 * mirror an MCP server's operation natively (the ClickUp plugin's `create_task` beside the
 * ClickUp MCP server's), so retrieval has to tell them apart. Hand-written vocabulary in
 * `data/plugins.json`, checked against the generator data schema when this module loads.
 */
import pluginsData from '../data/plugins.json' with { type: 'json' };
import { checkedGeneratorData } from '../data-schema.ts';
import { readHandTools, sharedParams, type HandToolData } from './hand-tools.ts';
import type { ParamSpec, PluginSpec } from './types.ts';

interface PluginData {
  name: string;
  display: string;
  description: string;
  tools: HandToolData[];
}

const data = checkedGeneratorData<{ sharedParams: ParamSpec[]; sections: Array<{ title: string; plugins: PluginData[] }> }>(
  'plugins',
  'plugins.json',
  pluginsData,
);

const shared = sharedParams(data.sharedParams);

export const PLUGINS: readonly PluginSpec[] = data.sections.flatMap((s, i) =>
  s.plugins.map(({ name, display, description, tools }, j) => ({
    name,
    display,
    description,
    tools: readHandTools(
      'plugins.json',
      shared,
      tools.map((t, k): [string, HandToolData] => [`/sections/${i}/plugins/${j}/tools/${k}`, t]),
    ),
  })),
);
