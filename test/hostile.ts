/**
 * Hostile text where third parties write it (tool ids, descriptions, namespaces, requests, case
 * ids, slices, the dataset name), for the report tests in src/report/ and test/browser/.
 */
import { catalogHash } from '../src/catalog/manifest.ts';
import type { Case, Catalog, Tool } from '../src/catalog/types.ts';
import type { EvalInput } from '../src/eval/input.ts';
import { generate, resolveParams } from '../src/generate/index.ts';

export const PAYLOADS = ['<script>alert(1)</script>', '</script><script>window.__pwned=1</script>', '<img src=x onerror="window.__pwned=2">', ']]>', `"'&`];
export const EVIL_NS = '<img src=x onerror="window.__pwned=2">';
export const EVIL_SLICE = '<script>alert(1)</script>';
export const EVIL_REQUEST = `<script>alert(1)</script> rotate the quarterly kiwi ledger </script><script>window.__pwned=1</script> ]]> "'&`;
export const CASE_A = `<b>q0</b>"'&`;
export const CASE_B = `<i>q1</i>]]>`;

/**
 * The tiny dataset with hostile text where third parties write it: tool A (gold for some cases)
 * gets a `<script>` id and every payload as its description; tool B gets quote/CDATA characters in
 * its id, the `<img onerror>` payload as description and an `<img>` namespace, and is the gold of
 * case CASE_B, whose plain request shares no word with it (a miss); case CASE_A has a hostile
 * request and slice and an ordinary gold tool that shares no word with it (a miss, with A ranked
 * instead). The dataset name is hostile too.
 */
export function hostileInput(name = `tiny ${PAYLOADS[0]} ${PAYLOADS[4]}`): { input: EvalInput; idA: string; idB: string } {
  const g = generate(resolveParams('tiny', 5));
  const tools = g.dataset.catalog.tools;
  const graded = g.dataset.cases.filter((c) => c.expectedTools?.length === 1);
  const a = tools.find((t) => !t.pinned && graded.some((c) => c.expectedTools![0] === t.id))!;
  const goldAnywhere = new Set(g.dataset.cases.flatMap((c) => c.expectedTools ?? []));
  const b = tools.find((t) => !t.pinned && t.id !== a.id && !goldAnywhere.has(t.id))!;
  const words = ['script', 'alert', 'window', 'pwned', 'rotate', 'quarter', 'kiwi', 'ledger', '1'];
  const textOf = (t: Tool) => [t.id, t.name, t.title ?? '', t.summary, t.description, ...t.examples, JSON.stringify(t.inputSchema)].join(' ').toLowerCase();
  const plain = tools.find((t) => !t.pinned && t.id !== a.id && t.id !== b.id && !words.some((w) => textOf(t).includes(w)))!;
  const idA = `mcp__evil__<script>alert(1)</script>`;
  const idB = `mcp__evil__"'&]]>`;
  const rename = new Map([
    [a.id, idA],
    [b.id, idB],
  ]);
  const catalog: Catalog = {
    ...g.dataset.catalog,
    tools: tools.map((t) => {
      if (t.id === a.id) return { ...t, id: idA, summary: PAYLOADS.join(' '), description: PAYLOADS.join(' '), examples: [] };
      if (t.id === b.id)
        return {
          ...t,
          id: idB,
          namespace: EVIL_NS,
          server: EVIL_NS,
          summary: `${PAYLOADS[2]} ${PAYLOADS[3]} ${PAYLOADS[4]}`,
          description: `${PAYLOADS[2]} ${PAYLOADS[3]} ${PAYLOADS[4]}`,
          examples: [],
        };
      return t;
    }),
  };
  const renamed = (ids: string[] | undefined) => ids?.map((id) => rename.get(id) ?? id);
  const cases: Case[] = [
    { id: CASE_A, request: EVIL_REQUEST, expectedTools: [plain.id], slices: ['paraphrase', EVIL_SLICE] },
    { id: CASE_B, request: 'please rotate the quarterly kiwi ledger', expectedTools: [idB], slices: ['lexical'] },
    ...g.dataset.cases.map((c) => ({
      ...c,
      ...(c.expectedTools ? { expectedTools: renamed(c.expectedTools)! } : {}),
      ...(c.hardNegatives ? { hardNegatives: renamed(c.hardNegatives)! } : {}),
    })),
  ];
  return { input: { name, source: { kind: 'dataset', ref: 'tiny-5', split: null }, catalog, cases, catalogSha256: catalogHash(catalog) }, idA, idB };
}

/** Invisible characters planted by {@link invisibleInput}: a right-to-left override, an isolate pair, a zero-width space, a mark, a bell. */
export const INVISIBLES = ['\u202E', '\u2066', '\u2069', '\u200B', '\u200F', '\u0007'] as const;

/**
 * The tiny dataset with invisible characters where third parties write: tool A's id ends in a
 * right-to-left override (`…pay\u202Efdp.exe` reads as `…payexe.pdf`), its summary and description
 * hold an isolate pair and a zero-width space; case INVISIBLE_CASE (its id has an override too)
 * asks in A's own words, with a bell and a mark, so bm25 ranks A first, and is in a slice whose name
 * has a mark. Every text the reports draw from data carries one of them.
 */
export const INVISIBLE_CASE = 'q\u202Eevil';
export function invisibleInput(): { input: EvalInput; idA: string } {
  const g = generate(resolveParams('tiny', 5));
  const tools = g.dataset.catalog.tools;
  const a = tools.find((t) => !t.pinned)!;
  const idA = 'mcp__evil__pay\u202Efdp.exe';
  const catalog: Catalog = {
    ...g.dataset.catalog,
    tools: tools.map((t) =>
      t.id === a.id
        ? { ...t, id: idA, summary: 'frobnicate the \u2066zanzibar\u2069 ledger', description: 'frobnicate the zanzibar\u200B ledger', examples: [] }
        : t,
    ),
  };
  const cases: Case[] = [
    { id: INVISIBLE_CASE, request: 'please frobnicate the zanzibar ledger\u0007 now \u200F\u202Etxt.exe', expectedTools: [idA], slices: ['s\u200Flice'] },
    ...g.dataset.cases.filter((c) => !(c.expectedTools ?? []).includes(a.id) && !(c.hardNegatives ?? []).includes(a.id)),
  ];
  return {
    input: { name: 'tiny invisible', source: { kind: 'dataset', ref: 'tiny-5', split: null }, catalog, cases, catalogSha256: catalogHash(catalog) },
    idA,
  };
}
