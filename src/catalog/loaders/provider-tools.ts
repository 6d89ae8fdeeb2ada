/**
 * What the OpenAI and Anthropic loaders share: recognising a provider tool list, walking its
 * entries (an entry either defines a tool or is a built-in tool to skip), and loading a file with
 * its warnings reported at the end. Each loader supplies how one entry is read.
 */
import { InputError } from '../../util/errors.ts';
import type { SchemaForm } from '../schema-drafts.ts';
import type { Catalog, JsonSchema, Server, Tool } from '../types.ts';
import { assembleCatalog, requireText, type Located } from '../validate.ts';
import {
  absentIfNull,
  describeJson,
  isObject,
  providerPlacement,
  providerServers,
  providerTool,
  providerToolArray,
  readJsonFile,
  toolListOf,
  type LoadOptions,
} from './common.ts';
import { LoadNotes, type SkippedProvider } from './load-notes.ts';

/** A tool entry as a loader read it: the definition, and where its input schema stood and which older forms it used. */
export interface ProviderToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  schemaWhere: string;
  forms: SchemaForm[];
}

/** Reads one entry of a provider tool list: the definition of the entry `raw` at `where`, or the `type` of a tool to skip. */
export type ProviderEntryReader = (raw: Record<string, unknown>, file: string, where: string) => ProviderToolDefinition | string;

/**
 * How errors name each provider's tools: those a file must list (`listOf`, when the value is no
 * list), and the kind indexed with which tools have a schema (when a file has none).
 */
const WORDING: Record<SkippedProvider, { listOf: string; indexed: string; indexedHint: string }> = {
  OpenAI: { listOf: 'OpenAI function', indexed: 'function', indexedHint: 'only {"type":"function"} tools have a schema' },
  Anthropic: { listOf: 'Anthropic', indexed: 'custom', indexedHint: 'only tools with an "input_schema" have a schema' },
};

/** True if `value` is a non-empty provider tool list (see `toolListOf`) whose every entry is an object passing `test`. */
export function isProviderToolList(value: unknown, test: (entry: Record<string, unknown>) => boolean): boolean {
  const list = toolListOf(value);
  return list !== undefined && list.length > 0 && list.every((t) => isObject(t) && test(t));
}

/** A tool entry's `name` (required) and `description` (optional, `null` as absent: empty) in `fields`, read at `at`. */
export function providerNameAndDescription(fields: Record<string, unknown>, file: string, at: string): { name: string; description: string } {
  const name = requireText(fields.name, 'tool "name"', file, `${at}.name`);
  const description = absentIfNull(fields.description);
  if (description !== undefined && typeof description !== 'string') {
    throw new InputError(`tool "${name}": "description" must be a string (got ${describeJson(description)})`, { file, where: `${at}.description` });
  }
  return { name, description: (description as string | undefined) ?? '' };
}

/** The tools of a provider tool list already read from `file`; skipped tools and older schema forms are noted in `notes`. */
function readProviderTools(
  provider: SkippedProvider,
  readEntry: ProviderEntryReader,
  value: unknown,
  file: string,
  opts: LoadOptions,
  notes: LoadNotes,
): { tools: Array<Located<Tool>>; servers: Server[] } {
  const wording = WORDING[provider];
  const placement = providerPlacement(opts, file);
  const { list, path } = providerToolArray(value, file, wording.listOf);
  const tools: Array<Located<Tool>> = [];
  list.forEach((raw, i) => {
    const where = `${path}[${i}]`;
    if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
    const def = readEntry(raw, file, where);
    if (typeof def === 'string') {
      notes.noteSkipped(provider, def);
      return;
    }
    const tool = providerTool(def, placement);
    notes.noteSchemaForms(tool.id, def.schemaWhere, def.forms);
    tools.push({ value: tool, file, where });
  });
  if (tools.length === 0) {
    const skipped = notes.skippedSummary(provider);
    throw new InputError(`no ${wording.indexed} tool to index${skipped !== undefined ? ` (${skipped})` : ''}: ${wording.indexedHint}`, { file, where: path });
  }
  return { tools, servers: providerServers(placement) };
}

/** Load a provider tools file as a catalog, its warnings sent to `opts.onWarning`. */
export function loadProviderTools(provider: SkippedProvider, readEntry: ProviderEntryReader, file: string, opts: LoadOptions): Catalog {
  const notes = new LoadNotes();
  const catalog = assembleCatalog(readProviderTools(provider, readEntry, readJsonFile(file), file, opts, notes));
  notes.report(opts.onWarning);
  return catalog;
}
