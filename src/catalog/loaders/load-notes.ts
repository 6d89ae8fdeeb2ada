/**
 * What a catalog loader accepted but changed or left out, gathered while it reads and reported at
 * the end as a few short warnings: a count and the first example per kind, never one line per tool.
 * The order of the lines is fixed (schemas, then skipped tools by provider), so the same file
 * always gives the same warnings.
 */
import type { SchemaForm } from '../schema-drafts.ts';
import { SCHEMA_FORMS } from '../schema-drafts.ts';

/** Receives each warning (one line, no `warning:` prefix). */
export type WarningSink = (message: string) => void;

/** Providers whose non-indexable tools a loader skips. */
export type SkippedProvider = 'OpenAI' | 'Anthropic';

/** What a skipped tool is called, for one and for several. */
const SKIPPED_WORDING: Record<SkippedProvider, [string, string]> = {
  OpenAI: ['OpenAI tool that is not a function (built-in or custom)', 'OpenAI tools that are not functions (built-in or custom)'],
  Anthropic: ['Anthropic server/client tool', 'Anthropic server/client tools'],
};

/** At most this many skipped tool types are named in a warning. */
const NAMED_TYPES = 6;

export class LoadNotes {
  private schemaTools = 0;
  private readonly schemaForms = new Set<SchemaForm>();
  private firstSchema: string | undefined;
  private readonly skipped = new Map<SkippedProvider, string[]>();

  /** Tool `toolId`'s input schema at `where` used the older `forms` (nothing if none). */
  noteSchemaForms(toolId: string, where: string, forms: readonly SchemaForm[]): void {
    if (forms.length === 0) return;
    this.schemaTools++;
    for (const f of forms) this.schemaForms.add(f);
    this.firstSchema ??= `${toolId} at ${where}`;
  }

  /** A tool of `type` that cannot be indexed was left out. */
  noteSkipped(provider: SkippedProvider, type: string): void {
    const list = this.skipped.get(provider) ?? [];
    list.push(type);
    this.skipped.set(provider, list);
  }

  /** `skipped 2 OpenAI tools that are not functions (built-in or custom): web_search, file_search`, or `undefined`. */
  skippedSummary(provider: SkippedProvider): string | undefined {
    const types = this.skipped.get(provider);
    if (!types?.length) return undefined;
    const distinct = [...new Set(types)];
    const named = distinct.slice(0, NAMED_TYPES).join(', ') + (distinct.length > NAMED_TYPES ? `, … (${distinct.length - NAMED_TYPES} more types)` : '');
    return `skipped ${types.length} ${SKIPPED_WORDING[provider][types.length === 1 ? 0 : 1]}: ${named}`;
  }

  /** The warnings, in their fixed order. */
  messages(): string[] {
    const out: string[] = [];
    if (this.schemaTools > 0) {
      const forms = SCHEMA_FORMS.filter((f) => this.schemaForms.has(f)).join(', ');
      const tools = this.schemaTools === 1 ? '1 tool uses' : `${this.schemaTools} tools use`;
      out.push(`${tools} older JSON Schema forms: ${forms} (first: ${this.firstSchema}); normalised to 2020-12`);
    }
    for (const provider of ['OpenAI', 'Anthropic'] as const) {
      const line = this.skippedSummary(provider);
      if (line !== undefined) out.push(line);
    }
    return out;
  }

  /** Send the warnings to `sink` (none: they go nowhere). */
  report(sink: WarningSink | undefined): void {
    if (sink === undefined) return;
    for (const m of this.messages()) sink(m);
  }
}
