/**
 * Replacing a folder Backpack writes (a dataset, a results folder) safely: refuse a folder that is
 * not ours, tidy what an interrupted earlier write left beside it, and swap the new folder in.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { InputError } from '../util/errors.ts';
import { checkOutputFolder } from '../util/output-path.ts';
import { recoverInterrupted } from '../util/replace-dir.ts';

// Split out into util/ (reports swap their folders too); importers keep their paths.
export { recoverInterrupted, replaceDir } from '../util/replace-dir.ts';

/**
 * Refuse to write to `target` unless it is absent, an empty folder, or a folder `isOurs` accepts
 * (a Backpack dataset or results folder): a typo in `--out` must never delete someone's files.
 * Never the file system's root or a folder holding the working folder, and never one of `inputs`,
 * inside one or around one (`checkOutputFolder`).
 * Also tidies what an interrupted earlier write left beside it: a `.tmp-<pid>` folder of a
 * process that is gone, and a `.old-<pid>` folder it had not yet swapped back.
 */
export function assertReplaceable(target: string, kind: string, isOurs: (dir: string) => boolean, inputs: readonly string[] = []): void {
  checkOutputFolder(target, kind, inputs);
  recoverInterrupted(target);
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new InputError(`exists and is not a folder; cannot write a ${kind} there`, { file: target });
  if (readdirSync(target).length === 0 || isOurs(target)) return;
  throw new InputError(`folder exists and does not hold a Backpack ${kind}; refusing to replace it`, { file: target });
}
