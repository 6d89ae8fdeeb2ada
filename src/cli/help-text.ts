/**
 * Help text the commands add after their options (the retrievers, profiles, formats they take),
 * wrapped to the width commander uses for the options above it, so no line runs off a terminal.
 */

/** The help width: the terminal's columns when there is one, clamped to 60–100; 80 otherwise (a pipe, a file). */
export function helpWidth(columns: number | undefined = process.stdout.columns): number {
  return columns ? Math.min(100, Math.max(60, columns)) : 80;
}

/** `text` cut at spaces into lines of at most `width` characters (a single longer word stays whole), every line after the first prefixed with `indent`. */
export function wrapText(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const prefix = lines.length ? indent : '';
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || !lines.length) lines.push((lines.length ? indent : '') + line);
  return lines;
}

/** A titled list of `name  description` entries, each description wrapped and aligned under its first line. */
export function helpList(title: string, entries: ReadonlyArray<readonly [string, string]>, nameWidth: number, width = helpWidth()): string {
  const indent = ' '.repeat(2 + nameWidth + 1);
  const body = entries.flatMap(([name, description]) => {
    const [first, ...rest] = wrapText(description, width - indent.length);
    return [`  ${name.padEnd(nameWidth)} ${first}`, ...rest.map((l) => `${indent}${l}`)];
  });
  return `\n${title}:\n${body.join('\n')}\n`;
}
