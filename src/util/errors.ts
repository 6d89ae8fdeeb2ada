/**
 * How a message names a setting the user gave: as the API calls it (`calibrateOn`, the default) or
 * as the command line does (`--calibrate-on`).
 */
export type SettingStyle = 'api' | 'cli';

const SETTING = /\u0001([A-Za-z][A-Za-z0-9]*)\u0002/g;

/**
 * A setting named in a message of a core module (`setting('calibrateOn')`): the message reads
 * `calibrateOn` from the API and `--calibrate-on` on the command line, so a module below the CLI
 * never spells a flag. `InputError` keeps both readings ({@link InputError.describe}).
 */
export function setting(name: string): string {
  return `\u0001${name}\u0002`;
}

/** A message with its settings named in `style` (see {@link setting}). */
export function renderSettings(text: string, style: SettingStyle): string {
  return text.replace(SETTING, (_, name: string) => (style === 'cli' ? `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : name));
}

/**
 * An error in what the user gave Backpack (a file, a flag, a label), as opposed to a defect in
 * Backpack. The CLI prints it as `error: <file>:<where>: <message>` and exits with code 2. A
 * setting named with {@link setting} reads as the API names it in `message`, as a flag in
 * `describe('cli')`.
 */
export class InputError extends Error {
  /** The file (or dataset folder) at fault, when there is one. */
  readonly file: string | undefined;
  /** Where in the file: `line 12`, `$.tools[3].inputSchema`, `row 7`. */
  readonly where: string | undefined;
  /** The message with its settings unrendered. */
  readonly template: string;

  constructor(message: string, opts: { file?: string; where?: string; cause?: unknown } = {}) {
    super(renderSettings(message, 'api'), opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'InputError';
    this.file = opts.file;
    this.where = opts.where;
    this.template = message;
  }

  /** The message with its settings named in `style`. */
  text(style: SettingStyle = 'api'): string {
    return renderSettings(this.template, style);
  }

  /** `file:where: message`, the one line the CLI prints (with `style` 'cli'). */
  describe(style: SettingStyle = 'api'): string {
    const loc = [this.file, this.where].filter((s) => s !== undefined && s !== '').join(': ');
    return loc ? `${loc}: ${this.text(style)}` : this.text(style);
  }
}

/** True for errors that are the user's input at fault (exit 2) rather than Backpack's (exit 1). */
export function isInputError(err: unknown): err is InputError {
  return err instanceof InputError;
}

/** How many problems of one input are reported at once. */
export const MAX_REPORTED_PROBLEMS = 50;

/** The number in `row 12`, `line 7`, `$[3]`, for ordering problems as they stand in their file. */
function position(where: string | undefined): number {
  const m = where === undefined ? null : /(?:row|line) (\d+)|\$\[(\d+)\]/.exec(where);
  return m ? Number(m[1] ?? m[2]) : Number.POSITIVE_INFINITY;
}

/**
 * Several problems of one input, reported at once: the CLI prints one `error:` line saying how
 * many, then each problem on its own line with its place (at most {@link MAX_REPORTED_PROBLEMS}).
 */
export class InputErrors extends InputError {
  constructor(
    readonly problems: readonly InputError[],
    readonly total: number,
  ) {
    const file = problems.every((p) => p.file === problems[0]?.file) ? problems[0]?.file : undefined;
    super(`${total} problems${total > problems.length ? ` (the first ${problems.length} listed)` : ''}`, file === undefined ? {} : { file });
    this.name = 'InputErrors';
  }

  override describe(style: SettingStyle = 'api'): string {
    const lines = this.problems.map((p) => {
      const loc = [p.file === this.file ? undefined : p.file, p.where].filter((s) => s !== undefined && s !== '').join(': ');
      return `  ${loc ? `${loc}: ` : ''}${p.text(style)}`;
    });
    const more = this.total > this.problems.length ? [`  … and ${this.total - this.problems.length} more`] : [];
    return [super.describe(style), ...lines, ...more].join('\n');
  }
}

/**
 * Collects the `InputError`s of one input so that a user sees every problem at once (up to
 * {@link MAX_REPORTED_PROBLEMS}) rather than one per run.
 */
export class ProblemCollector {
  private readonly list: InputError[] = [];
  private seen = 0;

  /** `fn()`, or undefined when it threw an `InputError` (kept); any other error goes on. */
  attempt<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.add(err);
      return undefined;
    }
  }

  add(err: InputError): void {
    this.seen++;
    if (this.list.length < MAX_REPORTED_PROBLEMS) this.list.push(err);
  }

  get count(): number {
    return this.seen;
  }

  /** Throw the one problem as it is, or every problem as one `InputErrors` in file order; nothing when there is none. */
  throwIfAny(): void {
    if (this.seen === 0) return;
    if (this.seen === 1) throw this.list[0]!;
    const sorted = [...this.list].sort((a, b) => position(a.where) - position(b.where));
    throw new InputErrors(sorted, this.seen);
  }
}
