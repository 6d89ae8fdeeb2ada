import { InputError } from '../util/errors.ts';

/** A preset, seed or override the generator cannot use (an input error: exit 2). Its own module: the CLI checks for it without loading the generator's vocabularies. */
export class GenerateParamsError extends InputError {}
