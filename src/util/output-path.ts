/**
 * Where a command may write a folder (issue 34): never the file system's root or a folder the
 * working folder is inside (a typo in `--out` must not empty someone's home), never one of the
 * command's own inputs, inside one, or around one (replacing the folder would delete the input),
 * and a folder name taken from data (a manifest's `name`) only once it is a plain name.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError } from './errors.ts';

/** `path` resolved, symbolic links followed as far as the path exists (so two spellings of a folder compare equal). */
function real(path: string): string {
  let p = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      const r = realpathSync(p);
      return rest.length ? resolve(r, ...rest.reverse()) : r;
    } catch {
      const parent = dirname(p);
      if (parent === p) return resolve(path);
      rest.push(p.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      p = parent;
    }
  }
}

/** True when `inner` is `outer` or inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const r = relative(real(outer), real(inner));
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * Throw an `InputError` when `target` (a folder a command is about to write or replace) is the
 * root of the file system or the working folder's parent, grandparent… (such a folder is never
 * empty, and is never Backpack's to replace), or when it is one of `inputs`, inside one, or holds
 * one. `kind` names what would be written (`results folder`).
 */
export function checkOutputFolder(target: string, kind: string, inputs: readonly string[] = []): void {
  const t = real(target);
  if (dirname(t) === t) throw new InputError(`is the root of the file system; give the ${kind} a folder of its own`, { file: target });
  const cwd = real(process.cwd());
  if (t !== cwd && isWithin(cwd, t))
    throw new InputError(`holds the working folder (${cwd}); a ${kind} is never written over a folder you are working in: give it a folder of its own`, {
      file: target,
    });
  for (const input of inputs) {
    if (isWithin(t, input))
      throw new InputError(`is ${real(input) === t ? 'one of this command’s inputs' : `inside this command’s input ${input}`}; write the ${kind} elsewhere`, {
        file: target,
      });
    if (isWithin(input, t))
      throw new InputError(`holds this command’s input ${input}, which writing the ${kind} would replace; write it elsewhere`, { file: target });
  }
}

/**
 * A folder name made from `name` (a manifest's or a dataset's, written by whoever made the data):
 * path separators, `..`, control and other unsafe characters replaced by `-`, leading dots removed,
 * at most 100 characters; `fallback` when nothing is left. `../../etc` becomes `etc`.
 */
export function safeFolderName(name: string, fallback = 'dataset'): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._+@=-]+/gu, '-')
    .replace(/\.{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-')
    .slice(0, 100)
    .replace(/[-.]+$/g, '');
  return cleaned === '' ? fallback : cleaned;
}
