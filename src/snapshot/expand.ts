/**
 * `${VAR}` references in configuration values, expanded from the environment as the hosts do:
 *   `${VAR}` and `${env:VAR}`   the variable (an unset variable is an error, never an empty string)
 *   `${VAR:-default}`           the variable, or `default` when it is unset or empty (Claude Code)
 *   `${workspaceFolder}`        the project folder (VS Code): the parent of `.vscode/`, else the config's folder
 *   `${userHome}`               the home folder (VS Code)
 * `${input:…}` (VS Code's prompted inputs) cannot be answered offline and is an error.
 */
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { InputError } from '../util/errors.ts';

export type Env = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\{([^}]*)\}/g;

/** The project folder a configuration file belongs to (VS Code's `${workspaceFolder}`). */
export function workspaceFolderOf(configFile: string): string {
  const dir = dirname(resolve(configFile));
  return basename(dir) === '.vscode' ? dirname(dir) : dir;
}

/**
 * `text` with every reference replaced. `file` and `where` locate the value in errors; the names of
 * the variables used are added to `used` (so the bundle can list names, never values).
 */
export function expandValue(text: string, env: Env, file: string, where: string, used?: Set<string>): string {
  return text.replace(REFERENCE, (whole, inner: string) => {
    const body = inner.trim();
    if (body === 'workspaceFolder') return workspaceFolderOf(file);
    if (body === 'userHome') return homedir();
    if (body.startsWith('input:')) {
      throw new InputError(
        `${whole} asks for a value typed in the editor, which an offline snapshot cannot do: put the value in an environment variable and write \${env:NAME}`,
        { file, where },
      );
    }
    const spec = body.startsWith('env:') ? body.slice(4) : body;
    const dash = spec.indexOf(':-');
    const name = dash >= 0 ? spec.slice(0, dash) : spec;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new InputError(`${whole} is not a variable reference Backpack can expand (\${NAME}, \${env:NAME}, \${NAME:-default})`, { file, where });
    used?.add(name);
    const value = env[name];
    if (dash >= 0) return value === undefined || value === '' ? spec.slice(dash + 2) : value;
    if (value === undefined) throw new InputError(`environment variable ${name} is not set (referenced as ${whole})`, { file, where });
    return value;
  });
}
