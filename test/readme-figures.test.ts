/**
 * The README's chart and table come from a committed run (docs/readme-run/results.json) through
 * scripts/readme-figures.ts: this fails when the README, its PNG or the kept run disagree, or when
 * the kept run is not what `backpack run` evaluates today.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAutoFloor, RESULTS_SCHEMA_VERSION } from '../src/eval/results.ts';
import {
  DEFAULT_CALIBRATION_SPLIT,
  DEFAULT_PROFILES,
  DEFAULT_RETRIEVERS,
  DEFAULT_RUN_FLOOR_TARGET,
  DEFAULT_SCORED_SPLIT,
  DEFAULT_SEED,
} from '../src/cli/run-command.ts';
import { CHART_PNG, chartSpec, README, readKeptRun, readmeSection, recordedHashes, trimmed, withSection } from '../scripts/readme-figures.ts';

const sha256 = (x: string | Buffer) => createHash('sha256').update(x).digest('hex');

describe("the README's figures", () => {
  const kept = readKeptRun();
  const readme = readFileSync(README, 'utf8');
  const png = readFileSync(CHART_PNG);

  it('are what scripts/readme-figures.ts writes from the kept run: the table, and the hashes of the chart spec and of the PNG on disk', () => {
    expect(withSection(readme, readmeSection(kept, png)), 'README.md is stale: run node --import tsx scripts/readme-figures.ts').toBe(readme);
    const hashes = recordedHashes(readme)!;
    expect(hashes.png, 'docs/img/recall-vs-tokens.png is not the one the README records').toBe(sha256(png));
    expect(hashes.spec).toBe(sha256(JSON.stringify(chartSpec(kept))));
  });

  it('come from a run of what `backpack run` evaluates today: its strategies, dataset, splits and floor target', () => {
    expect(kept.schemaVersion).toBe(RESULTS_SCHEMA_VERSION);
    expect(kept.dataset.name).toBe(`monster-${DEFAULT_SEED}`);
    expect(kept.dataset.source).toMatchObject({ kind: 'dataset', split: DEFAULT_SCORED_SPLIT });
    expect(Object.keys(kept.retrievers)).toEqual(DEFAULT_RETRIEVERS);
    expect(Object.keys(kept.profiles ?? {})).toEqual(DEFAULT_PROFILES);
    const auto = Object.values(kept.config.floors).filter(isAutoFloor);
    expect(auto.length).toBeGreaterThan(0);
    for (const f of auto) expect(f).toMatchObject({ target: DEFAULT_RUN_FLOOR_TARGET, calibratedOn: `split:${DEFAULT_CALIBRATION_SPLIT}` });
    // kept trimmed: nothing but the overall tables
    expect(trimmed(kept)).toEqual(kept);
  });

  it('notice a change: another figure in the kept run changes the section', () => {
    const moved = structuredClone(kept);
    const codex = moved.profiles!.codex!.metrics.overall;
    codex['recall@5'] = codex['recall@5']! + 0.1;
    expect(readmeSection(moved, png)).not.toBe(readmeSection(kept, png));
    // and another PNG is not the one recorded
    expect(recordedHashes(readmeSection(kept, Buffer.from('other')))!.png).not.toBe(recordedHashes(readme)!.png);
  });
});
