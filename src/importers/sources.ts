/**
 * The files `backpack import SOURCE...` reads: a SOURCE that is a file is read as it is; a folder is
 * walked recursively (as `~/.claude/projects` and `~/.codex/sessions` are laid out) for `.jsonl`
 * and `.json` files; every file is read in path order (whatever the order of the arguments), so that
 * an import is the same on every machine. Symbolic links
 * to folders are not followed (a link cycle cannot hang the walk); FIFOs, sockets and devices are
 * skipped, counted (reading one would block).
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../util/errors.ts';

/** A file to read, and where it came from. */
export interface SourceFile {
  /** The path as it can be opened. */
  path: string;
  /** The path relative to the SOURCE folder (a file given directly: its name), `/`-separated. */
  relative: string;
  /** Named on the command line itself (not found by walking a folder). */
  explicit: boolean;
}

export interface SourceWalk {
  files: SourceFile[];
  /** Files of the folders walked that are not `.jsonl` or `.json`, or not regular files. */
  skipped: { otherFiles: number; notRegular: number; unreadable: number };
}

/** Transcript files; Claude Code's subagent metadata (`agent-<id>.meta.json`) is not one. */
const TRANSCRIPT_FILE = /^(?!.*\.meta\.json$).*\.jsonl?$/i;

/** The files of `sources` (see the module comment); a SOURCE that does not exist is an `InputError`. */
export function sourceFiles(sources: readonly string[]): SourceWalk {
  const files: SourceFile[] = [];
  const skipped = { otherFiles: 0, notRegular: 0, unreadable: 0 };
  const seen = new Set<string>();
  const add = (f: SourceFile) => {
    const key = resolve(f.path);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(f);
  };
  for (const source of sources) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(source);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new InputError(code === 'ENOENT' ? 'no such file or folder' : `cannot read it (${code ?? (err as Error).message})`, { file: source });
    }
    if (st.isFile()) {
      add({ path: source, relative: basename(source), explicit: true });
      continue;
    }
    if (!st.isDirectory())
      throw new InputError('is not a regular file or a folder (a FIFO, socket or device): give transcript files or folders', { file: source });
    const found: SourceFile[] = [];
    const walk = (dir: string): void => {
      let entries: string[];
      try {
        entries = readdirSync(dir).sort();
      } catch {
        skipped.unreadable++;
        return;
      }
      for (const name of entries) {
        const p = join(dir, name);
        let ls: ReturnType<typeof lstatSync>;
        try {
          ls = lstatSync(p);
        } catch {
          skipped.unreadable++;
          continue;
        }
        if (ls.isDirectory()) walk(p);
        else if (ls.isSymbolicLink()) {
          // a link to a file is read; a link to a folder is not walked
          try {
            const target = statSync(p);
            if (target.isFile() && TRANSCRIPT_FILE.test(name)) found.push({ path: p, relative: relative(source, p).split(sep).join('/'), explicit: false });
            else if (!target.isDirectory()) skipped.otherFiles++;
          } catch {
            skipped.unreadable++;
          }
        } else if (!ls.isFile()) skipped.notRegular++;
        else if (!TRANSCRIPT_FILE.test(name)) skipped.otherFiles++;
        else found.push({ path: p, relative: relative(source, p).split(sep).join('/'), explicit: false });
      }
    };
    walk(source);
    for (const f of found) add(f);
  }
  // read in path order whatever the order of the SOURCE arguments: the same files give the same dataset
  const at = (f: SourceFile) => resolve(f.path);
  files.sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
  return { files, skipped };
}
