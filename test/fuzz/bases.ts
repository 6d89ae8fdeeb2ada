/**
 * The good inputs the fuzz cases start from, built once per test file under a temporary root: a
 * small generated dataset and its results (whole, and in two shards), expected figures blessed from
 * them, the catalog fixtures in every format, a snapshot bundle and shards evaluated on it, a
 * MetaTool folder, an mcpServers configuration, a config file, a copy of the static model and a
 * dataset imported from the transcript fixtures.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Main } from './harness.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = join(REPO, 'fixtures');

/** A variable no test sets: a configuration that references it never starts a server. */
export const UNSET_VAR = 'BACKPACK_FUZZ_NEVER_SET';

export interface Bases {
  root: string;
  /** Generated dataset (tiny preset cut down: 53 tools, 3 skills, 30 cases) with its manifest. */
  dataset: string;
  /** eval of `dataset`: bm25 and the deferred profile. */
  results: string;
  /** eval --shard 1/2 and 2/2 of `dataset` (bm25). */
  shards: [string, string];
  /** Expected figures blessed from `results`. */
  gateYaml: string;
  gateJson: string;
  /** Catalog files. */
  toolsList: string;
  bundle: string;
  mcpFolder: string;
  openai: string;
  anthropic: string;
  skills: string;
  snapshotBundle: string;
  metatool: string;
  mcpConfig: string;
  /** Cases over mcpFolder + skills. */
  casesJsonl: string;
  casesCsv: string;
  casesJson: string;
  /** A small catalog (the bundle) and cases over it, for the commands that evaluate. */
  evalCatalog: string;
  evalCases: string;
  traces: string;
  /** Shards evaluated on a catalog named catalog-snapshot.json (as eval --catalog CONFIG keeps it). */
  snapShards: [string, string];
  /** The static encoder folder (its ONNX file a link to the committed one). */
  model: string;
  configYaml: string;
  configJson: string;
  /** `import` of every transcript fixture (fixtures/transcripts: Claude Code, Codex, API logs, OTel). */
  imported: string;
}

async function must(main: Main, argv: string[]): Promise<void> {
  let err = '';
  const code = await main(argv, { out: () => {}, err: (s) => (err += s) });
  if (code !== 0) throw new Error(`fuzz base: backpack ${argv.join(' ')} exited ${code}: ${err}`);
}

export async function buildBases(main: Main, root: string): Promise<Bases> {
  const b = join(root, 'bases');
  mkdirSync(b, { recursive: true });
  const p = (name: string) => join(b, name);
  const dataset = p('dataset');
  await must(main, ['generate', '--preset', 'tiny', '--seed', '5', '--tools', '53', '--skills', '3', '--cases', '30', '--out', dataset, '--quiet']);
  const results = p('results');
  await must(main, ['eval', '--dataset', dataset, '--retrievers', 'bm25', '--profiles', 'deferred', '--out', results, '--quiet']);
  const shards: [string, string] = [p('shard1'), p('shard2')];
  for (const [i, s] of shards.entries())
    await must(main, ['eval', '--dataset', dataset, '--retrievers', 'bm25', '--shard', `${i + 1}/2`, '--out', s, '--quiet']);
  const gateYaml = p('gate.yaml');
  const gateJson = p('gate.json');
  await must(main, ['bless', '--results', results, '--expect', gateYaml, '--reason', 'fuzz base']);
  await must(main, ['bless', '--results', results, '--expect', gateJson, '--reason', 'fuzz base']);

  const cat = (rel: string, name: string) => {
    const to = p(name);
    cpSync(join(FIXTURES, rel), to, { recursive: true });
    return to;
  };
  const toolsList = cat('catalogs/mcp/github.json', 'github.json');
  const bundle = cat('catalogs/mcp-bundle.json', 'bundle.json');
  const mcpFolder = cat('catalogs/mcp-folder', 'mcp-folder');
  const openai = cat('catalogs/openai-tools.json', 'openai.json');
  const anthropic = cat('catalogs/anthropic-tools.json', 'anthropic.json');
  const skills = cat('skills', 'skills');
  const casesJsonl = cat('cases/cases.jsonl', 'cases.jsonl');
  const casesCsv = cat('cases/cases.csv', 'cases.csv');
  const casesJson = p('cases.json');
  writeFileSync(
    casesJson,
    JSON.stringify(
      readFileSync(casesJsonl, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((c) => c.expectedSkill === undefined),
      null,
      2,
    ),
  );

  const bundleValue = JSON.parse(readFileSync(bundle, 'utf8')) as { servers: Array<Record<string, unknown>> };
  const takenAt = '2025-01-01T00:00:00.000Z';
  const snapshot = {
    snapshot: {
      tool: 'backpack snapshot',
      version: '0.1.0',
      takenAt,
      config: { file: 'mcp.json', sha256: '0'.repeat(64), shape: 'mcpServers' },
      servers: bundleValue.servers.length,
      failed: [],
      disabled: [],
    },
    servers: bundleValue.servers.map((s) => ({
      ...s,
      instructions: s.instructions ?? '',
      description: s.description ?? '',
      snapshot: {
        server: s.name,
        serverInfo: { name: String(s.name), version: '1.0.0' },
        protocolVersion: '2025-06-18',
        transport: 'stdio',
        takenAt,
        toolCount: (s.tools as unknown[]).length,
        toolsSha256: '0'.repeat(64),
        pages: { tools: 1 },
        envNames: [],
        headerNames: [],
      },
    })),
  };
  const snapshotBundle = p('snapshot-bundle.json');
  writeFileSync(snapshotBundle, `${JSON.stringify(snapshot, null, 2)}\n`);

  const evalCatalog = bundle;
  const evalCases = p('bundle-cases.jsonl');
  writeFileSync(
    evalCases,
    [
      { id: 'e1', request: 'post a message to the team channel', expectedTools: ['mcp__slack__post_message'], split: 'test' },
      { id: 'e2', request: 'find the JQL issues about login', expectedTools: ['mcp__Jira_Cloud__search'], split: 'train' },
      { id: 'e3', request: 'what time is it now', expectedTools: ['mcp__time__now'], split: 'test' },
      { id: 'e4', request: 'thanks, that is all', expectedTools: [], split: 'train' },
      { id: 'e5', request: 'move the issue to done', expectedTools: ['mcp__Jira_Cloud__transition_issue'], split: 'test' },
    ]
      .map((c) => `${JSON.stringify(c)}\n`)
      .join(''),
  );
  const traces = p('traces.csv');
  writeFileSync(traces, 'case_id,called_tool\ne1,mcp__slack__post_message\ne2,mcp__Jira_Cloud__search\ne4,\n');

  const snapDir = p('snap');
  mkdirSync(snapDir);
  const snapCatalog = join(snapDir, 'catalog-snapshot.json');
  writeFileSync(snapCatalog, readFileSync(snapshotBundle));
  const snapShards: [string, string] = [p('snap-shard1'), p('snap-shard2')];
  for (const [i, s] of snapShards.entries())
    await must(main, ['eval', '--catalog', snapCatalog, '--cases', evalCases, '--shard', `${i + 1}/2`, '--out', s, '--quiet']);

  const metatool = p('metatool');
  mkdirSync(metatool);
  writeFileSync(
    join(metatool, 'plugin_des.json'),
    `${JSON.stringify({ WeatherTool: 'Get the weather forecast for a city.', NewsTool: 'Read the latest news headlines.', FinanceTool: 'Look up stock prices and market data.' }, null, 2)}\n`,
  );
  writeFileSync(
    join(metatool, 'all_clean_data.csv'),
    'Query,Tool\nWhat is the weather in Paris?,WeatherTool\nAny news today?,NewsTool\n"Price of AAPL, please",FinanceTool\n',
  );
  writeFileSync(
    join(metatool, 'multi_tool_query_golden.json'),
    `${JSON.stringify([{ query: 'weather and the news for Paris', tool: ['WeatherTool', 'NewsTool'] }], null, 2)}\n`,
  );
  writeFileSync(
    join(metatool, 'awareness_1040.jsonl'),
    `${JSON.stringify({ idx: 0, query: 'tell me a joke', label: 'negative', gold_tool: null })}\n${JSON.stringify({ idx: 1, query: 'how is the market doing?', label: 'positive', gold_tool: 'FinanceTool' })}\n`,
  );

  const mcpConfig = p('mcp.json');
  writeFileSync(
    mcpConfig,
    `// an mcpServers configuration whose server is never started: it needs a variable no test sets\n${JSON.stringify({ mcpServers: { srv: { command: `\${${UNSET_VAR}}`, args: ['--stdio', `\${${UNSET_VAR}}`], env: { TOKEN: `\${${UNSET_VAR}}` }, cwd: '.', type: 'stdio' } } }, null, 2)}\n`,
  );

  const model = p('model');
  const glove = join(REPO, 'models', 'glove-static-30k');
  mkdirSync(join(model, 'onnx'), { recursive: true });
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) cpSync(join(glove, f), join(model, f));
  symlinkSync(join(glove, 'onnx', 'model_quantized.onnx'), join(model, 'onnx', 'model_quantized.onnx'));

  const configYaml = p('backpack.config.yaml');
  writeFileSync(configYaml, '# fuzz base config\neval:\n  k: [1, 3, 5]\n  retrievers: bm25\n  workers: 1\nreport:\n  format: md\ninspect:\n  json: true\n');
  const configJson = p('backpack.config.json');
  writeFileSync(
    configJson,
    `${JSON.stringify({ eval: { k: [1, 3, 5], retrievers: 'bm25', workers: 1 }, report: { format: 'md' }, inspect: { json: true } }, null, 2)}\n`,
  );

  const imported = p('imported');
  await must(main, ['import', join(FIXTURES, 'transcripts'), '--out', imported, '--quiet']);

  return {
    root,
    dataset,
    results,
    shards,
    gateYaml,
    gateJson,
    toolsList,
    bundle,
    mcpFolder,
    openai,
    anthropic,
    skills,
    snapshotBundle,
    metatool,
    mcpConfig,
    casesJsonl,
    casesCsv,
    casesJson,
    evalCatalog,
    evalCases,
    traces,
    snapShards,
    model,
    configYaml,
    configJson,
    imported,
  };
}
