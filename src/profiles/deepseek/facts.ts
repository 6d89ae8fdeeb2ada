/**
 * What the DeepSeek Harness (DSH) profiles describe (`describe()`, recorded in `results.json`), as
 * data, with the source of each fact. DSH's core repository was not readable: the sources are
 * secondary (ports and source-documentation pages). docs/harness-facts.md#deepseek says the same
 * in words.
 */
import { RUN, type Facts } from '../facts.ts';
import { STATIC_FACTS } from '../seed/facts.ts';

const SECONDARY = 'secondary: DSH ports and source-documentation pages (packages/core/tools/src/code-mode.ts)';

/** `deepseek`: the static full list in OpenAI format. */
export const DEEPSEEK_NATIVE_FACTS = {
  description: {
    profile: 'deepseek',
    mode: 'native',
    why: 'no official DSH tool-search plugin; api.deepseek.com/anthropic ignores the anthropic-beta header, so tool search cannot be assumed',
    exposure: STATIC_FACTS.description.exposure,
    search: null,
  },
  sources: [
    { what: 'no official tool-search plugin', where: 'secondary: DSH ports and source-documentation pages' },
    {
      what: 'the Anthropic-compatible API (api.deepseek.com/anthropic) ignores the anthropic-beta header',
      where: "DeepSeek's API documentation of its Anthropic-compatible endpoint (api.deepseek.com/anthropic)",
    },
  ],
} as const satisfies Facts;

/** `deepseek-code`: one `run_code` tool and an SDK of every tool. */
export const DEEPSEEK_CODE_FACTS = {
  description: {
    profile: 'deepseek',
    mode: 'code',
    exposure:
      'one run_code tool; every tool the caller may use (core and pinned included) as a generated TypeScript SDK in the prompt (one doc line + one signature each): O(N) in the catalog',
    search: null,
    preselection:
      'none: code mode has no discovery primitive and DSH documents no preselection [unknown upstream]; deepseek-code-preselect adds one (Backpack bm25 top 10)',
    rendering: 'pinned: /** summary */ + name(args: <type from the top-level input-schema properties>): Promise<unknown> [projection unknown upstream]',
    sources: SECONDARY,
  },
  sources: [
    {
      what: 'code mode: one run_code tool, tools as a generated TypeScript SDK (await tools.<name>(args)), no discovery primitive ("selection has to happen before SDK generation")',
      where: SECONDARY,
    },
  ],
} as const satisfies Facts;

/** `deepseek-code-preselect`; `describe()` sets the preselecting retriever's name and the set size. */
export const DEEPSEEK_PRESELECT_FACTS = {
  description: {
    profile: 'deepseek',
    mode: 'code, preselected',
    exposure: 'one run_code tool; the preselected tools as a generated TypeScript SDK (one doc line + one signature each)',
    preselection: {
      retriever: RUN,
      size: RUN,
      pinned:
        "Backpack's, not DeepSeek's: DSH code mode has no search primitive and an upstream preselection is unknown; Backpack bm25 top 10 for the request, harness-side (no model call)",
    },
    sources: SECONDARY,
  },
  sources: [{ what: 'code mode has no search primitive; the preselection is Backpack’s own', where: SECONDARY }],
} as const satisfies Facts;
