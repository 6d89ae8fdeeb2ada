import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listFiles, QRELS_HEADER, readDataset, writeDataset, type ToolLineMemo } from './dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { sha256 } from '../util/hash.ts';
import { toolRecord } from './dataset-records.ts';
import { catalogHash } from './manifest.ts';
import { makeSkill, makeTool } from './model.ts';
import type { Dataset } from './types.ts';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'backpack-ds-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sample(): Dataset {
  const tools = [
    makeTool({
      name: 'search',
      source: 'mcp',
      server: 'github',
      summary: 'Search code.',
      description: 'Search code across repositories.',
      scopes: ['github:read'],
    }),
    makeTool({
      name: 'search',
      source: 'mcp',
      server: 'slack',
      summary: 'Search messages.',
      description: 'Search messages in channels.',
      scopes: ['slack:read'],
    }),
    makeTool({ name: 'finish', source: 'core', summary: 'Finish.', description: 'Report the answer and stop.', pinned: true }),
  ];
  const skills = [makeSkill({ name: 'incident-response', description: 'Run an incident.', category: 'incident-response' })];
  return {
    name: 'sample',
    catalog: { tools, skills, servers: [{ name: 'github', source: 'mcp', description: 'GitHub', instructions: '' }], plugins: [] },
    cases: [
      { id: 'a', request: 'find the flaky test in our repo', expectedTools: ['mcp__github__search'], slices: ['paraphrase'], split: 'test' },
      { id: 'b', request: 'hi', expectedTools: [], slices: ['no-tool'], split: 'test' },
      { id: 'c', request: 'what is our incident process?', expectedSkill: 'incident-response', slices: ['skill'], split: 'train' },
      {
        id: 'd',
        request: 'search code or chat',
        expectedTools: ['mcp__github__search', 'mcp__slack__search'],
        goldMode: 'any',
        slices: ['lexical'],
        callerScopes: ['github:read'],
        split: 'train',
      },
    ],
  };
}

/**
 * A description of `dir`'s corpus edited by hand (the stored tool hash is now stale), and with
 * `resign` the manifest re-signed to the edited bytes (its catalog hash set to `catalogSha256` when
 * given). Returns the corpus path.
 */
function editByHand(dir: string, resign: { catalogSha256?: string } | null): string {
  const corpus = join(dir, 'corpus.jsonl');
  const edited = readFileSync(corpus, 'utf8').replaceAll('Search code across repositories.', 'Search code everywhere.');
  writeFileSync(corpus, edited);
  if (resign) {
    const manifestPath = join(dir, 'manifest.json');
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    m.files['corpus.jsonl'] = { sha256: sha256(Buffer.from(edited)), bytes: Buffer.byteLength(edited) };
    if (resign.catalogSha256 !== undefined) m.catalogSha256 = resign.catalogSha256;
    writeFileSync(manifestPath, JSON.stringify(m));
  }
  return corpus;
}

const manifestFields = {
  name: 'sample',
  generator: null,
  seed: null,
  preset: null,
  params: {},
  counts: { tools: 3, skills: 1, cases: 4, servers: 1, plugins: 0, namespaces: 3, noToolCases: 1, sessions: 0 },
  slices: {},
  splits: {},
};

describe('writeDataset / readDataset', () => {
  it('round-trips a dataset, with no-tool cases kept out of qrels', () => {
    const dir = join(tmp(), 'out');
    const m = writeDataset(dir, sample(), manifestFields);
    expect(listFiles(dir)).toEqual([
      'corpus.jsonl',
      'manifest.json',
      'plugins.jsonl',
      'qrels/test.tsv',
      'qrels/train.tsv',
      'queries.jsonl',
      'servers.jsonl',
      'skill-qrels/train.tsv',
      'skills.jsonl',
    ]);
    expect(readFileSync(join(dir, 'qrels/test.tsv'), 'utf8')).toBe(`${QRELS_HEADER}\na\tmcp__github__search\t1\n`);
    const queries = readFileSync(join(dir, 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(queries.map((q) => q.expected)).toEqual(['tool', 'none', 'skill-only', 'tool']);
    for (const [path, e] of Object.entries(m.files)) expect(sha256(readFileSync(join(dir, path)))).toBe(e.sha256);

    const back = readDataset(dir);
    expect(back.catalog).toEqual(sample().catalog);
    expect(back.cases).toEqual(sample().cases);
    expect(back.manifest?.catalogSha256).toBe(m.catalogSha256);
    expect(readDataset(dir, { split: 'train' }).cases.map((c) => c.id)).toEqual(['c', 'd']);
  });

  it('writes byte-identical files for the same dataset', () => {
    const a = join(tmp(), 'a');
    const b = join(tmp(), 'b');
    expect(writeDataset(a, sample(), manifestFields).files).toEqual(writeDataset(b, sample(), manifestFields).files);
    expect(readFileSync(join(a, 'manifest.json'), 'utf8')).toBe(readFileSync(join(b, 'manifest.json'), 'utf8'));
  });

  it('replaces an existing dataset and leaves no temporary folder behind', () => {
    const root = tmp();
    const dir = join(root, 'ds');
    writeDataset(dir, sample(), manifestFields);
    const smaller = sample();
    smaller.cases = smaller.cases.slice(0, 2);
    writeDataset(dir, smaller, manifestFields);
    expect(readDataset(dir).cases).toHaveLength(2);
    expect(readdirSync(root)).toEqual(['ds']);
  });

  it('leaves the old dataset in place when writing fails', () => {
    const root = tmp();
    const dir = join(root, 'ds');
    writeDataset(dir, sample(), manifestFields);
    const bad = sample();
    (bad.cases[0] as unknown as { slices: unknown }).slices = {
      toJSON: () => {
        throw new Error('boom');
      },
    };
    expect(() => writeDataset(dir, bad, manifestFields)).toThrow(/boom/);
    expect(readDataset(dir).cases).toHaveLength(4);
    expect(readdirSync(root)).toEqual(['ds']);
  });

  it('refuses a file changed after it was written, naming it', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    writeFileSync(join(dir, 'queries.jsonl'), readFileSync(join(dir, 'queries.jsonl'), 'utf8').replace('hi', 'hello'));
    const err = (() => {
      try {
        readDataset(dir);
      } catch (e) {
        return e;
      }
    })() as InputError;
    expect(err).toBeInstanceOf(InputError);
    expect(err.file).toBe(join(dir, 'queries.jsonl'));
    expect(err.message).toMatch(/changed after it was written/);
    expect(readDataset(dir, { verify: false }).cases[1]!.request).toBe('hello');
  });

  it('checks hashes and schemas on files the manifest does not vouch for, and the catalog hash on those it does', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    // A description edited by hand: the stored tool hash no longer matches the definition.
    const corpus = editByHand(dir, null);
    expect(() => readDataset(dir, { verify: false })).toThrow(/stored hash does not match its definition/);
    // The stored hash brought up to date by hand as well: the catalog hash computed from the tools
    // must still match the manifest's.
    writeDataset(dir, sample(), manifestFields);
    editByHand(dir, {});
    const fixed = readDataset(dir, { reSign: true });
    writeDataset(dir, sample(), manifestFields);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(
      corpus,
      readFileSync(corpus, 'utf8')
        .replace(sample().catalog.tools[0]!.hash, fixed.catalog.tools[0]!.hash)
        .replaceAll('Search code across repositories.', 'Search code everywhere.'),
    );
    m.files['corpus.jsonl'] = { sha256: sha256(readFileSync(corpus)), bytes: readFileSync(corpus).length };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    expect(() => readDataset(dir)).toThrow(/does not hash to manifest.json's catalogSha256/);
    // A bad input schema is caught when the file is not vouched for.
    const badSchema = readFileSync(corpus, 'utf8').replace('"inputSchema":{"type":"object"', '"inputSchema":{"type":"array"');
    expect(badSchema).not.toBe(readFileSync(corpus, 'utf8'));
    writeFileSync(corpus, badSchema);
    expect(() => readDataset(dir, { verify: false })).toThrow(/input schema must describe an object/);
  });

  it('refuses to write a tool whose input schema is invalid or whose hash is stale', () => {
    const bad = sample();
    bad.catalog.tools[0] = { ...bad.catalog.tools[0]!, inputSchema: { type: 'object', properties: { q: { type: 'strin' } } } as never };
    expect(() => writeDataset(join(tmp(), 'ds'), bad, manifestFields)).toThrow(/mcp__github__search/);
    const stale = sample();
    stale.catalog.tools[1] = { ...stale.catalog.tools[1]!, description: 'changed' };
    expect(() => writeDataset(join(tmp(), 'ds2'), stale, manifestFields)).toThrow(/hash does not match/);
  });

  it('reuses the tools of identical corpus lines through a memo, with the same catalog as without it', () => {
    const a = join(tmp(), 'a');
    const b = join(tmp(), 'b');
    writeDataset(a, sample(), manifestFields);
    const changed = sample();
    changed.catalog.tools[1] = makeTool({
      name: 'search',
      source: 'mcp',
      server: 'slack',
      summary: 'Search messages.',
      description: 'Search messages and threads in channels.',
      scopes: ['slack:read'],
    });
    writeDataset(b, changed, manifestFields);
    const memo: ToolLineMemo = new Map();
    const first = readDataset(a, { toolLines: memo });
    expect(memo.size).toBe(3);
    const second = readDataset(b, { toolLines: memo });
    expect(second.catalog).toEqual(readDataset(b).catalog);
    expect(second.catalog.tools[0]).toBe(first.catalog.tools[0]); // the same object: not parsed again
    expect(second.catalog.tools[2]).toBe(first.catalog.tools[2]);
    expect(second.catalog.tools[1]).not.toBe(first.catalog.tools[1]);
    expect(second.catalog.tools[1]!.description).toBe('Search messages and threads in channels.');
    expect(memo.size).toBe(4);
  });

  it("reuses a line only in a read of the same kind: a vouched line does not skip an unvouched read's checks", () => {
    // A tool whose input schema is invalid, written with its true hash and a manifest that vouches
    // for it (a vouched file's schemas are taken as checked when it was written).
    const a = join(tmp(), 'a');
    writeDataset(a, sample(), manifestFields);
    const bad = makeTool({ ...sample().catalog.tools[0]!, inputSchema: { type: 'array' } as never });
    const corpus = readFileSync(join(a, 'corpus.jsonl'), 'utf8').split('\n');
    corpus[0] = JSON.stringify(toolRecord(bad));
    writeFileSync(join(a, 'corpus.jsonl'), corpus.join('\n'));
    const text = readFileSync(join(a, 'corpus.jsonl'));
    const m = JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8'));
    m.files['corpus.jsonl'] = { sha256: sha256(text), bytes: text.length };
    m.catalogSha256 = catalogHash({ ...sample().catalog, tools: [bad, ...sample().catalog.tools.slice(1)] });
    writeFileSync(join(a, 'manifest.json'), JSON.stringify(m));
    // the same corpus without a manifest: every schema is checked
    const b = join(tmp(), 'b');
    writeDataset(b, sample(), manifestFields);
    writeFileSync(join(b, 'corpus.jsonl'), text);
    rmSync(join(b, 'manifest.json'));
    const memo: ToolLineMemo = new Map();
    expect(readDataset(a, { toolLines: memo }).catalog.tools[0]!.inputSchema).toEqual({ type: 'array' });
    expect(() => readDataset(b, { toolLines: memo })).toThrow(/input schema must describe an object/);
  });

  it('lends no tool to the memo from a dataset that fails its checks', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const manifestPath = join(dir, 'manifest.json');
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    m.catalogSha256 = 'f'.repeat(64);
    writeFileSync(manifestPath, JSON.stringify(m));
    const memo: ToolLineMemo = new Map();
    expect(() => readDataset(dir, { toolLines: memo })).toThrow(/does not hash to manifest.json's catalogSha256/);
    expect(memo.size).toBe(0);
  });

  it('reports a bad JSONL line with its number, and a missing folder', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    writeFileSync(join(dir, 'corpus.jsonl'), readFileSync(join(dir, 'corpus.jsonl'), 'utf8') + '{not json\n');
    expect(() => readDataset(dir, { verify: false })).toThrow(InputError);
    try {
      readDataset(dir, { verify: false });
    } catch (e) {
      expect((e as InputError).where).toBe('line 4');
    }
    expect(() => readDataset(join(dir, 'nope'))).toThrow(/no such dataset folder/);
    expect(existsSync(dir)).toBe(true);
  });
});

describe('a plain BEIR folder with queries no qrels file judges', () => {
  /** corpus of two tools, three queries, qrels for q1 only (test) — and q4 judged in train. */
  function beir(): string {
    const dir = tmp();
    const tool = (name: string) => JSON.stringify({ _id: name, title: name, text: `${name} things`, metadata: { inputSchema: { type: 'object' } } });
    writeFileSync(join(dir, 'corpus.jsonl'), `${tool('alpha')}\n${tool('beta')}\n`);
    writeFileSync(join(dir, 'queries.jsonl'), ['q1', 'q2', 'q3', 'q4'].map((id) => JSON.stringify({ _id: id, text: `find ${id}` })).join('\n') + '\n');
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'qrels', 'test.tsv'), `${QRELS_HEADER}\nq1\talpha\t1\n`);
    writeFileSync(join(dir, 'qrels', 'train.tsv'), `${QRELS_HEADER}\nq4\tbeta\t1\n`);
    return dir;
  }

  it('leaves them out with one counted warning naming them, not silently; a query judged in another split is not warned about', () => {
    const dir = beir();
    const warnings: string[] = [];
    const d = readDataset(dir, { split: 'test', onWarning: (m) => warnings.push(m) });
    expect(d.cases.map((c) => c.id)).toEqual(['q1']);
    const unsigned = expect.stringMatching(/has no manifest.json: read as an unsigned folder/);
    expect(warnings).toEqual([
      unsigned,
      '2 queries of queries.jsonl have no judgement in any qrels file and no "expected" field, so they are left out: q2, q3',
    ]);
    const all: string[] = [];
    expect(readDataset(dir, { onWarning: (m) => all.push(m) }).cases.map((c) => c.id)).toEqual(['q1', 'q4']);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatch(/^2 queries .*q2, q3$/);
  });
});

/** The error `body` throws (undefined when it throws none). */
function thrown(body: () => unknown): InputError | undefined {
  try {
    body();
  } catch (e) {
    return e as InputError;
  }
  return undefined;
}

describe('the manifest vouches for every file the loader reads (tamper evidence)', () => {
  /** The sample written, with case a relabelled (`mcp__slack__search` as gold) the way a hand edit would. */
  function relabelled(): string {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const queries = join(dir, 'queries.jsonl');
    writeFileSync(queries, readFileSync(queries, 'utf8').replace('"expectedTools":["mcp__github__search"]', '"expectedTools":["mcp__slack__search"]'));
    writeFileSync(
      join(dir, 'qrels', 'test.tsv'),
      readFileSync(join(dir, 'qrels', 'test.tsv'), 'utf8').replace('a\tmcp__github__search', 'a\tmcp__slack__search'),
    );
    return dir;
  }
  const editManifest = (dir: string, edit: (m: { files: Record<string, unknown> } & Record<string, unknown>) => void) => {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    edit(m);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  };

  it('refuses a relabelled file whose manifest entry was deleted, and a manifest with "files": {}', () => {
    const dir = relabelled();
    editManifest(dir, (m) => {
      delete m.files['queries.jsonl'];
      delete m.files['qrels/test.tsv'];
    });
    const err = thrown(() => readDataset(dir));
    expect(err).toBeInstanceOf(InputError);
    expect(err!.file).toBe(join(dir, 'queries.jsonl'));
    expect(err!.message).toMatch(/is not listed in manifest.json.*--re-sign/);
    editManifest(dir, (m) => (m.files = {}));
    expect(thrown(() => readDataset(dir))!.file).toBe(join(dir, 'corpus.jsonl'));
  });

  it("refuses a file the loader reads that was added after the folder was written (another split's qrels, roles.json)", () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    writeFileSync(join(dir, 'qrels', 'dev.tsv'), `${QRELS_HEADER}\nb\tmcp__github__search\t1\n`);
    expect(thrown(() => readDataset(dir))!.file).toBe(join(dir, 'qrels', 'dev.tsv'));
    rmSync(join(dir, 'qrels', 'dev.tsv'));
    writeFileSync(join(dir, 'roles.json'), '{}');
    expect(thrown(() => readDataset(dir))!.file).toBe(join(dir, 'roles.json'));
    // a file the loader never reads (a README beside the data) is not the manifest's business
    rmSync(join(dir, 'roles.json'));
    writeFileSync(join(dir, 'README.md'), 'notes');
    expect(readDataset(dir).cases).toHaveLength(4);
  });

  it('refuses a manifest it cannot trust the shape of, naming manifest.json', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const good = readFileSync(join(dir, 'manifest.json'), 'utf8');
    const cases: Array<[string, (m: Record<string, unknown> & { files: Record<string, unknown> }) => void, RegExp]> = [
      ['files as a list', (m) => (m.files = [] as unknown as Record<string, unknown>), /"files"/],
      ['files null', (m) => (m.files = null as unknown as Record<string, unknown>), /"files"/],
      ['an entry outside the folder', (m) => (m.files['../outside.jsonl'] = { sha256: 'a'.repeat(64), bytes: 1 }), /not a relative path inside the folder/],
      ['an entry without sha256', (m) => (m.files['corpus.jsonl'] = null), /"corpus.jsonl" must be \{"sha256"/],
      ['schemaVersion as text', (m) => (m.schemaVersion = '1'), /schemaVersion/],
      ['an array', (m) => Object.assign(m, { __array: true }), /must hold a JSON object/],
    ];
    for (const [what, edit, message] of cases) {
      writeFileSync(join(dir, 'manifest.json'), good);
      if (what === 'an array') writeFileSync(join(dir, 'manifest.json'), '[]');
      else editManifest(dir, edit);
      const err = thrown(() => readDataset(dir));
      expect(err, what).toBeInstanceOf(InputError);
      expect(err!.file, what).toBe(join(dir, 'manifest.json'));
      expect(err!.message, what).toMatch(message);
    }
  });

  it('--re-sign accepts the folder as it is, rewrites its manifest with what changed, and the next read is vouched for', () => {
    const dir = relabelled();
    editManifest(dir, (m) => delete m.files['qrels/test.tsv']);
    writeFileSync(join(dir, 'README.md'), 'notes');
    const warnings: string[] = [];
    const d = readDataset(dir, { reSign: true, onWarning: (w) => warnings.push(w) });
    expect(d.reSigned).toEqual({ added: ['qrels/test.tsv'], removed: [], changed: ['queries.jsonl'] });
    expect(d.reSignedNow).toBe(true);
    expect(d.cases.find((c) => c.id === 'a')!.expectedTools).toEqual(['mcp__slack__search']);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(m.reSigned).toEqual(d.reSigned);
    expect(Object.keys(m.files)).not.toContain('README.md');
    expect(m.files['queries.jsonl'].sha256).toBe(sha256(readFileSync(join(dir, 'queries.jsonl'))));
    expect(readDataset(dir).cases.find((c) => c.id === 'a')!.expectedTools).toEqual(['mcp__slack__search']);
    // every later read says the folder was re-signed; nothing left to re-sign leaves the manifest untouched
    expect(readDataset(dir).reSigned).toEqual(d.reSigned);
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    const again = readDataset(dir, { reSign: true });
    expect(again.reSignedNow).toBe(false);
    expect(again.reSigned).toEqual(d.reSigned);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(warnings).toEqual([]);
    // a second change, re-signed again: the manifest gathers both; a hand-edited catalog hash is a change of manifest.json
    rmSync(join(dir, 'README.md'));
    editManifest(dir, (m) => (m.catalogSha256 = 'f'.repeat(64)));
    expect(readDataset(dir, { reSign: true }).reSigned).toEqual({ added: ['qrels/test.tsv'], removed: [], changed: ['manifest.json', 'queries.jsonl'] });
    expect(readDataset(dir).cases).toHaveLength(4);
  });

  it('--re-sign accepts an edited tool: its stored hash is rewritten in corpus.jsonl (only that line), said, and recorded', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const original = sample().catalog.tools[0]!.hash;
    const corpus = editByHand(dir, null);
    const edited = readFileSync(corpus, 'utf8').split('\n');
    expect(() => readDataset(dir)).toThrow(/changed after it was written/);
    const notes: string[] = [];
    const d = readDataset(dir, { reSign: true, onNote: (n) => notes.push(n) });
    const tool = d.catalog.tools.find((t) => t.id === 'mcp__github__search')!;
    expect(tool.description).toBe('Search code everywhere.');
    expect(tool.hash).not.toBe(original);
    expect(notes.join('\n')).toMatch(/1 tool of corpus.jsonl had a stored hash .* \(mcp__github__search\)/);
    const after = readFileSync(corpus, 'utf8').split('\n');
    expect(after.filter((line, i) => line !== edited[i])).toEqual([edited[0]!.replace(original, tool.hash)]);
    expect(d.reSigned).toEqual({ added: [], removed: [], changed: ['corpus.jsonl', 'manifest.json'] });
    // the next plain read loads it, with the catalog hash of the edited tools
    const again = readDataset(dir);
    expect(again.catalogSha256).toBe(d.catalogSha256);
    expect(again.catalog.tools[0]!.hash).toBe(tool.hash);
  });

  it('hashes every tool from its definition: an edit whose manifest entry was patched to match is an error naming the tool', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const sha = readDataset(dir).catalogSha256;
    editByHand(dir, {}); // corpus.jsonl's sha256 and size patched in the manifest: the file is "vouched for"
    const err = thrown(() => readDataset(dir))!;
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(/tool "mcp__github__search": stored hash does not match its definition/);
    expect(err.file).toBe(join(dir, 'corpus.jsonl'));
    expect(err.where).toBe('line 1');
    // the catalog hash is that of the tools read, not one the manifest states
    writeDataset(dir, sample(), manifestFields);
    expect(readDataset(dir).catalogSha256).toBe(sha);
    expect(readDataset(dir, { verify: false }).catalogSha256).toBe(sha);
  });

  it('takes stored hashes as checked only for the exact corpus bytes a caller already checked (contentChecked)', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const first = readDataset(dir);
    expect(first.corpusSha256).toBe(sha256(readFileSync(join(dir, 'corpus.jsonl'))));
    const trusted = readDataset(dir, { contentChecked: new Set([first.corpusSha256!]) });
    expect(trusted.catalog).toEqual(first.catalog);
    expect(trusted.catalogSha256).toBe(first.catalogSha256);
    // other bytes (an edit, the manifest patched): checked again, whatever the caller vouched for
    editByHand(dir, {});
    expect(() => readDataset(dir, { contentChecked: new Set([first.corpusSha256!]) })).toThrow(/stored hash does not match/);
  });

  it('keeps content hashes of roles.json and realism.json: an edit with its files entry patched is an error; --re-sign accepts it', () => {
    const dir = join(tmp(), 'ds');
    const role = (ns: string[]) => ({ schemaVersion: 1, roles: { reader: { description: 'reads', namespaces: ns, tools: [] } } });
    const roles = JSON.stringify(role(['github']));
    const realism = JSON.stringify({ schemaVersion: 1, overall: { cases: 4 } });
    const extra = { 'roles.json': roles, 'realism.json': realism };
    const m0 = writeDataset(dir, sample(), manifestFields, () => {}, extra);
    // the hash of the canonical JSON (keys sorted, no spacing), written out by hand here
    expect(m0.rolesSha256).toBe(sha256('{"roles":{"reader":{"description":"reads","namespaces":["github"],"tools":[]}},"schemaVersion":1}'));
    expect(m0.realismSha256).toBe(sha256('{"overall":{"cases":4},"schemaVersion":1}'));
    // spacing and key order are not content
    writeFileSync(join(dir, 'roles.json'), JSON.stringify(JSON.parse(roles), null, 2));
    editManifest(
      dir,
      (m) => (m.files['roles.json'] = { sha256: sha256(readFileSync(join(dir, 'roles.json'))), bytes: readFileSync(join(dir, 'roles.json')).length }),
    );
    expect(readDataset(dir).roles).toBeDefined();
    const edits = [
      [
        'roles.json',
        JSON.stringify(role(['github', 'slack'])),
        'rolesSha256',
        '{"roles":{"reader":{"description":"reads","namespaces":["github","slack"],"tools":[]}},"schemaVersion":1}',
      ],
      ['realism.json', JSON.stringify({ schemaVersion: 1, overall: { cases: 5 } }), 'realismSha256', '{"overall":{"cases":5},"schemaVersion":1}'],
    ] as const;
    for (const [file, text, key, canonical] of edits) {
      writeDataset(dir, sample(), manifestFields, () => {}, extra);
      writeFileSync(join(dir, file), text);
      editManifest(dir, (m) => (m.files[file] = { sha256: sha256(Buffer.from(text)), bytes: Buffer.byteLength(text) }));
      const err = thrown(() => readDataset(dir))!;
      expect(err).toBeInstanceOf(InputError);
      expect(err.file).toBe(join(dir, file));
      expect(err.message).toContain(`manifest.json's ${key}`);
      const d = readDataset(dir, { reSign: true });
      expect(d.reSigned!.changed).toEqual(['manifest.json']);
      expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))[key]).toBe(sha256(canonical));
      expect(() => readDataset(dir)).not.toThrow();
    }
  });

  it('reads a folder without a manifest as unsigned, with a warning', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    rmSync(join(dir, 'manifest.json'));
    const warnings: string[] = [];
    const d = readDataset(dir, { onWarning: (w) => warnings.push(w) });
    expect(d.manifest).toBeNull();
    expect(warnings).toEqual(['ds has no manifest.json: read as an unsigned folder (no file of it is vouched for; its tools are checked and hashed as read)']);
  });
});

describe('invalid UTF-8 is replaced with a counted warning, never silently', () => {
  it('names the file, counts the sequences and gives the first line; a U+FFFD the bytes encode is not counted', () => {
    const dir = tmp();
    const tool = (name: string, text: string) => JSON.stringify({ _id: name, title: name, text, metadata: { inputSchema: { type: 'object' } } });
    const lines = [tool('alpha', 'alpha things \uFFFD kept'), tool('beta', 'beta BAD things'), tool('gamma', 'gamma BAD BAD')].join('\n') + '\n';
    const bytes = Buffer.from(lines, 'utf8');
    // each "BAD" becomes one invalid byte (0xff), an invalid lead byte (0xc3 then ASCII) and one 0x80
    const corrupt: number[] = [];
    for (let i = 0; i < bytes.length; i++) {
      if (bytes.subarray(i, i + 3).toString('latin1') === 'BAD') {
        corrupt.push(0xff, 0xc3, 0x41, 0x80);
        i += 2;
      } else corrupt.push(bytes[i]!);
    }
    writeFileSync(join(dir, 'corpus.jsonl'), Buffer.from(corrupt));
    writeFileSync(join(dir, 'queries.jsonl'), `${JSON.stringify({ _id: 'q1', text: 'find beta' })}\n`);
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'qrels', 'test.tsv'), `${QRELS_HEADER}\nq1\tbeta\t1\n`);
    const warnings: string[] = [];
    const d = readDataset(dir, { onWarning: (w) => warnings.push(w) });
    expect(d.catalog.tools.find((t) => t.id === 'beta')!.description).toContain('\uFFFD');
    // 3 "BAD"s × (0xff, 0xc3, 0x80) = 9 sequences; the encoded U+FFFD on line 1 is not one of them
    const unsigned = expect.stringMatching(/has no manifest.json: read as an unsigned folder/);
    expect(warnings).toEqual([unsigned, `corpus.jsonl: 9 invalid UTF-8 byte sequences were replaced with U+FFFD (first on line 2)`]);
    const quiet: string[] = [];
    writeFileSync(join(dir, 'corpus.jsonl'), lines.replaceAll('BAD', 'ok'));
    readDataset(dir, { onWarning: (w) => quiet.push(w) });
    expect(quiet).toEqual([unsigned]);
  });
});

describe('names the loader reads that are of the wrong kind', () => {
  it('a qrels that is a file, or a realism.json that is a folder, is exit-2 bad input with or without --re-sign, and the manifest is left as it was', () => {
    const dir = join(tmp(), 'ds');
    writeDataset(dir, sample(), manifestFields);
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    rmSync(join(dir, 'skill-qrels'), { recursive: true });
    writeFileSync(join(dir, 'skill-qrels'), 'not a folder');
    for (const opts of [{}, { reSign: true }, { verify: false }]) {
      const err = thrown(() => readDataset(dir, opts));
      expect(err, JSON.stringify(opts)).toBeInstanceOf(InputError);
      expect(err!.file).toBe(join(dir, 'skill-qrels'));
      expect(err!.message).toMatch(/is a file, not a folder of skill-qrels files/);
    }
    rmSync(join(dir, 'skill-qrels'));
    mkdirSync(join(dir, 'realism.json'));
    for (const opts of [{}, { reSign: true }]) {
      const err = thrown(() => readDataset(dir, opts));
      expect(err, JSON.stringify(opts)).toBeInstanceOf(InputError);
      expect(err!.file).toBe(join(dir, 'realism.json'));
    }
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
  });
});
