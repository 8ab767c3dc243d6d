// Issue 12.4 behind a load balancer: failed authentications are limited per client, not per
// balancer. Only the addresses in BRABO_TRUSTED_PROXIES may name the client in X-Forwarded-For;
// anyone else's header is ignored, so a client cannot pick its own bucket.
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { clientSource, parseTrustedProxies, TrustedProxiesError } from '../../src/auth/client-source.ts';
import { DEFAULT_AUTH_CONFIG, loadAuthConfig, ConfigError } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { ADMIN_TOKEN, testAppConfig } from '../http/helpers.ts';

describe('clientSource', () => {
  const lb = ['10.0.0.2', '10.0.0.3'];
  it.each([
    ['no proxies trusted: the header is ignored', '198.51.100.7', '203.0.113.9', [], '198.51.100.7'],
    ['an untrusted peer cannot name itself another client', '198.51.100.7', '203.0.113.9', lb, '198.51.100.7'],
    ['a trusted balancer names the client', '10.0.0.2', '203.0.113.9', lb, '203.0.113.9'],
    [
      'a client-supplied hop left of the balancer is not believed',
      '10.0.0.2',
      '1.1.1.1, 203.0.113.9',
      lb,
      '203.0.113.9',
    ],
    ['two trusted balancers in a row are skipped', '10.0.0.3', '203.0.113.9, 10.0.0.2', lb, '203.0.113.9'],
    ['a trusted balancer without the header: the balancer itself', '10.0.0.2', null, lb, '10.0.0.2'],
    ['an empty header: the balancer itself', '10.0.0.2', '', lb, '10.0.0.2'],
    ['a malformed hop: the balancer itself, never the garbage', '10.0.0.2', 'evil.example', lb, '10.0.0.2'],
    ['only trusted hops: the balancer itself', '10.0.0.2', '10.0.0.3', lb, '10.0.0.2'],
    ['IPv4-mapped IPv6 peers match their IPv4 entry', '::ffff:10.0.0.2', '203.0.113.9', lb, '203.0.113.9'],
    ['IPv6 clients', '10.0.0.2', '2001:db8::1', lb, '2001:db8::1'],
    ['no peer address at all', null, '203.0.113.9', lb, 'unknown'],
  ] as Array<[string, string | null, string | null, string[], string]>)('%s', (_name, remote, xff, trusted, want) => {
    expect(clientSource(remote, xff, trusted)).toBe(want);
  });

  it('property: from a peer that is not trusted, the source is the peer whatever the header says', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.option(fc.string(), { nil: null }), fc.array(fc.ipV4()), (peer, header, trusted) => {
        fc.pre(!trusted.includes(peer));
        expect(clientSource(peer, header, trusted)).toBe(peer);
      }),
    );
  });

  it('BRABO_TRUSTED_PROXIES takes IP addresses only; anything else is a named start-up error', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' 10.0.0.2 , ::1 ')).toEqual(['10.0.0.2', '::1']);
    for (const bad of ['10.0.0.0/8', 'lb.internal', '10.0.0.2,', '*', '10.0.0.256'])
      expect(() => parseTrustedProxies(bad)).toThrow(TrustedProxiesError);
    expect(() => loadAuthConfig({ BRABO_TRUSTED_PROXIES: 'lb.internal' })).toThrow(ConfigError);
    expect(loadAuthConfig({ BRABO_TRUSTED_PROXIES: '127.0.0.1' }).trustedProxies).toEqual(['127.0.0.1']);
  });
});

describe('the HTTP limit behind a trusted balancer', () => {
  async function app(trustedProxies: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'brabo-proxies-'));
    const created = await createApp(
      testAppConfig(dir, { auth: { ...DEFAULT_AUTH_CONFIG, maxAuthFailures: 3, trustedProxies }, logLevel: 'silent' }),
      { logger: createLogger('silent') },
    );
    const me = async (token: string, forwardedFor: string) =>
      (
        await created.http.inject({
          method: 'GET',
          url: '/api/me',
          remoteAddress: '127.0.0.1',
          headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': forwardedFor },
        })
      ).statusCode;
    return {
      me,
      close: async () => {
        await created.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it("one client's bad tokens lock out that client only; the others behind the same balancer still get in", async () => {
    const s = await app(['127.0.0.1']);
    try {
      for (let i = 0; i < 3; i += 1) expect(await s.me(`wrong-token-${i}-xxxxxxxxxxxx`, '203.0.113.9')).toBe(401);
      expect(await s.me('wrong-token-again-xxxxxxxxxxxx', '203.0.113.9')).toBe(429);
      expect(await s.me(ADMIN_TOKEN, '203.0.113.9')).toBe(429);
      expect(await s.me(ADMIN_TOKEN, '198.51.100.7')).toBe(200);
      // A locked-out client cannot escape by claiming another address: the balancer appends the real one.
      expect(await s.me(ADMIN_TOKEN, '198.51.100.7, 203.0.113.9')).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('with no trusted balancer (the default) the header is ignored: every request from the peer shares its limit', async () => {
    const s = await app([]);
    try {
      for (let i = 0; i < 3; i += 1) expect(await s.me(`wrong-token-${i}-xxxxxxxxxxxx`, `203.0.113.${i}`)).toBe(401);
      expect(await s.me(ADMIN_TOKEN, '198.51.100.7')).toBe(429);
    } finally {
      await s.close();
    }
  });
});
