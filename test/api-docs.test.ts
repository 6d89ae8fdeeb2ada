/**
 * The contracts a user programs against, every export of `src/index.ts` (the package's API: types,
 * functions, registries), carry TSDoc: the type declarations shipped in `dist/` show it in editors.
 * Read with the TypeScript parser alone (no type checker), following re-exports to the declaration.
 */
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';

const parsed = new Map<string, ts.SourceFile>();
function source(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) parsed.set(file, (sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true)));
  return sf;
}

/** Whether `node` has a `/** … *\/` comment right before it. */
function documented(node: ts.Node): boolean {
  const text = node.getSourceFile().getFullText();
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some((c) => text.slice(c.pos, c.pos + 3) === '/**');
}

/** The declaration of `name` in `file` (following `export { name } from …`), and whether it is documented. */
function lookUp(file: string, name: string, depth = 0): { found: boolean; documented: boolean } {
  if (depth > 10) return { found: false, documented: false };
  for (const st of source(file).statements) {
    if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      const spec = st.exportClause.elements.find((e) => e.name.text === name);
      if (spec) return lookUp(resolve(dirname(file), st.moduleSpecifier.text), (spec.propertyName ?? spec.name).text, depth + 1);
    }
    const named =
      (ts.isFunctionDeclaration(st) ||
        ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isEnumDeclaration(st)) &&
      st.name?.text === name;
    const variable = ts.isVariableStatement(st) && st.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name);
    if (named || variable) return { found: true, documented: documented(st) };
  }
  return { found: false, documented: false };
}

/** Every name `src/index.ts` exports, with the module it comes from. */
function apiExports(entry: string): Array<{ name: string; file: string }> {
  const out: Array<{ name: string; file: string }> = [];
  for (const st of source(entry).statements) {
    if (
      !ts.isExportDeclaration(st) ||
      !st.moduleSpecifier ||
      !ts.isStringLiteral(st.moduleSpecifier) ||
      !st.exportClause ||
      !ts.isNamedExports(st.exportClause)
    )
      continue;
    const file = resolve(dirname(entry), st.moduleSpecifier.text);
    for (const e of st.exportClause.elements) out.push({ name: (e.propertyName ?? e.name).text, file });
  }
  return out;
}

describe('the programmatic API', () => {
  const entry = join(PACKAGE_ROOT, 'src', 'index.ts');

  it('finds the declaration of every export of src/index.ts', () => {
    const all = apiExports(entry);
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(all.filter((e) => !lookUp(e.file, e.name).found).map((e) => e.name)).toEqual([]);
  });

  it('documents every export of src/index.ts', () => {
    const missing = apiExports(entry)
      .filter((e) => !lookUp(e.file, e.name).documented)
      .map((e) => `${e.name} (${relative(PACKAGE_ROOT, e.file)})`);
    expect(missing).toEqual([]);
  });
});
