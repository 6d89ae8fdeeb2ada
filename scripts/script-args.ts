/**
 * The command-line walk the build scripts share: each argument goes to `onArgument` with a
 * `value()` that reads the argument after it. A flag without its value, or an argument
 * `onArgument` does not take (it returns false), is an error naming the script.
 */
export function readArguments(script: string, argv: readonly string[], usage: string, onArgument: (arg: string, value: () => string) => boolean): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${script}: ${a} needs a value`);
      return v;
    };
    if (!onArgument(a, value)) throw new Error(`${script}: unknown argument ${a} (arguments: ${usage})`);
  }
}
