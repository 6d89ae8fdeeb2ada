/**
 * What a profile puts in front of the model for each case: the eager, callable, on-the-wire and
 * advertised tools per caller (computed once per scope set and role), what its search loads, the
 * scope leaks among them, and their tokens.
 */
import type { Case, Catalog, Tool } from '../catalog/types.ts';
import type { BeforeSearch, Caller, Profile } from '../profiles/types.ts';
import { listingLength } from '../profiles/catalog-listing.ts';
import { Policy } from '../retrievers/policy.ts';
import type { Hit } from '../retrievers/types.ts';
import { DEFAULT_COUNTER, type TokenCounterName } from '../tokens/count.ts';
import type { Provider } from '../tokens/serialize.ts';
import type { ExposureSummary, QueryDetail } from './results.ts';
import { exposureMeans } from './profile-figures.ts';
import { caseCalls } from './calls.ts';
import { LINE_CACHE_LIMIT, LINE_SUMMED_CHARS, type TokenMeter } from './tokens.ts';
import { forEachLine, LineMemo } from '../util/line-cache.ts';

/** The run's token meter for a provider serialization and a counter (shared: each definition is counted once per run). */
export type MeterFor = (provider: Provider, counter: TokenCounterName) => TokenMeter;

const PINNED = 1;
const CORE = 2;

interface BeforeEntry {
  /** Eager or callable tools (a mask, not a set of ids: there may be hundreds of callers). */
  shown: Uint8Array;
  /** Eager definitions. */
  count: number;
  /** Non-pinned tools shown (eager or callable). */
  unpinned: number;
  /** Of those, the harness's own (core) tools: listed whatever the request, counted apart from what retrieval added. */
  core: number;
  tokens: number;
  estimate: number | undefined;
  /** Tokens of definitions on the wire that the model does not read (undefined: none). */
  wire: number | undefined;
  /** Tools outside the caller's scopes that the profile shows before any search (eager, callable, on the wire, named in the advertisement). */
  leaks: string[];
}

/** Per-caller exposure of a profile (computed once per scope set and role), the case figures and their tokens. */
export class ExposureTally {
  readonly sticky: boolean;
  readonly searchLimit: number;
  private readonly cache = new Map<string, BeforeEntry>();
  private readonly position = new Map<string, number>();
  private readonly tools: readonly Tool[];
  private readonly ids: readonly string[];
  /** Each catalog tool's kind by position: {@link PINNED}, {@link CORE} (the harness's own, not pinned) or 0. */
  private readonly kind: Uint8Array;
  private readonly meter: TokenMeter;
  private readonly estimator: TokenMeter | undefined;
  private readonly placement: 'history' | 'prefix';

  constructor(
    private readonly profile: Profile,
    readonly policy: Policy,
    catalog: Catalog,
    private readonly searches: boolean,
    meterFor: MeterFor,
  ) {
    this.sticky = profile.sticky === true;
    this.searchLimit = profile.searchLimit;
    this.placement = profile.placement ?? 'history';
    catalog.tools.forEach((t, i) => this.position.set(t.id, i));
    this.tools = catalog.tools;
    // by position, so the per-caller walks along the catalog read arrays, not tool objects of many shapes
    this.ids = catalog.tools.map((t) => t.id);
    this.kind = Uint8Array.from(catalog.tools, (t) => (t.pinned ? PINNED : t.source === 'core' ? CORE : 0));
    this.meter = meterFor(profile.provider ?? 'anthropic', DEFAULT_COUNTER);
    this.estimator = profile.estimator ? meterFor(profile.provider ?? 'anthropic', profile.estimator) : undefined;
  }

  private callerOf(caller: { callerScopes?: readonly string[]; role?: string }): Caller {
    const allowed = this.policy.allowedMask(caller.callerScopes);
    return {
      ...(allowed ? { allowed } : {}),
      ...(caller.callerScopes ? { callerScopes: caller.callerScopes } : {}),
      ...(caller.role !== undefined ? { role: caller.role } : {}),
    };
  }

  private before(caller: { callerScopes?: readonly string[]; role?: string }): BeforeEntry {
    const key = Policy.callerKey(caller);
    let entry = this.cache.get(key);
    if (!entry) {
      const who = this.callerOf(caller);
      const b = this.profile.beforeSearch(who);
      const eager = this.idMask(b.eager);
      const shown = b.callable?.length ? this.idMask(b.callable, eager.slice()) : eager;
      let unpinned = 0;
      let core = 0;
      const kind = this.kind;
      for (let p = 0; p < shown.length; p++) {
        if (shown[p] !== 1 || kind[p] === PINNED) continue;
        unpinned++;
        if (kind[p] === CORE) core++;
      }
      let wire: number | undefined;
      if (b.wire?.length) {
        wire = 0;
        for (const id of b.wire) wire += this.meter.toolTokens(id);
      }
      const allowed = who.allowed;
      const leaks = allowed ? this.leaksBefore(b, allowed) : [];
      entry = {
        shown,
        count: b.eager.length,
        unpinned,
        core,
        tokens: this.meter.before(b, eager).total,
        estimate: this.estimator?.before(b, eager).total,
        wire,
        leaks,
      };
      this.cache.set(key, entry);
    }
    return entry;
  }

  /** The catalog tools among `ids` that `allowed` forbids, each once, in order. */
  private outside(allowed: Uint8Array, ids: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const id of ids) {
      const p = this.position.get(id);
      if (p !== undefined && allowed[p] !== 1) out.add(id);
    }
    return [...out];
  }

  /**
   * The tools outside the caller's scopes among the eager, callable and on-the-wire ones and those
   * the advertisement names, each once, in that order. A long listing is read piece by piece, each
   * piece's names found once per profile (the same names, in the same order, as reading its text).
   */
  private leaksBefore(b: BeforeSearch, allowed: Uint8Array): string[] {
    const l = b.listing;
    if (!l || listingLength(l) <= LINE_SUMMED_CHARS)
      return this.outside(allowed, [...b.eager, ...(b.callable ?? []), ...(b.wire ?? []), ...this.namedIn(b.advertisement)]);
    const out = new Set(this.outside(allowed, [...b.eager, ...(b.callable ?? []), ...(b.wire ?? []), ...this.namedIn(l.head)]));
    if (this.pieceNames?.pieces !== l.pieces) this.pieceNames = { pieces: l.pieces, named: new Array(l.pieces.length) };
    const named = this.pieceNames.named;
    for (const p of l.positions) {
      let at = named[p];
      if (at === undefined) {
        const found: string[] = [];
        this.scanNames(l.pieces[p]!, found);
        at = Int32Array.from(found, (id) => this.position.get(id)!);
        named[p] = at;
      }
      for (const q of at) if (allowed[q] !== 1) out.add(this.ids[q]!);
    }
    for (const id of this.outside(allowed, this.namedIn(l.tail))) out.add(id);
    return [...out];
  }

  /** The catalog positions each listing piece names (see {@link leaksBefore}), for the last listing's pieces. */
  private pieceNames: { pieces: readonly string[]; named: (Int32Array | undefined)[] } | undefined;

  /** Per-line names of advertisements (rebuilt for every caller, they share most lines). */
  private readonly lineNames = new LineMemo<readonly string[]>(LINE_CACHE_LIMIT);

  /**
   * Catalog ids named in a text (an advertisement): its words, split at whitespace, quotes, brackets
   * and list punctuation, with a trailing `:` or `.` dropped, looked up in the catalog. A plain
   * word (letters only) that happens to be a tool id (`bash`, `read`) is more likely prose and is
   * not taken for a name: ids with a separator or a digit are (`mcp__github__create_issue`). The
   * text is read line by line, each distinct line once per profile (an advertisement is rebuilt for
   * each caller, and callers' advertisements share most lines): a newline separates words, so the
   * names and their order are those of the whole text.
   */
  private namedIn(text: string): string[] {
    const out: string[] = [];
    if (!text) return out;
    const scan = (l: string): readonly string[] => {
      const found: string[] = [];
      this.scanNames(l, found);
      return found;
    };
    forEachLine(text, (line) => {
      for (const n of this.lineNames.of(line, scan)) out.push(n);
    });
    return out;
  }

  /** The catalog ids a text names (see {@link namedIn}), appended to `out` in order. */
  private scanNames(text: string, out: string[]): void {
    for (const raw of text.split(/[\s"'`()[\]{}<>|*,;]+/)) {
      const word = raw.replace(/[:.]+$/, '');
      if (word && !/^\p{L}+$/u.test(word) && this.position.has(word)) out.push(word);
    }
  }

  /**
   * Ids as a mask by position (set into `mask` when given). Eager and callable lists come in catalog
   * order (the profile contract), so one walk along the catalog finds them without a lookup per id;
   * an id out of order falls back to the position map.
   */
  private idMask(ids: readonly string[], mask = new Uint8Array(this.tools.length)): Uint8Array {
    const all = this.ids;
    let j = 0;
    for (let p = 0; p < all.length && j < ids.length; p++) {
      if (all[p] === ids[j]) {
        mask[p] = 1;
        j++;
      }
    }
    for (; j < ids.length; j++) mask[this.position.get(ids[j]!)!] = 1;
    return mask;
  }

  /**
   * One case's exposure: its gold tools in front of the model before the search (eager or callable),
   * those the search brought beyond its ranking, the case's exposure figures and its model calls.
   * `query` is what the search received (`''`: the model issued none); `kept`: a sticky turn kept
   * its set (no search).
   */
  record(
    c: Pick<Case, 'goldMode'> & { readonly expectedTools?: readonly string[] },
    caller: { callerScopes?: readonly string[]; role?: string },
    ranked: readonly Hit[],
    query: string,
    kept: boolean,
  ): Pick<QueryDetail, 'eager' | 'expanded' | 'exposure'> & { exposureLeaks: string[] } {
    const entry = this.before(caller);
    const who = this.callerOf(caller);
    const gold = [...new Set(c.expectedTools ?? [])];
    let loaded: readonly string[] = [];
    let chars = 0;
    let tokens = 0;
    let estimate = 0;
    let searches = 0;
    let opened = 0;
    let definedIds: string[] = [];
    // An empty query: the model had nothing to search for and issued no search, so nothing was
    // added, unless a sticky session kept its set in front of the model (then counted, no call).
    if (this.searches && (query !== '' || ranked.length > 0)) {
      const added = this.profile.afterSearch(ranked, who, query);
      loaded = added.loaded;
      definedIds = (added.definitions ?? []).map((d) => d.name);
      chars = added.text.length;
      tokens = this.meter.search(added);
      if (this.estimator) estimate = this.estimator.search(added);
      const searched = !kept && query !== '';
      searches = searched ? (added.searches ?? 1) : 0;
      opened = searched ? (added.namespacesOpened ?? 0) : 0;
    }
    const before = gold.filter((id) => entry.shown[this.position.get(id) ?? -1] === 1);
    const rankedIds = new Set(ranked.map((h) => h.id));
    const loadedSet = new Set(loaded);
    const expanded = gold.filter((id) => !rankedIds.has(id) && loadedSet.has(id) && !before.includes(id));
    let loadedUnpinned = 0;
    for (const id of loaded) {
      if (rankedIds.has(id)) continue;
      const p = this.position.get(id);
      if (p === undefined || this.kind[p] !== PINNED) loadedUnpinned++;
    }
    const exposureLeaks = who.allowed ? [...new Set([...entry.leaks, ...this.outside(who.allowed, [...loaded, ...definedIds])])] : [];
    const calls = caseCalls(this.profile.calls, {
      gold,
      goldMode: c.goldMode ?? 'all',
      before,
      searched: [...rankedIds, ...loaded],
      searches,
      namespacesOpened: opened,
    });
    return {
      exposureLeaks,
      eager: before,
      ...(expanded.length ? { expanded } : {}),
      exposure: {
        eagerTools: entry.count,
        eagerUnpinned: entry.unpinned,
        ...(entry.core ? { coreEager: entry.core } : {}),
        loadedTools: loaded.length,
        resultChars: chars,
        beforeTokens: entry.tokens,
        searchTokens: tokens,
        ...(entry.estimate !== undefined ? { estimate: { before: entry.estimate, search: estimate } } : {}),
        ...(entry.wire !== undefined ? { wireTokens: entry.wire } : {}),
        ...(loadedUnpinned ? { loadedUnpinned } : {}),
        calls,
      },
    };
  }

  /** Tokens before search for a caller with every scope and no role. */
  unrestrictedTokens(): { total: number; eager: number; metaTools: number; advertisement: number; estimate?: number; wire?: number } {
    const b = this.profile.beforeSearch({});
    const wire = b.wire?.length ? b.wire.reduce((a, id) => a + this.meter.toolTokens(id), 0) : undefined;
    return { ...this.meter.before(b), ...(this.estimator ? { estimate: this.estimator.before(b).total } : {}), ...(wire !== undefined ? { wire } : {}) };
  }

  /**
   * The harness's own (core, non-pinned) tools a caller with every scope has in front of the model
   * before any search, eager or callable, and the tokens of those sent as definitions.
   */
  private coreEager(b: ReturnType<Profile['beforeSearch']>): { tools: number; tokens: number } {
    const shown = new Set([...b.eager, ...(b.callable ?? [])]);
    const eager = new Set(b.eager);
    let tools = 0;
    let tokens = 0;
    for (const id of shown) {
      const t = this.tools[this.position.get(id) ?? -1];
      if (!t || t.pinned || t.source !== 'core') continue;
      tools++;
      if (eager.has(id)) tokens += this.meter.toolTokens(id);
    }
    return { tools, tokens };
  }

  tokenMeta(): { counter: string; provider: string; placement: 'history' | 'prefix'; search: boolean; estimator?: string } {
    return {
      counter: DEFAULT_COUNTER,
      provider: this.meter.provider,
      placement: this.placement,
      search: this.searches,
      ...(this.profile.estimator ? { estimator: this.profile.estimator } : {}),
    };
  }

  summary(details: readonly QueryDetail[]): ExposureSummary {
    const b = this.profile.beforeSearch({});
    return {
      searchLimit: this.searches ? this.searchLimit : 0,
      search: this.searches,
      // the profile's own form (an empty search tells it), not the last case's: a shard may search nothing
      form: this.searches ? this.profile.afterSearch([], {}, '').form : 'none',
      sticky: this.sticky,
      unrestricted: {
        eagerTools: b.eager.length,
        metaTools: b.metaTools.map((t) => t.name),
        advertisementChars: b.advertisement.length,
        advertisementBytes: Buffer.byteLength(b.advertisement),
      },
      coreEager: this.coreEager(b),
      perCase: exposureMeans(details),
    };
  }
}
