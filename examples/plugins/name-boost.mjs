/**
 * A Backpack plugin: a retriever and a report format, registered through the same registries as
 * Backpack's own (docs/own-strategy.md). Plain JavaScript, no dependency: Backpack hands the
 * plugin everything it needs (`backpack`, the plugin API).
 *
 *   backpack eval --dataset metatool --plugin examples/plugins/name-boost.mjs --retrievers bm25,name-boost
 *   backpack report reports/metatool --plugin examples/plugins/name-boost.mjs --format html,recall-tsv
 *
 * - `name-boost`: Backpack's bm25 top 50, each tool's score raised by 1 for every request word in
 *   the tool's own name, the top k kept. Scope filtering is bm25's (the `allowed` mask is handed on),
 *   so it never scores a tool the caller may not see.
 * - `recall-tsv`: a report format, `recall.tsv`: recall@k of every strategy, tab-separated.
 *
 * Results record the plugin (name, version, sha256 of this file) in `config.plugins` and in each of
 * its strategies' `config.origin`; `backpack gate` warns when it changed since the figures were blessed.
 */

const WORD = /[a-z0-9]+/g;
const words = (text) => (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2);

class NameBoost {
  constructor(name, bm25, rankStable) {
    this.name = name;
    this.bm25 = bm25;
    this.rankStable = rankStable;
    this.names = new Map();
  }

  async index(catalog) {
    await this.bm25.index(catalog);
    this.names = new Map(catalog.tools.map((t) => [t.id, new Set(words(t.name))]));
  }

  async search(request, context) {
    const hits = await this.bm25.search(request, { ...context, k: Math.max(context.k, 50) });
    const asked = words(request);
    const boosted = hits.map((h) => {
      const name = this.names.get(h.id);
      return { id: h.id, score: h.score + asked.filter((w) => name.has(w)).length };
    });
    return this.rankStable(boosted).slice(0, context.k);
  }

  describe() {
    return { retriever: 'name-boost', base: 'bm25', candidates: 50, boost: '+1 per request word (3+ letters) in the tool name' };
  }
}

export default {
  name: 'name-boost',
  version: '1.0.0',
  register(backpack) {
    backpack.registerRetriever('name-boost', {
      description: "bm25's top 50 re-ranked: +1 per request word in the tool's name. Score: bm25's plus the boost (unbounded ≥ 0); a floor is on this scale",
      create: (name) => new NameBoost(name, backpack.createRetriever('bm25'), backpack.rankStable),
    });
    backpack.registerReportFormat('recall-tsv', {
      description: 'recall@k of every strategy, tab-separated (recall.tsv)',
      file: 'recall.tsv',
      render: (results) => {
        const ks = results.config.ks;
        const strategies = { ...results.retrievers, ...(results.profiles ?? {}) };
        const rows = Object.entries(strategies).map(([name, r]) =>
          [name, ...ks.map((k) => (r.metrics.overall[`recall@${k}`] ?? Number.NaN).toFixed(3))].join('\t'),
        );
        return `${['strategy', ...ks.map((k) => `recall@${k}`)].join('\t')}\n${rows.join('\n')}\n`;
      },
    });
  },
};
