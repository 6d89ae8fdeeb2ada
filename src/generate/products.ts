/**
 * Product names in casual phrases. A phrase like "project on GitHub" is fine for a GitHub request
 * and wrong for a GitLab one: it would make the label unfair. `phrasesFor` keeps the casual
 * phrases of an object that name no product other than the server's own.
 */
import { SERVERS } from './vocab/servers.ts';
import type { ObjectSpec, ServerSpec } from './vocab/types.ts';

/** Words that are product aliases somewhere but ordinary words in a phrase. */
const GENERIC = new Set([
  'box',
  'drive',
  'front',
  'wiki',
  'conf',
  'the pager',
  'pager',
  'atlas',
  'teams',
  'notion',
  'monday',
  'linear',
  'zoom',
  'crm',
  'the crm',
  'sales system',
  'billing',
  'billing svc',
  'the billing service',
  'circle',
  'segment',
  'lever',
  'snow',
  'the warehouse',
  'bamboo',
  'amp',
  'prom',
  'platform cluster',
  'the hr portal',
  'people portal',
  'amazon',
  'argo',
  'redis cache',
  'psql',
  'tfc',
  'mwaa',
  'ocp',
]);

/** Technology names that belong to one product family. */
const TECH: Record<string, string[]> = {
  ec2: ['aws'],
  rds: ['aws'],
  s3: ['aws'],
  eks: ['aws', 'eks-platform'],
  lambda: ['aws'],
  cloudwatch: ['aws'],
  promql: ['prometheus', 'grafana'],
  plpgsql: ['postgres'],
  kubectl: ['kubernetes'],
  'slack connect': ['slack'],
  'github actions': ['github'],
  confluence: ['confluence'],
  jira: ['jira'],
  notion: ['notion'],
  linear: ['linear'],
};

const lexicon: Array<{ re: RegExp; servers: Set<string> }> = (() => {
  const byWord = new Map<string, Set<string>>();
  const add = (word: string, server: string) => {
    const w = word.toLowerCase().trim();
    if (w.length < 3 || (GENERIC.has(w) && !(w in TECH))) return;
    (byWord.get(w) ?? byWord.set(w, new Set()).get(w)!).add(server);
  };
  for (const s of SERVERS) for (const w of [s.display, s.name, ...s.aliases]) add(w, s.name);
  for (const [w, servers] of Object.entries(TECH)) for (const s of servers) (byWord.get(w) ?? byWord.set(w, new Set()).get(w)!).add(s);
  return [...byWord.entries()].map(([w, servers]) => ({ re: new RegExp(`(^|[^a-z0-9])${w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}($|[^a-z0-9])`), servers }));
})();

/** True if `phrase` names a product that is not `server`'s. */
export function namesOtherProduct(phrase: string, server: ServerSpec): boolean {
  const p = phrase.toLowerCase();
  return lexicon.some(({ re, servers }) => !servers.has(server.name) && re.test(p));
}

/** The casual phrases of `object` fit for requests to `server` (all of them if none is). */
export function phrasesFor(object: ObjectSpec, server: ServerSpec): readonly string[] {
  let byServer = memo.get(object);
  if (!byServer) memo.set(object, (byServer = new Map()));
  let phrases = byServer.get(server.name);
  if (!phrases) {
    // Clause-like phrases ("who the visitor is") do not fit "a … ", "every …": left out too.
    const ok = object.casual.filter((c) => !namesOtherProduct(c, server) && !/^(who|what|why|where|when|how|which)\b/i.test(c));
    phrases = ok.length ? ok : [namesOtherProduct(object.doc, server) ? object.key.replace(/_/g, ' ') : object.doc];
    byServer.set(server.name, phrases);
  }
  return phrases;
}

const memo = new WeakMap<ObjectSpec, Map<string, readonly string[]>>();

/** The server's names users may type that no other server shares (`snow` is Snowflake's and ServiceNow's: left out). */
export function uniqueAliases(server: ServerSpec): string[] {
  return server.aliases.filter((a) => SERVERS.filter((s) => [s.display, s.name, ...s.aliases].some((x) => x.toLowerCase() === a.toLowerCase())).length === 1);
}

/** The documentation noun of an object for a server: its own, unless it names another product. */
export function docFor(object: ObjectSpec, server: ServerSpec): string {
  let byServer = docMemo.get(object);
  if (!byServer) docMemo.set(object, (byServer = new Map()));
  let doc = byServer.get(server.name);
  if (doc === undefined) byServer.set(server.name, (doc = namesOtherProduct(object.doc, server) ? object.key.replace(/_/g, ' ') : object.doc));
  return doc;
}

const docMemo = new WeakMap<ObjectSpec, Map<string, string>>();
