/**
 * Failures of the machine rather than of Backpack or its input: a full or read-only disk, a denied
 * permission, too many open files, no memory. The command ends with one `error:` line naming the
 * path and the cause, and exit 1; the stack trace only with `BACKPACK_DEBUG=1` (it says nothing a
 * user can act on). Every writer replaces its output atomically, so what was there before is intact.
 */

/** The error codes treated as environment failures, with the words a message uses for each. */
export const ENVIRONMENT_CODES: Readonly<Record<string, string>> = Object.freeze({
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EMFILE: 'too many open files in this process',
  ENFILE: 'too many open files on this system',
  ENOMEM: 'out of memory',
  EIO: 'input/output error',
});

/** An environment failure found in an error or its causes: its code, and the path when one is named. */
export interface EnvironmentFailure {
  code: string;
  path?: string;
}

const CODE_IN_MESSAGE = new RegExp(`\\b(${Object.keys(ENVIRONMENT_CODES).join('|')})\\b`);

/**
 * The environment failure `err` reports, looking through `cause` (a few levels), or undefined. A
 * Node system error carries `code` and `path`; an error that crossed a worker thread keeps only its
 * message (`ENOSPC: no space left on device, write '/x/y'`), which is read instead.
 */
export function environmentFailure(err: unknown): EnvironmentFailure | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    const { code, path, message } = e as { code?: unknown; path?: unknown; message?: unknown };
    if (typeof code === 'string' && Object.hasOwn(ENVIRONMENT_CODES, code)) return { code, ...(typeof path === 'string' ? { path } : {}) };
    if (typeof message === 'string') {
      const m = CODE_IN_MESSAGE.exec(message);
      if (m && message.startsWith(`${m[1]}:`)) {
        const quoted = /'([^']+)'/.exec(message);
        return { code: m[1]!, ...(quoted ? { path: quoted[1]! } : {}) };
      }
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The one line a command ends with for `failure` (`error: /out/results.json: no space left on the device (ENOSPC)`). */
export function environmentMessage(failure: EnvironmentFailure): string {
  const cause = `${ENVIRONMENT_CODES[failure.code]} (${failure.code})`;
  return `error: ${failure.path !== undefined ? `${failure.path}: ` : ''}${cause}; the previous output, if any, is left as it was (BACKPACK_DEBUG=1 shows the stack)`;
}
