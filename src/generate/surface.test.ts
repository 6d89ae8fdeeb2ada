import { describe, expect, it } from 'vitest';
import { contentWords, stem } from '../catalog/overlap.ts';
import { measureRealism } from '../eval/realism.ts';
import { wrapperPhrases } from './cases.ts';
import surfaceData from './data/surface.json' with { type: 'json' };
import { generate, resolveParams } from './index.ts';
import { Rng } from '../util/rng.ts';
import { articleFor, fixArticles, placeholderValues, plural, productName, surfaceErrors, SURFACE, withArticle } from './surface.ts';
import { ARCHETYPES } from './vocab/archetypes.ts';
import { OPERATIONS } from './vocab/operations.ts';
import { SERVERS } from './vocab/servers.ts';
import { uniqueAliases } from './products.ts';

describe('surface.json', () => {
  it('validates against its schema', () => {
    expect(surfaceErrors(surfaceData)).toEqual([]);
  });

  it('a broken copy does not', () => {
    const broken = structuredClone(surfaceData) as Record<string, unknown>;
    broken.leadIns = ['hey'];
    delete broken.firstNames;
    (broken.padding as Record<string, unknown>).leadIn = 2;
    broken.extra = true;
    const errors = surfaceErrors(broken);
    expect(errors.length).toBeGreaterThanOrEqual(4);
    expect(surfaceErrors({ ...surfaceData, labels: ['Has Space'] }).length).toBeGreaterThan(0);
  });

  it('lead-ins and sign-offs carry no catalog word (tool-name words, object names, products)', () => {
    const catalog = new Set<string>();
    const add = (text: string) => {
      for (const w of contentWords(text)) catalog.add(stem(w));
    };
    for (const op of OPERATIONS)
      add(
        op
          .name('zqobj', 'zqobjs')
          .replace(/zqobjs?/g, ' ')
          .replace(/_/g, ' '),
      );
    for (const a of ARCHETYPES)
      for (const o of a.objects) {
        add(o.key.replace(/_/g, ' '));
        add(o.plural.replace(/_/g, ' '));
      }
    for (const s of SERVERS) for (const n of [s.display, s.name, ...s.aliases]) add(n.replace(/[-_]/g, ' '));
    const offending = wrapperPhrases().filter((p) => [...contentWords(p)].some((w) => catalog.has(stem(w))));
    expect(offending).toEqual([]);
  });

  it('nicknames are aliases the servers list (none invented)', () => {
    for (const [server, nicks] of Object.entries(SURFACE.nicknames)) {
      const spec = SERVERS.find((s) => s.name === server);
      expect(spec, server).toBeDefined();
      const aliases = spec!.aliases.map((a) => a.toLowerCase());
      for (const n of nicks) expect(aliases, `${server}: ${n}`).toContain(n.toLowerCase());
    }
  });
});

describe('articles', () => {
  const cases: Array<[string, 'a' | 'an']> = [
    ['SLA', 'an'],
    ['FAQ', 'an'],
    ['URL', 'a'],
    ['hour', 'an'],
    ['usage report', 'a'],
    ['S3 bucket', 'an'],
    ['EC2 instance', 'an'],
    ['K8s cluster', 'a'],
    ['API key', 'an'],
    ['SSH key', 'an'],
    ['HTTP check', 'an'],
    ['SMS template', 'an'],
    ['MFA device', 'an'],
    ['org', 'an'],
    ['app', 'an'],
    ['event', 'an'],
    ['urgent label', 'an'],
    ['umbrella policy', 'an'],
    ['owner', 'an'],
    ['inbox', 'an'],
    ['user', 'a'],
    ['unit', 'a'],
    ['one-off', 'a'],
    ['once-over', 'a'],
    ['euro invoice', 'a'],
    ['eu-west-1 bucket', 'a'],
    ['European region', 'a'],
    ['honest answer', 'an'],
    ['heir', 'an'],
    ['host', 'a'],
    ['NAT gateway', 'a'],
    ['SKU', 'a'],
    ['README', 'a'],
    ['SEPA mandate', 'a'],
    ['SHA', 'a'],
    ['RITM', 'an'],
    ['MR', 'an'],
    ['SQL query', 'a'],
    ['X-ray trace', 'an'],
    ['8-ball', 'an'],
    ['"urgent" tag', 'an'],
    ['dashboard', 'a'],
    ['incident', 'an'],
    ['user group', 'a'],
    ['deployment', 'a'],
    ['utility bill', 'a'],
    ['uncle', 'an'],
  ];
  it.each(cases)('%s takes %s', (phrase, want) => {
    expect(articleFor(phrase)).toBe(want);
    expect(withArticle(phrase)).toBe(`${want} ${phrase}`);
  });

  it('fixes every a/an in a sentence, keeping capitals', () => {
    expect(fixArticles('hunt for a org about an usage report')).toBe('hunt for an org about a usage report');
    expect(fixArticles('A app and an S3 bucket, stick a "urgent" label on it')).toBe('An app and an S3 bucket, stick an "urgent" label on it');
    expect(fixArticles('plan a trip; vitamin-a is fine; a-ok')).toBe('plan a trip; vitamin-a is fine; a-ok');
    expect(fixArticles('hunt for a our instance issue, set up a the backlog')).toBe('hunt for our instance issue, set up the backlog');
  });
});

describe('plurals', () => {
  const cases: Array<[string, string]> = [
    ['ticket', 'tickets'],
    ['SLA', 'SLAs'],
    ['API key', 'API keys'],
    ['bill of materials', 'bills of materials'],
    ['software bill of materials', 'software bills of materials'],
    ['index', 'indexes'],
    ['status', 'statuses'],
    ['policy', 'policies'],
    ['person', 'people'],
    ['analysis', 'analyses'],
    ['alias', 'aliases'],
    ['key pair', 'key pairs'],
    ['database', 'databases'],
    ['process', 'processes'],
    ['pem for logging into boxes', 'pems for logging into boxes'],
    ['address', 'addresses'],
    ['release', 'releases'],
    ['child', 'children'],
    ['ingress', 'ingresses'],
    ['metadata', 'metadata'],
    ['grok processors', 'grok processors'],
    ['box', 'boxes'],
    ['branch', 'branches'],
    ['schema', 'schemas'],
  ];
  it.each(cases)('%s → %s', (one, many) => {
    expect(plural(one)).toBe(many);
  });
});

describe('placeholder values', () => {
  it('are deterministic for a seed and vary across draws', () => {
    const a = new Rng(7, 't');
    const b = new Rng(7, 't');
    const draws = Array.from({ length: 200 }, () => placeholderValues(a));
    expect(Array.from({ length: 200 }, () => placeholderValues(b))).toEqual(draws);
    const refs = new Set(draws.map((d) => d.ref));
    expect(refs.size).toBeGreaterThan(180);
    const people = new Set(draws.map((d) => d.person));
    expect(people.size).toBeGreaterThan(150);
  });

  it('keep field and value consistent', () => {
    const r = new Rng(3, 't');
    for (let i = 0; i < 500; i++) {
      const v = placeholderValues(r);
      if (v.field === 'priority') expect(['P0', 'P1', 'P2', 'P3', 'high', 'low', 'medium', 'critical']).toContain(v.value);
      if (v.field === 'region') expect(SURFACE.fieldValues.region).toContain(v.value);
      if (v.field === 'status') expect(SURFACE.fieldValues.status).toContain(v.value);
      expect(v.value).not.toMatch(/[{}]/);
      expect(v.place).not.toMatch(/[{}]/);
      expect(v.text).not.toMatch(/[{}]/);
    }
  });

  it('product names: the display name mostly, a real nickname sometimes', () => {
    const r = new Rng(1, 't');
    const k8s = SERVERS.find((s) => s.name === 'kubernetes')!;
    const names = Array.from({ length: 1000 }, () => productName(k8s, uniqueAliases(k8s), r));
    const display = names.filter((n) => n === 'Kubernetes').length;
    expect(display).toBeGreaterThan(750);
    expect(new Set(names)).toEqual(new Set(['Kubernetes', 'k8s', 'kube']));
    const clickup = SERVERS.find((s) => s.name === 'clickup')!;
    expect(new Set(Array.from({ length: 200 }, () => productName(clickup, uniqueAliases(clickup), r)))).toEqual(new Set(['ClickUp']));
  });
});

describe('generated requests (small preset, seed 7: its figures match the monster preset)', () => {
  const g = generate(resolveParams('small', 7));
  const requests = g.dataset.cases.map((c) => c.request);

  it('no recurring filler or placeholder: the top of each is in at most 3% of tool requests', async () => {
    const realism = await measureRealism(g.dataset);
    expect(realism.fillers.top!.share).toBeLessThanOrEqual(0.03);
    expect(realism.placeholders.top!.share).toBeLessThanOrEqual(0.03);
    expect(realism.fillers.anyShare).toBeLessThan(0.35);
  }, 60_000);

  it('no a/an slip in any request', () => {
    const slips: string[] = [];
    for (const t of requests) {
      for (const m of t.matchAll(/(?:^|[^\p{L}\p{N}'’-])(a|an|A|An)\s+["'“(]?([\p{L}\p{N}][\p{L}\p{N}-]*)/gu)) {
        if (m[1]!.toLowerCase() !== articleFor(m[2]!)) slips.push(`${m[1]} ${m[2]}: ${t}`);
      }
    }
    expect(slips).toEqual([]);
  });

  it('is deterministic', () => {
    const again = generate(resolveParams('small', 7)).dataset.cases.map((c) => c.request);
    expect(again).toEqual(requests);
  });
});
