/**
 * Reading the bless log of a regression file (`<file>.log.md`, written by `backpack bless`: see
 * gate/bless.ts), one line per bless:
 *
 *   YYYY-MM-DD <git commit (12) or -> <catalog sha256 (12)> <reason>
 *
 * History marks a run as blessed when the log has an entry for the run's catalog: the figures of
 * that registry version were accepted on purpose.
 */
import { existsSync } from 'node:fs';
import { readTextFile } from '../util/bounded.ts';

/** One line of a bless log. */
export interface BlessEntry {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** The git commit (12 digits), or null for `-`. */
  commit: string | null;
  /** The first 12 hexadecimal digits of the catalog sha256. */
  catalog: string;
  reason: string;
}

const ENTRY = /^(\d{4}-\d{2}-\d{2}) (\S+) ([0-9a-f]{12}) (.*\S)\s*$/;

/** The entries of a bless log's text, in file order; other lines (the heading, blank lines) are skipped. */
export function parseBlessLog(text: string): BlessEntry[] {
  const out: BlessEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = ENTRY.exec(line);
    if (m) out.push({ date: m[1]!, commit: m[2] === '-' ? null : m[2]!, catalog: m[3]!, reason: m[4]! });
  }
  return out;
}

/** The entries of the bless log `file`, or none when it does not exist. */
export function readBlessLog(file: string): BlessEntry[] {
  return existsSync(file) ? parseBlessLog(readTextFile(file, undefined, 'bless log')) : [];
}

/** The latest entry blessing the catalog whose sha256 is `catalogSha256`, if any. */
export function blessOf(entries: readonly BlessEntry[], catalogSha256: string): BlessEntry | undefined {
  const short = catalogSha256.slice(0, 12);
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.catalog === short) return entries[i];
  return undefined;
}
