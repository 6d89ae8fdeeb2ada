import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeMarkdown, escapeXml, markdownId, showInvisible } from './escape.ts';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "' onmouseover='alert(1)",
  ']]>',
  '<![CDATA[x]]>',
  '<!-- comment -->',
  '&lt;script&gt; already an entity',
  'Tom & Jerry',
  '| broken | table',
  '[link](javascript:alert(1))',
  '![img](https://example.com/x.png)',
  '<https://example.com>',
  '**bold** _em_ ~~strike~~ `code` $x^2$',
  'line one\nline two\r\nline three\rfour',
  'control \u0001 \u0008 \u001F \u007F \u0085 char',
  '\uFFFE\uFFFF lone \uD800 and \uDC00 surrogates, pair 😀',
  '# heading',
  '- list item',
  '1. ordered',
  'back\\slash\\',
];

/** Pipes not preceded by an odd number of backslashes: the ones GFM splits table cells on. */
function unescapedPipes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '|') n++;
  }
  return n;
}

describe('escapeHtml', () => {
  it('turns the five HTML-significant characters into entities', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('leaves no tag, quote or raw ampersand in hostile payloads', () => {
    for (const p of PAYLOADS) {
      const e = escapeHtml(p);
      expect(e).not.toMatch(/[<>"']/);
      expect(e).not.toMatch(/&(?!(amp|lt|gt|quot|#39);)/);
    }
  });
});

describe('escapeXml', () => {
  it('uses the five predefined entities', () => {
    expect(escapeXml(`<a b="c" d='e'>&</a>`)).toBe('&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;&lt;/a&gt;');
    expect(escapeXml(']]>')).toBe(']]&gt;');
  });

  it('shows the controls XML 1.0 forbids, drops what it cannot carry at all, and keeps tab, LF, CR and surrogate pairs', () => {
    expect(escapeXml('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg')).toBe('a[U+0000]b[U+0001]c[U+0008]d[U+000B]e[U+000C]f[U+001F]g');
    expect(escapeXml('t\tn\nr\r')).toBe('t\tn\nr\r');
    expect(escapeXml('x\uFFFEy\uFFFFz')).toBe('xyz');
    expect(escapeXml('lone \uD800 high, lone \uDC00 low, pair 😀')).toBe('lone  high, lone  low, pair 😀');
    expect(escapeXml('\uDC00\uD800')).toBe(''); // reversed pair: both lone
  });

  it('every payload gives a valid document in content and in attributes, and survives a round trip as content', () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, trimValues: false, processEntities: true });
    for (const p of PAYLOADS) {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<r a="${escapeXml(p)}">${escapeXml(p)}</r>`;
      expect(XMLValidator.validate(xml)).toBe(true);
      const doc = parser.parse(xml) as { r: { a: string; '#text'?: string } };
      const kept = showInvisible(p).replace(/[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
      expect(doc.r['#text'] ?? '').toBe(kept.replace(/\r\n?/g, '\n')); // XML parsers normalise line ends
    }
  });
});

describe('invisible characters are shown, in every format', () => {
  // a bidi override that makes "mcp__evil__txt.exe" read as "mcp__evil__exe.txt", a zero-width space, an isolate, a BEL
  const sneaky = 'mcp__evil__\u202Etxt.exe \u200Bzero \u2066iso\u2069 bell\u0007';
  it('as [U+XXXX] in HTML, XML and Markdown, so ids read as they are', () => {
    expect(showInvisible(sneaky)).toBe('mcp__evil__[U+202E]txt.exe [U+200B]zero [U+2066]iso[U+2069] bell[U+0007]');
    for (const out of [escapeHtml(sneaky), escapeXml(sneaky), escapeMarkdown(sneaky)]) {
      expect(out).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/);
      expect(out).toContain('U+202E');
      expect(out).toContain('U+200B');
    }
  });
  it('leaves the joiners of emoji and of scripts alone', () => {
    const family = 'family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}, Persian \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645';
    expect(escapeHtml(family)).toBe(family);
  });
});

describe('escapeMarkdown', () => {
  it('leaves no raw HTML: every < and > is an entity', () => {
    for (const p of PAYLOADS) expect(escapeMarkdown(p)).not.toMatch(/[<>]/);
    expect(escapeMarkdown('<script>alert(1)</script>')).toBe('&lt;script&gt;alert\\(1\\)&lt;/script&gt;');
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert\\(1\\)&gt;');
  });

  it('keeps a table row intact: no unescaped pipe, no line break, no control character', () => {
    expect(escapeMarkdown('| broken | table')).toBe('\\| broken \\| table');
    expect(escapeMarkdown('a\nb\r\nc\rd')).toBe('a b c d');
    for (const p of PAYLOADS) {
      const e = escapeMarkdown(p);
      expect(unescapedPipes(e)).toBe(0);
      expect(e).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/);
    }
  });

  it('defuses links, images, emphasis, code, math and entities', () => {
    expect(escapeMarkdown('[link](javascript:alert(1))')).toBe('\\[link\\]\\(javascript:alert\\(1\\)\\)');
    expect(escapeMarkdown('![i](x)')).toBe('\\!\\[i\\]\\(x\\)');
    expect(escapeMarkdown('**b** _e_ ~~s~~ `c` $m$')).toBe('\\*\\*b\\*\\* \\_e\\_ \\~\\~s\\~\\~ \\`c\\` \\$m\\$');
    expect(escapeMarkdown('&lt;')).toBe('&amp;lt;'); // shows "&lt;", not "<"
    expect(escapeMarkdown('"q" \'a\'')).toBe('&quot;q&quot; &#39;a&#39;');
    expect(escapeMarkdown('back\\slash')).toBe('back\\\\slash');
  });

  it('cannot start a heading, a list or a thematic break', () => {
    for (const s of ['# h', '- item', '---', '+ item']) expect(escapeMarkdown(s), s).toBe(`\\${s}`);
    expect(escapeMarkdown('1. item')).toBe('1\\. item');
    for (const s of ['0.1.0', 'tiny-5']) expect(escapeMarkdown(s), s).toBe(s); // not a list marker
  });

  it('leaves ordinary identifiers readable', () => {
    expect(escapeMarkdown('mcp__github__create_issue')).toBe('mcp\\_\\_github\\_\\_create\\_issue');
    for (const s of ['near-duplicate', 'Émoji 😀 ok']) expect(escapeMarkdown(s), s).toBe(s);
  });
});

describe('markdownId', () => {
  it('writes an id made of id characters as a code span, and escapes anything else', () => {
    expect(markdownId('mcp__github__list_commits')).toBe('`mcp__github__list_commits`');
    expect(markdownId('plugin__a.b/c@1:x+y-z')).toBe('`plugin__a.b/c@1:x+y-z`');
    const evil = 'a`b|<img src=x>';
    expect(markdownId(evil)).toBe(escapeMarkdown(evil));
    expect(markdownId(evil)).not.toContain('<img');
  });
});
