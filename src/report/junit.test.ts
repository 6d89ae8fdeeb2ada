import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalInput } from '../eval/input.ts';
import type { Results } from '../eval/results.ts';
import { makeConfig, runEval } from '../eval/run.ts';
import { defaultChecks, junitXml, thresholdChecks, type Check } from './junit.ts';
import { EVIL_DESC, EVIL_ID, hostileDataset } from '../../test/results-fixtures.ts';
import { tinyInput } from '../../test/helpers.ts';

interface Failure {
  message: string;
  type: string;
  '#text'?: string;
}
interface TestCase {
  classname: string;
  name: string;
  failure?: Failure[];
  error?: Failure[];
  skipped?: Array<{ message: string }>;
  'system-out'?: string[];
}
interface Suite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  properties?: Array<{ property: Array<{ name: string; value: string }> }>;
  testcase?: TestCase[];
}
interface Doc {
  testsuites: { name: string; tests: string; failures: string; errors: string; skipped: string; testsuite?: Suite[] };
}

const ARRAYS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped', 'property', 'properties', 'system-out']);
// htmlEntities: this parser decodes numeric character references (&#10;) only with it.
const parser = new XMLParser({
  htmlEntities: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ARRAYS.has(name),
});

/** Parse a JUnit document, after checking it is well-formed and that every count matches its testcases. */
function parse(xml: string): Doc {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as Doc;
  const root = doc.testsuites;
  expect(root.name).toBe('backpack');
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const s of root.testsuite ?? []) {
    const cases = s.testcase ?? [];
    const f = cases.filter((c) => c.failure).length;
    const e = cases.filter((c) => c.error).length;
    const k = cases.filter((c) => c.skipped).length;
    expect(cases.every((c) => [c.failure, c.error, c.skipped].filter(Boolean).length <= 1)).toBe(true);
    expect(Number(s.tests)).toBe(cases.length);
    expect(Number(s.failures)).toBe(f);
    expect(Number(s.errors)).toBe(e);
    expect(Number(s.skipped)).toBe(k);
    skipped += k;
    tests += cases.length;
    failures += f;
    errors += e;
  }
  expect(Number(root.tests)).toBe(tests);
  expect(Number(root.failures)).toBe(failures);
  expect(Number(root.errors)).toBe(errors);
  expect(Number(root.skipped)).toBe(skipped);
  return doc;
}

function suite(doc: Doc, name: string): Suite {
  const s = doc.testsuites.testsuite?.find((x) => x.name === name);
  if (!s) throw new Error(`no suite ${name}`);
  return s;
}

function props(s: Suite): Record<string, string> {
  return Object.fromEntries((s.properties?.[0]?.property ?? []).map((p) => [p.name, p.value]));
}

const { input } = tinyInput();

const EVIL_STRATEGY = '<b>bm25</b>]]>&"\u0001\'';
const EVIL_DATASET = '<script>alert("ds")</script>]]>&\u0001';
const hostileInput = (): EvalInput =>
  hostileDataset(
    EVIL_DATASET,
    EVIL_DESC,
    [],
    [
      { id: 'c1', request: 'list the files in my folder', expectedTools: ['list_files'], slices: ['<img src=x onerror=alert(1)>'] },
      { id: 'c2', request: 'zebra quantum pineapple', expectedTools: [EVIL_ID], slices: ['</script>'] },
      { id: 'c3', request: 'good morning', expectedTools: [], slices: ['no-tool'] },
    ],
  );

let tiny: Results;
let evil: Results;

beforeAll(async () => {
  tiny = (await runEval(input, makeConfig(['bm25'], [1, 3, 5, 10], { bm25: null, static: null, deferred: null }, null, false, ['static', 'deferred']))).results;
  evil = (await runEval(hostileInput(), makeConfig(['bm25'], [1, 3, 5, 10], { bm25: null }, null))).results;
  evil.retrievers = { [EVIL_STRATEGY]: evil.retrievers.bm25! };
}, 60_000);

describe('junitXml with the default checks', () => {
  it('has one suite per strategy; only the scope-leak gate is a test case, the headline figures and their intervals are properties', () => {
    const xml = junitXml(tiny);
    const doc = parse(xml);
    expect(doc.testsuites.testsuite!.map((s) => s.name)).toEqual(['bm25', 'static', 'deferred']);
    expect(doc.testsuites.failures).toBe('0');
    expect(doc.testsuites.errors).toBe('0');
    // a test case is a check that can fail: 3 strategies, one threshold each
    expect(doc.testsuites.tests).toBe('3');
    const bm25 = suite(doc, 'bm25');
    expect(bm25.testcase!.map((c) => c.name)).toEqual(['scopeLeakCount']);
    for (const c of bm25.testcase!) expect(c.classname).toBe('tiny-5.bm25');
    const m = tiny.retrievers.bm25!.metrics.overall;
    const ci = tiny.retrievers.bm25!.metrics.ci95!.overall;
    const p = props(bm25);
    expect(p.kind).toBe('retriever');
    expect(p.dataset).toBe('tiny-5');
    expect(p.catalogSha256).toBe(tiny.dataset.catalogSha256);
    expect(Number(p['recall@5'])).toBeCloseTo(m['recall@5']!, 10);
    expect(p['recall@5.ci95']).toBe(`${ci['recall@5']![0]} ${ci['recall@5']![1]}`);
    expect(Object.keys(p).filter((k) => !k.includes('.') && k in m)).toEqual([
      'top1',
      'recall@1',
      'recall@5',
      'recall@10',
      'mrr@10',
      'noToolFalsePositiveRate',
    ]);
    // a profile without search has no ranking figures: no property for them
    expect(suite(doc, 'static').testcase!.map((c) => c.name)).toEqual(['scopeLeakCount']);
    expect(doc.testsuites.skipped).toBe('0');
    const sp = props(suite(doc, 'static'));
    expect(sp.visible).toBe('1');
    expect(sp.fitsContext).toBe('1');
    expect(sp['recall@5']).toBeUndefined();
    expect(props(suite(doc, 'deferred')).visible).toBeDefined();
    expect(defaultChecks(tiny)).toEqual([{ metric: 'scopeLeakCount', max: 0 }]);
  });

  it('makes test cases of --fail-below / --fail-above rules, which can fail', () => {
    const m = tiny.retrievers.bm25!.metrics.overall;
    const checks = [
      ...defaultChecks(tiny),
      ...thresholdChecks(`recall@5=${m['recall@5']! + 0.01},bm25:top1=0`, 'min'),
      ...thresholdChecks('noToolFalsePositiveRate=0.5', 'max'),
    ];
    const doc = parse(junitXml(tiny, checks));
    const bm25 = suite(doc, 'bm25');
    expect(bm25.testcase!.map((c) => c.name)).toEqual(['scopeLeakCount', 'recall@5', 'top1', 'noToolFalsePositiveRate']);
    const r5 = bm25.testcase!.find((c) => c.name === 'recall@5')!;
    expect(r5.failure![0]!.message).toMatch(/^recall@5 = [0-9.]+, expected ≥ [0-9.]+ \(delta -0\.01\)$/);
    expect(bm25.testcase!.find((c) => c.name === 'top1')!.failure).toBeUndefined();
    // a rule without a strategy skips those that lack the figure (static has no recall@5)
    expect(suite(doc, 'static').testcase!.map((c) => c.name)).toEqual(['scopeLeakCount', 'noToolFalsePositiveRate']);
    expect(() => thresholdChecks('recall@5', 'min')).toThrow(/not metric=value/);
    expect(() => thresholdChecks('recal@5=0.5', 'min')).toThrow();
  });

  it('fails a strategy that leaks scopes: expected, actual and delta', () => {
    const leaky: Results = structuredClone(tiny);
    leaky.profiles!.deferred!.metrics.overall.scopeLeakCount = 3;
    const doc = parse(junitXml(leaky));
    expect(doc.testsuites.failures).toBe('1');
    const c = suite(doc, 'deferred').testcase!.find((x) => x.name === 'scopeLeakCount')!;
    expect(c.failure).toHaveLength(1);
    const f = c.failure![0]!;
    expect(f.type).toBe('threshold');
    expect(f.message).toBe('scopeLeakCount = 3, expected ≤ 0 (delta +3)');
    expect(f['#text']).toBe('expected: ≤ 0\nactual: 3\ndelta: +3');
    expect(suite(doc, 'deferred').failures).toBe('1');
    expect(suite(doc, 'bm25').failures).toBe('0');
  });

  it('is deterministic', () => {
    expect(junitXml(structuredClone(tiny))).toBe(junitXml(tiny));
  });
});

describe('junitXml with checks', () => {
  it('a failing threshold is one <failure> per strategy it misses, with expected, actual and delta', () => {
    const m = tiny.retrievers.bm25!.metrics.overall['recall@5']!;
    const doc = parse(junitXml(tiny, [{ strategy: 'bm25', metric: 'recall@5', min: 0.9 }]));
    expect(doc.testsuites.tests).toBe('1');
    expect(doc.testsuites.failures).toBe('1');
    expect(doc.testsuites.errors).toBe('0');
    const f = suite(doc, 'bm25').testcase![0]!.failure![0]!;
    const delta = Number((m - 0.9).toPrecision(12));
    const actual = Number(m.toPrecision(12));
    expect(f.message).toBe(`recall@5 = ${actual}, expected ≥ 0.9 (delta ${delta})`);
    expect(f['#text']).toBe(`expected: ≥ 0.9\nactual: ${actual}\ndelta: ${delta}`);
    expect(delta).toBeLessThan(0);
    // the other strategies have empty suites
    expect(suite(doc, 'static').tests).toBe('0');
  });

  it('checks every strategy when none is named; passing checks have no failure', () => {
    const doc = parse(
      junitXml(tiny, [
        { metric: 'recall@5', min: 0.5 },
        { metric: 'noToolFalsePositiveRate', max: 0.5 },
      ]),
    );
    // bm25 and deferred: recall@5 passes, no-tool FP fails; static: no recall@5 → error, no-tool FP 1 (every tool is eager) fails
    expect(tiny.profiles!.static!.metrics.overall.noToolFalsePositiveRate).toBe(1);
    expect(doc.testsuites.tests).toBe('6');
    expect(doc.testsuites.failures).toBe('3');
    expect(doc.testsuites.errors).toBe('1');
    const st = suite(doc, 'static').testcase!;
    expect(st[0]!.error![0]!.message).toBe('metric recall@5 is missing for static');
    expect(st[0]!.error![0]!.type).toBe('missing-metric');
    expect(st[1]!.failure![0]!.message).toBe('noToolFalsePositiveRate = 1, expected ≤ 0.5 (delta +0.5)');
    expect(st[1]!.error).toBeUndefined();
    const bm = suite(doc, 'bm25').testcase!;
    expect(bm[0]!.failure).toBeUndefined();
    expect(bm[0]!.error).toBeUndefined();
  });

  it('expected ± tolerance, and several bounds', () => {
    const m = tiny.retrievers.bm25!.metrics.overall['mrr@10']!;
    const checks: Check[] = [
      { strategy: 'bm25', metric: 'mrr@10', expected: m }, // exact
      { strategy: 'bm25', metric: 'mrr@10', expected: m + 0.005, tolerance: 0.01 },
      { strategy: 'bm25', metric: 'mrr@10', expected: m + 0.05, tolerance: 0.01 },
      { strategy: 'bm25', metric: 'mrr@10', min: 0.99, max: 0.1 },
      { strategy: 'bm25', metric: 'scopeLeakCount', min: 0, max: 0 },
    ];
    const doc = parse(junitXml(tiny, checks));
    const cs = suite(doc, 'bm25').testcase!;
    expect(cs.map((c) => Boolean(c.failure))).toEqual([false, false, true, true, false]);
    expect(cs[2]!.failure![0]!.message).toContain(`expected = ${Number((m + 0.05).toPrecision(12))} ± 0.01 (delta -0.05`);
    const both = cs[3]!.failure![0]!;
    expect(both.message).toMatch(/expected ≥ 0\.99 \(delta -[0-9.]+\) and ≤ 0\.1 \(delta \+[0-9.]+\)/);
    expect(both['#text']).toMatch(/^expected: ≥ 0\.99 and ≤ 0\.1\nactual: [0-9.]+\ndelta: -[0-9.]+, \+[0-9.]+$/);
  });

  it('a check that cannot run is an <error>, not a <failure>', () => {
    const doc = parse(
      junitXml(tiny, [
        { strategy: 'static', metric: 'top1', min: 0.5 },
        { strategy: 'nope', metric: 'top1', min: 0.5 },
        { strategy: 'bm25', metric: 'recal@5', min: 0.5 },
      ]),
    );
    expect(doc.testsuites.failures).toBe('0');
    expect(doc.testsuites.errors).toBe('3');
    expect(suite(doc, 'static').testcase![0]!.error![0]!.type).toBe('missing-metric');
    const nope = suite(doc, 'nope');
    expect(nope.testcase![0]!.error![0]!.type).toBe('missing-strategy');
    expect(props(nope).kind).toBe('missing');
    const bad = suite(doc, 'bm25').testcase![0]!.error![0]!;
    expect(bad.type).toBe('bad-metric');
    expect(bad.message).toContain('unknown metric "recal"');
    // a metric that is not a number in the file (NaN serialised as null)
    const broken: Results = structuredClone(tiny);
    (broken.retrievers.bm25!.metrics.overall as Record<string, unknown>).top1 = null;
    const d2 = parse(junitXml(broken, [{ strategy: 'bm25', metric: 'top1', min: 0 }]));
    expect(suite(d2, 'bm25').testcase![0]!.error![0]!.message).toContain('not a number');
  });
});

describe('junitXml on hostile text', () => {
  it('escapes names from the catalog and the cases and shows the controls XML cannot carry', () => {
    const xml = junitXml(evil, [{ metric: 'recall@5', min: 0.9 }]);
    const doc = parse(xml);
    expect(xml).not.toContain('<script');
    expect(xml).not.toContain('<b>');
    expect(xml).not.toContain('\u0001');
    expect(xml.match(/]]>/g)).toBeNull();
    const s = doc.testsuites.testsuite![0]!;
    expect(s.name).toBe(EVIL_STRATEGY.replace('\u0001', '[U+0001]'));
    expect(s.testcase![0]!.classname).toBe(`${EVIL_DATASET.replace('\u0001', '[U+0001]')}.${EVIL_STRATEGY.replace('\u0001', '[U+0001]')}`);
    expect(props(s).dataset).toBe(EVIL_DATASET.replace('\u0001', '[U+0001]'));
    expect(s.testcase![0]!.failure![0]!.message).toBe('recall@5 = 0.5, expected ≥ 0.9 (delta -0.4)');
    // the hostile gold tool was never surfaced (the markdown report lists it; here it only must not break the XML)
    expect(evil.retrievers[EVIL_STRATEGY]!.neverSurfaced.gold).toEqual([EVIL_ID]);
    const withId = junitXml(evil, [{ strategy: EVIL_ID, metric: 'top1' }]);
    const d2 = parse(withId);
    expect(suite(d2, EVIL_ID.replace('\u0001', '[U+0001]')).testcase![0]!.error![0]!.message).toBe(
      `strategy "${EVIL_ID.replace('\u0001', '[U+0001]')}" is not in the results`,
    );
  });
});
