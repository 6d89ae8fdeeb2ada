/**
 * An error in what the user gave Backpack (a file, a flag, a label), as opposed to a defect in
 * Backpack. The CLI prints it as `error: <file>:<where>: <message>` and exits with code 2.
 */
export class InputError extends Error {
  /** The file (or dataset folder) at fault, when there is one. */
  readonly file: string | undefined;
  /** Where in the file: `line 12`, `$.tools[3].inputSchema`, `row 7`. */
  readonly where: string | undefined;

  constructor(message: string, opts: { file?: string; where?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'InputError';
    this.file = opts.file;
    this.where = opts.where;
  }

  /** `file:where: message`, the one line the CLI prints. */
  describe(): string {
    const loc = [this.file, this.where].filter((s) => s !== undefined && s !== '').join(': ');
    return loc ? `${loc}: ${this.message}` : this.message;
  }
}

/** True for errors that are the user's input at fault (exit 2) rather than Backpack's (exit 1). */
export function isInputError(err: unknown): err is InputError {
  return err instanceof InputError;
}
