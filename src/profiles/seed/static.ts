/**
 * `static`: the seed's baseline — every tool the caller may use is sent eagerly, every turn, with
 * its full definition; there is no search. Nothing can be wrongly filtered out (`visible` is 1 for
 * every case the scopes allow), at the price of the whole catalog in every request; choosing among
 * the tools is left to the model, so the ranking metrics (`top1`, `recall@k`) are 0 by
 * construction: read `visible` and the exposure figures (docs/harness-facts.md#static).
 */
import type { Catalog } from '../../catalog/types.ts';
import { describeWith } from '../facts.ts';
import { allowedIds } from '../text.ts';
import { STATIC_FACTS } from './facts.ts';
import type { BeforeSearch, Caller, Profile, SearchAddition, CallProtocol, QueryStyle } from '../types.ts';

export class StaticProfile implements Profile {
  readonly name: string;
  readonly searchLimit = 0;
  /** Everything needed is eager: the model calls each tool it needs, nothing else. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, call: 'each' };
  readonly queryStyle: QueryStyle = 'raw';
  protected catalog: Catalog | undefined;
  private readonly description: Readonly<Record<string, unknown>>;
  readonly provider: 'openai' | 'anthropic';

  /** `description` is what `describe()` returns (a harness that behaves like this, e.g. DeepSeek's native tools, sent in OpenAI format, describes itself). */
  constructor(name: string, provider: 'openai' | 'anthropic' = 'anthropic', description: Readonly<Record<string, unknown>> = STATIC_FACTS.description) {
    this.name = name;
    this.provider = provider;
    this.description = description;
  }

  async index(catalog: Catalog): Promise<void> {
    this.catalog = catalog;
  }

  searcher(): null {
    return null;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    return { eager: allowedIds(this.catalog.tools, caller.allowed), metaTools: [], advertisement: '' };
  }

  afterSearch(): SearchAddition {
    return { form: 'schemas', loaded: [], text: '' };
  }

  describe(): Record<string, unknown> {
    return describeWith(this.description);
  }
}
