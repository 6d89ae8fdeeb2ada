/** A preset, seed or override the generator cannot use (the CLI reports it as bad input, exit 2). Its own module: the CLI checks for it without loading the generator's vocabularies. */
export class GenerateParamsError extends Error {}
