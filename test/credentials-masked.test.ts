/**
 * Credentials in a server's URL, its headers or its environment never reach a message (issue 34,
 * point 7): `snapshot` of a server whose URL carries a user, a password and a token, and of a
 * server that prints its secret environment to stderr before it fails.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskCredentials } from '../src/util/redact.ts';
import { runCli, tempDir } from './helpers.ts';

const tmp = tempDir('credentials-masked');

describe('credentials in URLs and headers are masked', () => {
  it('maskCredentials: user:password, token-like query parameters, bearer tokens and known values', () => {
    expect(maskCredentials('GET http://alice:s3cret@host:8080/mcp?token=abc&x=1&api_key=k9 failed')).toBe(
      'GET http://[REDACTED:url-credentials]@host:8080/mcp?token=[REDACTED:url-credentials]&x=1&api_key=[REDACTED:url-credentials] failed',
    );
    expect(maskCredentials('Authorization: Bearer tok-XYZ, then')).toBe('Authorization: Bearer [REDACTED:api-key], then');
    // values the configuration declares secret, whatever they look like; short ones are left
    expect(maskCredentials('header X-Team: blue-team-7, code 42', ['blue-team-7', '42'])).toBe('header X-Team: [REDACTED:custom], code 42');
    // nothing to mask: unchanged
    expect(maskCredentials('https://example.com/docs?page=2')).toBe('https://example.com/docs?page=2');
  });

  it('snapshot of a server whose URL carries credentials: no part of them on stderr or stdout', async () => {
    const config = join(tmp, 'remote.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { remote: { url: 'http://alice:s3cretPW@127.0.0.1:9/mcp?token=abc123tok&x=1', headers: { 'X-Api-Key': 'hdr-value-77' } } },
      }),
    );
    const r = await runCli('snapshot', '--config', config, '--out', join(tmp, 'remote-bundle.json'), '--timeout', '20');
    expect(r.code).toBe(1);
    const all = r.out + r.err;
    expect(all).toContain('remote');
    for (const secret of ['alice', 's3cretPW', 'abc123tok', 'hdr-value-77']) expect(all).not.toContain(secret);
  });

  it("snapshot of a server that prints its secret environment before failing: the values are masked in the failure's stderr line", async () => {
    const config = join(tmp, 'stdio.json');
    const script = "process.stderr.write('token is ' + process.env.SERVICE_TOKEN + ' level ' + process.env.LOG_LEVEL + '\\n'); process.exit(3)";
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { leaky: { command: process.execPath, args: ['-e', script], env: { SERVICE_TOKEN: 'plainword', LOG_LEVEL: 'info' } } } }),
    );
    const r = await runCli('snapshot', '--config', config, '--out', join(tmp, 'stdio-bundle.json'), '--timeout', '20');
    expect(r.code).toBe(1);
    expect(r.err).toContain('token is [REDACTED:custom] level info');
    expect(r.err).not.toContain('plainword');
  });
});
