/**
 * Option parsers and small helpers the commands share: numbers, floors, cut-offs, paths.
 */
import { InvalidArgumentError } from 'commander';
import { relative } from 'node:path';
import { InputError } from '../util/errors.ts';
import { parseFloors } from './calibration.ts';

/** Where a command prints: standard output and standard error (tests capture both). */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** A commander parser for a whole number ≥ 0. */
export function wholeNumber(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };
}

/**
 * A commander parser that only checks a value (the action parses it again): a bad value fails as it
 * is read, so one that comes from the config file is reported with the file and its JSON path.
 */
export function checked(check: (value: string) => unknown): (value: string) => string {
  return (value) => {
    check(value);
    return value;
  };
}

/** Whether `--floor` sets a strategy's floor (by name, or one setting for every strategy). */
export function floorNamed(text: string | undefined, name: string): boolean {
  if (text === undefined) return false;
  if (!text.includes('=')) return true;
  return text.split(',').some((part) => part.slice(0, part.indexOf('=')).trim() === name);
}

/**
 * `--floor`'s syntax, for `checked`: one value (a score, `none`, `auto[:TARGET]`) or
 * `name=value,…`. Whether each name is a strategy being evaluated is checked by the action, which
 * knows the list.
 */
export function floorSyntax(text: string): void {
  const names: string[] = [];
  if (text.includes('=')) {
    for (const part of text.split(',')) {
      const eq = part.indexOf('=');
      const name = eq < 0 ? '' : part.slice(0, eq).trim();
      if (name === '') throw new InputError(`--floor: "${part}" must be name=value (e.g. bm25=0.3), as every entry is when one is`);
      names.push(name);
    }
  }
  parseFloors(text, names);
}

/** A commander parser for a count that must be ≥ 1: threads, a context window, examples per tool. */
export function atLeastOne(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
    return Number(value);
  };
}

/** A commander parser for a count that may be 0: a minimum support. */
export function atLeastZero(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number ≥ 0`);
    return Number(value);
  };
}

export function parseKs(text: string): number[] {
  const ks = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (!ks.length || ks.some((k) => !Number.isInteger(k) || k < 1 || k > 1000))
    throw new InputError(`--k must be a comma-separated list of whole numbers from 1 to 1000 (got "${text}")`);
  return ks;
}

/** A commander parser for a finite number > 0. */
export function positiveNumber(flag: string): (v: string) => number {
  return (v) => {
    const x = Number(v);
    if (v.trim() === '' || !Number.isFinite(x) || x <= 0) throw new InvalidArgumentError(`${flag} must be a number > 0 (got "${v}")`);
    return x;
  };
}

/** A path as the user would type it: relative when inside the working folder, absolute otherwise. */
export function displayPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}
