import { canonicalJson, sha256 } from '../util/hash.ts';
import type { Case, Catalog, Tool } from './types.ts';

/** Version of the dataset folder layout (manifest, file names, JSONL fields). */
export const DATASET_SCHEMA_VERSION = 1;

export interface SliceStats {
  count: number;
  /** count ÷ all cases. */
  share: number;
  /**
   * Mean, over the slice's cases that have gold tools, of the share of the request's content
   * words that also occur in the gold tools' text (name, summary, description); `null` when no
   * case of the slice has a gold tool (no-tool, skill-only).
   */
  meanWordOverlap: number | null;
}

/** Version of `realism.json` (see `eval/realism.ts` and docs/dataset-format.md). */
export const REALISM_SCHEMA_VERSION = 2;

export interface RealismFigures {
  cases: number;
  distinctRequests: number;
  distinctRatio: number;
  /** Mean request/gold word overlap (as the manifest's slices); null without graded cases. */
  meanGoldWordOverlap: number | null;
  /** BM25 recall@5 as `backpack eval` computes it (retriever bm25, no floor); null without graded cases. */
  bm25RecallAt5: number | null;
  /** The same with every request expanded by the generator's tables. */
  bm25ExpandedRecallAt5: number | null;
  /** bm25ExpandedRecallAt5 − bm25RecallAt5. */
  expansionLeak: number | null;
}

export interface PhraseShare {
  phrase: string;
  requests: number;
  share: number;
}

export interface PhraseUse {
  /** Requests with gold tools: the denominator of every share. */
  toolRequests: number;
  /** Share of tool requests containing at least one phrase of the list. */
  anyShare: number;
  /** How many phrases of the list occur at least once. */
  distinctUsed: number;
  /** The most common phrase, null when none occurs. */
  top: PhraseShare | null;
  /** The five most common, most common first (ties by phrase). */
  top5: PhraseShare[];
}

export interface Realism {
  schemaVersion: number;
  retriever: 'bm25';
  k: 5;
  overall: RealismFigures;
  slices: Record<string, RealismFigures>;
  fillers: PhraseUse;
  placeholders: PhraseUse;
  /** The `no-tool` slice (generated chit-chat and session acknowledgements). */
  noTool: { cases: number; distinct: number; distinctRatio: number };
  /** Schema 2 (generator 3.0) on: how the tool requests read, measured with the one rule of `eval/request-surface.ts`. */
  surface?: SurfaceFigures;
  /** Schema 2 on: how sessions come back to their tools. */
  sessions?: SessionSurface;
  /** Schema 2 on: the generator's request frames, context sentences and product-mention forms, each request counted under the most specific one it reads as. */
  frames?: PhraseUse;
  /** Schema 2 on: the reference figures of real request sets and the windows the generator is held to (`eval/data/realism-reference.json`). */
  reference?: RealismReference;
}

/** The surface figures of a request set (tool requests only: cases with gold tools); see `eval/request-surface.ts`. */
export interface SurfaceFigures {
  /** Requests measured (cases with at least one gold tool). */
  requests: number;
  /** Median words per request (whitespace-separated tokens holding a letter or digit). */
  medianWords: number | null;
  /** Share of requests that are questions: ending in "?" or opening on an interrogative or modal word. */
  questions: number | null;
  /** Mean word overlap with the gold tool's text (as the manifest's slices: best tool for `any`, all together for `all`). */
  goldWordOverlap: number | null;
  /** Share of requests naming the product (server, plugin or namespace, or a known alias) of a gold tool. */
  productNamed: number | null;
  /** Share with an invented-looking id: `ABC-1234`, `#1234`, a 6+ character hex string with a letter and a digit, `id 88213`. */
  inventedIds: number | null;
  /** Template tells: "over in X", a trailing "(X)", a leading "X:" of one or two words. */
  overIn: number | null;
  trailingParen: number | null;
  leadingLabel: number | null;
}

/** How sessions come back to their tools: the later graded turns (turn > 0, with gold tools) of every session. */
export interface SessionSurface {
  sessions: number;
  /** Turns after a session's first that have gold tools. */
  laterGradedTurns: number;
  /** Share of those whose gold includes a tool of an earlier turn of the session. */
  reuseEarlierTool: number | null;
  /** Share of those whose gold includes a tool on a server (or plugin) an earlier turn's gold was on. */
  staysOnServer: number | null;
  /** Share of those whose gold includes a tool of the previous turn's gold. */
  previousTurnTool: number | null;
}

/** A [low, high] window; null for an open end. */
export type Window = [number | null, number | null];

/** Reference figures of real request sets, and the windows a generated dataset is held to. */
export interface RealismReference {
  about: string;
  /** MetaTool's test split, measured by Backpack with the same rule. */
  metatool: { source: string; figures: SurfaceFigures };
  /** Ranges over real request sets (MetaTool's test split and two other public sets), with their source. */
  realRanges: { source: string } & Record<string, Window | string>;
  /** The windows the generator's tests hold a generated dataset to. */
  windows: Record<string, Window>;
}

export interface FileEntry {
  sha256: string;
  bytes: number;
}

/** How many tools, skills, cases, servers, plugins and namespaces a dataset holds (the manifest's `counts`, `inspect`'s summary). */
export interface CatalogCounts {
  tools: number;
  skills: number;
  cases: number;
  servers: number;
  plugins: number;
  namespaces: number;
}

export interface Manifest {
  schemaVersion: number;
  name: string;
  /** The generator and its version, for generated datasets; `null` for converted external ones. */
  generator: { name: string; version: string } | null;
  seed: number | null;
  preset: string | null;
  params: Record<string, unknown>;
  counts: CatalogCounts & {
    noToolCases: number;
    sessions: number;
    [key: string]: number;
  };
  slices: Record<string, SliceStats>;
  splits: Record<string, number>;
  /** `catalogHash` of the catalog: what results and regression files name the catalog by. */
  catalogSha256: string;
  /**
   * sha256 of the canonical JSON of `roles.json` as parsed (key order and spacing do not count),
   * when the folder has one: a content hash the loader checks, so an edit to the file is caught
   * even when its `files` entry was patched to match (manifests written before 1.9 lack it).
   */
  rolesSha256?: string;
  /** The same for `realism.json`. */
  realismSha256?: string;
  /** sha256 and size of every other file in the folder, by relative path, sorted. */
  files: Record<string, FileEntry>;
  /** Free text: where the data came from, its licence. */
  provenance?: string;
  /** Present once the folder was re-signed (`eval --re-sign`): what differed from the manifest it replaced. */
  reSigned?: ManifestDrift;
  /** Datasets written by `backpack import`: what was read, skipped, linked and redacted. */
  import?: ImportRecord;
}

/** What `backpack import` read and did: the manifest's `import` (docs/import.md). */
export interface ImportRecord {
  /** Per transcript format: files, records, sessions and typed requests read. */
  formats: Record<string, { files: number; records: number; sessions: number; requests: number }>;
  /** Records read but not used, by reason (`tool-result`, `slash-command`, `unknown-type:<type>`, `truncated-last-line`…). */
  skipped: Record<string, number>;
  /** Files of the sources: read, and left alone (not .jsonl/.json, not regular files, unreadable, in no known format). */
  files: { read: number; otherFiles: number; notRegular: number; unreadable: number; unrecognised: number };
  /** Typed requests: read, kept as cases, and left out (repeated, a fork's copy, outside --since/--until or without a time, sampled out, cut to length). */
  requests: { read: number; kept: number; duplicates: number; forkCopies: number; outsideWindow: number; withoutTime: number; sampledOut: number; cut: number };
  /** Tool calls kept in the cases' `calls`. */
  calls: number;
  /** Subagent transcripts: linked to the turn that started them, linked by time only, not linked (their calls left out). */
  subagents: { linked: number; linkedByTime: number; unlinked: number };
  /** The catalog: which calls are gold (`--tools`), and where its tools came from. */
  tools: {
    gold: string;
    fromCatalog: number;
    advertised: number;
    core: number;
    idOnly: number;
    /** Called names matched to a catalog tool, or to another spelling of an id-only one, by their loose spelling. */
    matchedByName: number;
    schemasReplaced: number;
    /** Advertised descriptions over 20,000 characters, cut. */
    descriptionsCut: number;
    /** Tool names written otherwise than read: whitespace or control characters, a part redaction would change (hashed), over 200 characters. */
    renamed: number;
  };
  /** Redactions made before anything was written, by kind. */
  redactions: Record<string, number>;
}

/** How a folder's files differ from its manifest: files the loader reads that it does not list, listed files gone, files whose sha256 differs. */
export interface ManifestDrift {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * The catalog's identity: sha256 over the sorted content hashes of its tools and skills and the
 * canonical JSON of its servers and plugins. Independent of file format and of tool order.
 */
export function catalogHash(catalog: Catalog): string {
  const lines: string[] = [];
  for (const t of catalog.tools) lines.push(`tool\t${t.id}\t${t.hash}`);
  for (const s of catalog.skills) lines.push(`skill\t${s.name}\t${s.hash}`);
  for (const s of catalog.servers) lines.push(`server\t${s.name}\t${sha256(canonicalJson(s))}`);
  for (const p of catalog.plugins) lines.push(`plugin\t${p.name}\t${sha256(canonicalJson(p))}`);
  lines.sort();
  return sha256(lines.join('\n'));
}

/** The manifest's `counts` of a dataset: tools by source, skills, cases, servers, plugins, namespaces, no-tool, skill and multi-tool cases, sessions. */
export function datasetCounts(catalog: Catalog, cases: readonly Case[]): Manifest['counts'] {
  const bySource = (s: Tool['source']) => catalog.tools.filter((t) => t.source === s).length;
  return {
    tools: catalog.tools.length,
    coreTools: bySource('core'),
    pluginTools: bySource('plugin'),
    mcpTools: bySource('mcp'),
    pinnedTools: catalog.tools.filter((t) => t.pinned).length,
    skills: catalog.skills.length,
    cases: cases.length,
    servers: catalog.servers.length,
    plugins: catalog.plugins.length,
    namespaces: new Set(catalog.tools.map((t) => t.namespace)).size,
    noToolCases: cases.filter((c) => c.expectedTools?.length === 0).length,
    skillCases: cases.filter((c) => c.expectedSkill !== undefined).length,
    multiToolCases: cases.filter((c) => (c.expectedTools?.length ?? 0) > 1 && c.goldMode !== 'any').length,
    sessions: new Set(cases.map((c) => c.sessionId).filter((s) => s !== undefined)).size,
  };
}

/** Cases per split (a case without one counts as `test`), splits in name order. */
export function splitCounts(cases: readonly Case[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of cases) out[c.split ?? 'test'] = (out[c.split ?? 'test'] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
