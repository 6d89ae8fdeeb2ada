import { canonicalJson, sha256 } from '../util/hash.ts';
import type { Catalog } from './types.ts';

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
export const REALISM_SCHEMA_VERSION = 1;

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
  /** sha256 and size of every other file in the folder, by relative path, sorted. */
  files: Record<string, FileEntry>;
  /** Free text: where the data came from, its licence. */
  provenance?: string;
  /** Present once the folder was re-signed (`eval --re-sign`): what differed from the manifest it replaced. */
  reSigned?: ManifestDrift;
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
