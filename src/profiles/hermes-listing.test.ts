import { describe, expect, it } from 'vitest';
import {
  compareTools,
  groupByLabel,
  ladder,
  type Listing,
  LISTING_HEADER,
  listingTier,
  listingTokenBudget,
  prepareTool,
  resolveHermesConfig,
  shortDescription,
} from './hermes/index.ts';

/** One tool of a listing: its name, full description and group label. */
interface ListingEntry {
  name: string;
  description: string;
  label: string;
}

/** `build_catalog_listing_with_form` over plain entries: the listing within `maxTokens` (chars/4), and its form. */
function buildListing(entries: readonly ListingEntry[], maxTokens: number): Listing {
  return ladder(
    groupByLabel(
      entries.map((e) => ({ label: e.label, tool: prepareTool(e.name, shortDescription(e.description)) })),
      compareTools,
    ),
    maxTokens,
  );
}

describe('hermes: short descriptions (_short_desc)', () => {
  // Expected values from upstream's _short_desc run in Python.
  it.each([
    ['Send an email. Then more.', 'Send an email.'],
    ['Use e.g. this tool. More', 'Use e.g. this tool.'],
    ['Foo i.e. bar etc. baz. Next', 'Foo i.e. bar etc. baz.'],
    ['Works with files, folders etc. and more.', 'Works with files, folders etc. and more.'],
    ['Version 2.5 is out.', 'Version 2.5 is out.'],
    ['Really? Yes', 'Really?'],
    ['Stop! Go', 'Stop!'],
    ['Ends with dots...', 'Ends with dots...'],
    ['Fetc. Next', 'Fetc.'], // no word boundary before "etc": a sentence end
    ['Use x_e.g. Next', 'Use x_e.g.'],
    ['ée.g. Next', 'ée.g.'], // é is a word character in Python
    ['e.g. Next', 'e.g. Next'],
    ['  a\n\t b  ', 'a b'],
    ['Delete it.\u00a0Cannot be undone.', 'Delete it.'],
    ['Run it.\u200bNext', 'Run it.\u200bNext'], // U+200B is not whitespace
    ['', ''],
    ['x'.repeat(60), 'x'.repeat(60)],
    ['x'.repeat(61), `${'x'.repeat(60)}…`],
    ['Retrieves the list of all open pull requests for a repository including drafts and merged ones', 'Retrieves the list of all open pull requests for a…'],
    ['Create, update, or delete records in the warehouse tables, views; and more', 'Create, update, or delete records in the warehouse tables…'],
  ])('%j → %j', (input, expected) => {
    expect(shortDescription(input)).toBe(expected);
  });

  it('counts characters, not UTF-16 units', () => {
    const astral = '😀'.repeat(60);
    expect(shortDescription(astral)).toBe(astral);
    expect(shortDescription(`${astral}😀`)).toBe(`${astral}…`);
  });
});

describe('hermes: the listing ladder', () => {
  const E: ListingEntry[] = [
    { name: 'mcp__github__create_issue', description: 'Open a new issue in a repository. Extra text.', label: 'github' },
    { name: 'plugin__slack__send', description: 'Send a message to a channel.', label: 'slack' },
    { name: 'mcp__github__list_issues', description: 'List issues.', label: 'github' },
    { name: 'mcp__aws__x', description: '', label: 'aws' },
  ];
  const FULL = [
    LISTING_HEADER,
    'aws tools (1):',
    '- mcp__aws__x',
    'github tools (2):',
    '- mcp__github__create_issue: Open a new issue in a repository.',
    '- mcp__github__list_issues: List issues.',
    'slack tools (1):',
    '- plugin__slack__send: Send a message to a channel.',
  ].join('\n');
  const NAMES = [
    LISTING_HEADER,
    'aws tools (1):',
    'mcp__aws__x',
    'github tools (2):',
    'mcp__github__create_issue, mcp__github__list_issues',
    'slack tools (1):',
    'plugin__slack__send',
  ].join('\n');
  const MIXED = [
    LISTING_HEADER,
    'aws tools (1):',
    'mcp__aws__x',
    'github (2 tools — names not listed; discover via `tool_search`)',
    'slack tools (1):',
    'plugin__slack__send',
  ].join('\n');

  it('reaches full, names, mixed and none at the budgets where each first fits (301, 215, 209 chars)', () => {
    expect(FULL.length).toBe(301);
    expect(buildListing(E, 76)).toEqual({ text: FULL, form: 'full' }); // ceil(301/4) = 76
    expect(buildListing(E, 75)).toEqual({ text: NAMES, form: 'names' });
    expect(buildListing(E, 54)).toEqual({ text: NAMES, form: 'names' }); // ceil(215/4) = 54
    expect(buildListing(E, 53)).toEqual({ text: MIXED, form: 'mixed' }); // github (largest names block) collapsed: 209 chars
    // Collapsing the one-tool groups only lengthens the listing: nothing fits below.
    expect(buildListing(E, 52)).toEqual({ text: null, form: 'none' });
    expect(buildListing([], 4000)).toEqual({ text: null, form: 'none' });
  });

  it('reaches groups once every group is a summary', () => {
    const W: ListingEntry[] = [
      { name: 'mcp__warehouse__create_table_with_partitions', description: 'Create a table.', label: 'warehouse' },
      { name: 'mcp__warehouse__delete_table_and_all_snapshots', description: 'Delete a table.', label: 'warehouse' },
      { name: 'mcp__warehouse__list_tables_in_schema', description: 'List tables.', label: 'warehouse' },
    ];
    const groups = `${LISTING_HEADER}\nwarehouse (3 tools — names not listed; discover via \`tool_search\`)`;
    expect(groups.length).toBe(148);
    expect(buildListing(W, 72).form).toBe('full'); // 286 chars
    expect(buildListing(W, 71).form).toBe('names'); // 234 chars → 59
    expect(buildListing(W, 58)).toEqual({ text: groups, form: 'groups' });
    expect(buildListing(W, 37)).toEqual({ text: groups, form: 'groups' });
    expect(buildListing(W, 36)).toEqual({ text: null, form: 'none' });
    expect([listingTier(true, 'full'), listingTier(true, 'mixed'), listingTier(true, 'groups'), listingTier(true, 'none'), listingTier(false, 'none')]).toEqual(
      [1, 1, 2, 2, 0],
    );
  });

  it('sorts groups and tools in code-point order', () => {
    const text = buildListing(
      [
        { name: 'z', description: '', label: 'b' },
        { name: 'a', description: '', label: 'b' },
        { name: 'q', description: '', label: 'B' },
      ],
      4000,
    ).text;
    expect(text).toBe([LISTING_HEADER, 'B tools (1):', '- q', 'b tools (2):', '- a', '- z'].join('\n'));
  });

  it('budgets min(listing_max_tokens, int(ctx · pct / 100)) tokens', () => {
    expect(listingTokenBudget(resolveHermesConfig())).toBe(4000);
    expect(listingTokenBudget(resolveHermesConfig({ contextWindow: 50_000 }))).toBe(2500);
    expect(listingTokenBudget(resolveHermesConfig({ contextWindow: 1001 }))).toBe(50);
    expect(listingTokenBudget(resolveHermesConfig({ contextWindow: 0 }))).toBe(4000); // unknown → 10,000 leg
    expect(listingTokenBudget(resolveHermesConfig({ contextWindow: 0, listingMaxTokens: 60_001 }))).toBe(10_000);
    expect(listingTokenBudget(resolveHermesConfig({ listingMaxTokens: 10 }))).toBe(200); // clamped to 200..60,000
    expect(listingTokenBudget(resolveHermesConfig({ thresholdPct: 0 }))).toBe(0);
    expect(resolveHermesConfig({ searchDefaultLimit: 99, maxSearchLimit: 80 })).toMatchObject({ searchDefaultLimit: 50, maxSearchLimit: 50 });
    expect(() => resolveHermesConfig({ enabled: 'yes' as 'on' })).toThrow(RangeError);
  });
});
