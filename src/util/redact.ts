/**
 * Redaction of secrets and personal data in text read from agent transcripts and API logs, applied
 * before anything is written (docs/import.md, "Privacy"). Each kind is a rule; every replacement is
 * counted by kind, so a dataset's manifest can say what was removed without saying what it was.
 *
 * Kinds, in the order they are applied (an earlier kind's replacement is never matched again):
 *   private-key      PEM private key blocks
 *   url-credentials  `scheme://user:password@host`, and secret query parameters (`?token=…`)
 *   api-key          tokens with a known prefix (OpenAI/Anthropic `sk-`, GitHub `ghp_`/`github_pat_`,
 *                    GitLab `glpat-`, Slack `xox?-`, AWS `AKIA`/`ASIA`, Google `AIza`, Stripe,
 *                    Hugging Face `hf_`, npm `npm_`, JWTs, `Bearer …`) and the value of an
 *                    assignment to a secret-sounding name (`password=…`, `api_key: …`, `"token": "…"`)
 *   email            e-mail addresses
 *   home-path        the user name in a home-folder path (`/home/NAME/`, `/Users/NAME/`,
 *                    `C:\Users\NAME\`) and in Claude Code's project-folder names (`-home-NAME-…`)
 *   high-entropy     any other run of 24+ letters, digits, `_`, `-`, `=` in which letters and digits
 *                    alternate at least 4 times and whose Shannon entropy is ≥ 3.5 bits a character,
 *                    or of 28+ characters with an entropy ≥ 4.4 (no name is that varied);
 *                    kept: hex-only strings (git hashes, UUIDs: ids) and words or numbers joined by
 *                    `_` or `-` (`build_2024_01_15`: names)
 *   custom           each `--redact REGEX` the user adds
 *
 * A replacement reads `[REDACTED:<kind>]` (a home path keeps its shape: `/home/[REDACTED:user]/`).
 */

/** The kinds of redaction, in the order they are applied. */
export const REDACTION_KINDS = ['private-key', 'url-credentials', 'api-key', 'email', 'home-path', 'high-entropy', 'custom'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

const mark = (kind: RedactionKind): string => `[REDACTED:${kind}]`;
const USER = '[REDACTED:user]';

interface Rule {
  kind: RedactionKind;
  pattern: RegExp;
  /** The replacement of one match (default: the kind's mark); one equal to the match is no redaction (not counted). */
  replace?: (match: string, ...groups: string[]) => string;
  /** A match this returns false for is kept as it is (and not counted). */
  keep?: (match: string) => boolean;
}

/** Names whose assigned value is a secret. */
const SECRET_NAMES =
  /(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|secret|pass(?:word)?|passwd|pwd|passphrase|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|private[_-]?key)/
    .source;

/** Known token prefixes (each with enough characters after it to be a real token). */
const KEY_PATTERNS = [
  /sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/,
  /gh[pousr]_[A-Za-z0-9]{30,}/,
  /github_pat_[A-Za-z0-9_]{30,}/,
  /glpat-[A-Za-z0-9_-]{20,}/,
  /xox[abposr]-[A-Za-z0-9-]{10,}/,
  /(?:AKIA|ASIA)[0-9A-Z]{16}/,
  /AIza[0-9A-Za-z_-]{35}/,
  /(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}/,
  /hf_[A-Za-z0-9]{30,}/,
  /npm_[A-Za-z0-9]{36}/,
  /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
].map((re) => re.source);

/** Shannon entropy of `s` in bits a character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isAlnum = (c: string): boolean => isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/** Whether a candidate run of token characters looks like a secret (see the module comment). */
export function looksSecret(s: string): boolean {
  if (s.length < 24) return false;
  if (/^[0-9a-fA-F-]+$/.test(s)) return false; // hex ids: git hashes, UUIDs
  if (/^[A-Za-z/._-]+$/.test(s)) return false; // words and paths without a digit
  // words and numbers joined by `_` or `-` (build_2024_01_15, node-v20-linux-x64): names, not secrets
  const parts = s.split(/[_/-]+/).filter((p) => p !== '');
  if (parts.length >= 2 && parts.every((p) => /^(?:[A-Za-z]+|[0-9]+|[A-Za-z]+[0-9]{1,2}|v?[0-9]+[A-Za-z]{1,2})$/.test(p))) return false;
  // letters and digits interleaved, as in a random token (an identifier has one or two digit runs)
  let switches = 0;
  for (let i = 1; i < s.length; i++) if (isAlnum(s[i]!) && isAlnum(s[i - 1]!) && isDigit(s[i]!) !== isDigit(s[i - 1]!)) switches++;
  const h = entropy(s);
  // or so varied that no name is (a 32-character camelCase name stays near 4 bits a character; a
  // 40-character base64 key is near 5)
  return (switches >= 4 && h >= 3.5) || (s.length >= 28 && h >= 4.4);
}

/**
 * The rules. Every repeated part is bounded (`{1,256}`) or starts where a run starts (a lookbehind), so a long
 * run without a separator (a pasted hex blob) is scanned in linear time, not restarted at each place.
 */
const RULES: readonly Rule[] = [
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)/g },
  {
    kind: 'url-credentials',
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/:@"'<>]{1,256}:[^\s/@"'<>]{1,256}@/gi,
    replace: (_m, scheme) => `${scheme}${mark('url-credentials')}@`,
  },
  {
    kind: 'url-credentials',
    pattern: /([?&](?:access_token|token|api_key|apikey|key|secret|password|sig|signature|auth)=)[^&\s"'<>#]{1,4096}/gi,
    replace: (_m, name) => `${name}${mark('url-credentials')}`,
  },
  { kind: 'api-key', pattern: new RegExp(`(?<![A-Za-z0-9_-])(?:${KEY_PATTERNS.join('|')})`, 'g') },
  { kind: 'api-key', pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,4096}=*/g, replace: (_m, bearer) => `${bearer}${mark('api-key')}` },
  {
    // a secret-sounding name, alone or inside a longer one (DB_PASSWORD, AWS_SECRET_ACCESS_KEY), then = or :
    kind: 'api-key',
    pattern: new RegExp(
      `((?<![A-Za-z0-9])(?:[A-Za-z0-9]{1,32}[_-]){0,6}${SECRET_NAMES}(?:[_-][A-Za-z0-9]{1,32}){0,3}["']?\\s{0,8}[:=]\\s{0,8}["']?)([^\\s"'&,;]{6,4096})`,
      'gi',
    ),
    replace: (_m, head) => `${head}${mark('api-key')}`,
    keep: (m) => !m.includes('[REDACTED:'),
  },
  { kind: 'email', pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z])/g },
  { kind: 'home-path', pattern: /(\/(?:home|Users)\/)(?!\[REDACTED)[^/\s"'`<>:]{1,256}/g, replace: (_m, head) => `${head}${USER}` },
  { kind: 'home-path', pattern: /((?<![A-Za-z])[A-Za-z]:\\{1,2}Users\\{1,2})(?!\[REDACTED)[^\\\s"'`<>:]{1,256}/gi, replace: (_m, head) => `${head}${USER}` },
  { kind: 'home-path', pattern: /((?:^|[-\s"'/])-?(?:home|Users)-)(?!\[REDACTED)[A-Za-z0-9_.]{1,64}(?=[-/"'\s]|$)/gm, replace: (_m, head) => `${head}${USER}` },
  {
    kind: 'high-entropy',
    pattern: /(?<![A-Za-z0-9_=+/-])[A-Za-z0-9_=+/-]{24,}(?![A-Za-z0-9_=+/-])/g,
    replace: (m) => redactRun(m),
  },
];

/**
 * A run of token characters with its secrets replaced: the run itself when it looks secret (base64
 * with `+` and `/` included), else each `/`-separated part that does (a path keeps its segments).
 */
function redactRun(run: string): string {
  if (looksSecret(run) && !(run.includes('/') && run.split('/').some((p) => p.length > 0 && p.length < 4 && /^[a-z]+$/.test(p)))) return mark('high-entropy');
  if (!run.includes('/')) return run;
  return run
    .split('/')
    .map((p) => (looksSecret(p) ? mark('high-entropy') : p))
    .join('/');
}

/** Redactions made, by kind. */
export type RedactionCounts = Record<RedactionKind, number>;

/** Compile a `--redact` pattern; an invalid one throws an `Error` whose message says why. */
export function compilePattern(source: string): RegExp {
  if (source === '') throw new Error('an empty pattern would match everywhere');
  let re: RegExp;
  try {
    re = new RegExp(source, 'g');
  } catch (err) {
    throw new Error(`not a regular expression: ${(err as Error).message}`);
  }
  if (re.test('')) throw new Error('the pattern matches the empty string, so it would match everywhere');
  return re;
}

/**
 * Redacts text and counts what it removed. One redactor serves a whole import: `counts()` is the
 * total over every text it was given.
 */
export class Redactor {
  private readonly tally: RedactionCounts = Object.fromEntries(REDACTION_KINDS.map((k) => [k, 0])) as RedactionCounts;
  private readonly rules: readonly Rule[];

  constructor(custom: readonly RegExp[] = []) {
    this.rules = [
      ...RULES,
      ...custom.map(
        (pattern): Rule => ({ kind: 'custom', pattern: new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`) }),
      ),
    ];
  }

  /** `text` with every secret replaced (see the module comment), each replacement counted. */
  redact(text: string): string {
    let out = text;
    for (const rule of this.rules) {
      rule.pattern.lastIndex = 0;
      out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
        if (rule.keep && !rule.keep(match)) return match;
        const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : ''));
        const replaced = rule.replace ? rule.replace(match, ...groups) : mark(rule.kind);
        // a replacement that changes nothing (a run that holds no secret) is no redaction
        if (replaced !== match) this.tally[rule.kind]++;
        return replaced;
      });
    }
    return out;
  }

  /** Redactions made so far, by kind (every kind present, 0 when none). */
  counts(): RedactionCounts {
    return { ...this.tally };
  }
}

/** The credential rules of {@link Redactor} (user:password in a URL, token-like query parameters, bearer tokens). */
const CREDENTIAL_RULES: readonly Rule[] = [
  RULES[1]!,
  RULES[2]!,
  { kind: 'api-key', pattern: /\b(Bearer\s+)[^\s"'<>,;]{1,4096}/gi, replace: (_m, bearer) => `${bearer}${mark('api-key')}` },
];

/**
 * `text` with the credentials of URLs and headers masked, for a message or a log line that may
 * quote a server's address or an error carrying it: `http://user:pass@host` → `http://[REDACTED:url-credentials]@host`,
 * `?token=…` and the like, `Bearer …`, and every one of `secrets` (the header and environment values a
 * configuration gave, known to be secret whatever they look like; values under 4 characters are left,
 * as they would mask ordinary words).
 */
export function maskCredentials(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const rule of CREDENTIAL_RULES) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, (match: string, ...groups: unknown[]) =>
      rule.replace ? rule.replace(match, ...(groups.filter((g) => typeof g === 'string') as string[])) : mark(rule.kind),
    );
  }
  const known = [...new Set(secrets)].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  for (const value of known) out = out.split(value).join(mark('custom'));
  return out;
}
