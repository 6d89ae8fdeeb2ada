/**
 * JSON with comments (JSONC), as VS Code writes `.vscode/mcp.json`: `//` and `/* … *\/` comments and
 * trailing commas before `}` or `]`. `stripJsonc` blanks them out with spaces, keeping every other
 * character (and every line break) where it was, so a JSON parse error of the result names the line
 * and column of the original text. Text inside strings is never touched.
 */
export function stripJsonc(text: string): string {
  const out = text.split('');
  const n = text.length;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  /** Index of the last comma outside strings and comments with only whitespace or comments after it, or -1. */
  let pendingComma = -1;
  /** The last character outside strings and comments that is not whitespace ('"' after a string). */
  let last = '';
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      pendingComma = -1;
      last = '"';
      i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const to = end < 0 ? n : end;
      blank(i, to);
      i = to;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return out.join(''); // unterminated: left for the JSON parser to report
      blank(i, end + 2);
      i = end + 2;
    } else if (c === ',') {
      // Only a comma after a value can be a trailing one: `{,}` and `[1,,]` stay errors.
      pendingComma = last === '' || last === '{' || last === '[' || last === ',' || last === ':' ? -1 : i;
      last = c;
      i++;
    } else if (c === '}' || c === ']') {
      if (pendingComma >= 0) out[pendingComma] = ' ';
      pendingComma = -1;
      last = c;
      i++;
    } else {
      if (!/\s/.test(c)) {
        pendingComma = -1;
        last = c;
      }
      i++;
    }
  }
  return out.join('');
}
