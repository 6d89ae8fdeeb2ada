/**
 * The contracts a user programs against, every export of `src/index.ts` (the package's API: types,
 * functions, registries), carry TSDoc: the type declarations shipped in `dist/` show it in editors.
 */
import ts from 'typescript';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/util/version.ts';

/** Exports of `entry` whose declaration has no doc comment, as `name (file)`. */
function undocumented(entry: string): { count: number; missing: string[] } {
  const program = ts.createProgram([entry], { allowImportingTsExtensions: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry)!;
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const missing: string[] = [];
  for (const sym of exports) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    const decl = target.declarations?.[0];
    if (!decl) continue;
    if (!ts.displayPartsToString(target.getDocumentationComment(checker)).trim()) missing.push(`${sym.name} (${decl.getSourceFile().fileName.slice(PACKAGE_ROOT.length)})`);
  }
  return { count: exports.length, missing };
}

describe('the programmatic API', () => {
  it('documents every export of src/index.ts', () => {
    const { count, missing } = undocumented(join(PACKAGE_ROOT, 'src', 'index.ts'));
    expect(count).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});
