/**
 * A table of named entries (retrievers, profiles, catalog formats, report formats), written once:
 * the built-in entries in table order, entries added at run time after them, lookup by name with a
 * "did you mean", and comma-separated lists of names. Each registry keeps its own wording of the
 * errors (`RegistryOptions`); the defaults are the retriever registry's.
 */
import { InputError } from './errors.ts';
import { didYouMean } from './suggest.ts';

/** How a registry names its entries in errors, and what else a name must not be. */
export interface RegistryOptions {
  /** What one entry is called: `retriever`, `profile`. */
  kind: string;
  /** The error for a name no entry has; default `unknown <kind> "<name>" (did you mean …); <kind>s: <names>`. */
  unknown?: (name: string, names: readonly string[]) => Error;
  /** Why a name no entry has still cannot be registered (it names something else), or `undefined`. */
  reserved?: (name: string) => string | undefined;
  /** The error of `parseList` for a list naming nothing; default `no <kind> named`. */
  empty?: (names: readonly string[]) => string;
  /** The error of `parseList` for a name given twice; default `<kind> "<name>" is listed twice`. */
  twice?: (name: string) => string;
}

/** Lowercase letters, digits, dots and dashes, starting with a letter or digit. */
const VALID_NAME = /^[a-z0-9][a-z0-9.-]*$/;

/** Built-in entries (a fixed table) plus entries registered at run time, by name. */
export class Registry<E> {
  private readonly extra = new Map<string, E>();

  constructor(
    private readonly builtIn: Readonly<Record<string, E>>,
    private readonly options: RegistryOptions,
  ) {}

  /** Add an entry at run time (plugins, tests). A name taken, reserved or malformed is an error. */
  register(name: string, entry: E): void {
    const { kind } = this.options;
    if (this.has(name)) throw new Error(`${kind} "${name}" is already registered`);
    const reserved = this.options.reserved?.(name);
    if (reserved !== undefined) throw new Error(reserved);
    if (!VALID_NAME.test(name)) throw new Error(`${kind} name "${name}" must be lowercase letters, digits, dots and dashes`);
    this.extra.set(name, entry);
  }

  /** Remove an entry added with `register` (a built-in one stays). */
  unregister(name: string): void {
    this.extra.delete(name);
  }

  /** Whether an entry has this name. */
  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.builtIn, name) || this.extra.has(name);
  }

  /** The entry named `name`, or `undefined`. */
  get(name: string): E | undefined {
    return Object.prototype.hasOwnProperty.call(this.builtIn, name) ? this.builtIn[name] : this.extra.get(name);
  }

  /** The entry named `name`; an unknown name is the registry's "unknown" error. */
  require(name: string): E {
    const entry = this.get(name);
    if (entry === undefined) throw this.unknown(name);
    return entry;
  }

  /** Every entry, built-in ones first in table order, then the registered ones in order of registration. */
  entries(): Array<[string, E]> {
    return [...Object.entries(this.builtIn), ...this.extra.entries()];
  }

  /** Every name, in the order of `entries`. */
  names(): string[] {
    return this.entries().map(([n]) => n);
  }

  /** Parse a comma-separated list of names (blanks around them ignored), rejecting an empty list, repeats and unknown names. */
  parseList(list: string): string[] {
    const { kind } = this.options;
    const names = list
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (!names.length) throw new InputError(this.options.empty?.(this.names()) ?? `no ${kind} named`);
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n)) throw new InputError(this.options.twice?.(n) ?? `${kind} "${n}" is listed twice`);
      seen.add(n);
      if (!this.has(n)) throw this.unknown(n);
    }
    return names;
  }

  private unknown(name: string): Error {
    const names = this.names();
    if (this.options.unknown) return this.options.unknown(name, names);
    const { kind } = this.options;
    return new InputError(`unknown ${kind} "${name}"${didYouMean(name, names)}; ${kind}s: ${names.join(', ')}`);
  }
}
