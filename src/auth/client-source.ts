// The source a failed authentication is counted against (issue 12.4). Behind a load balancer every
// client arrives from the balancer's address, so one bad client would lock every caller out; the
// addresses in BRABO_TRUSTED_PROXIES are trusted to append the real client to X-Forwarded-For, and
// the source is the right-most address there that is not one of them (what they saw, not what the
// client claimed). HTTP gets the same rule from fastify's `trustProxy` with the same list.
import { isIP } from 'node:net';

export class TrustedProxiesError extends Error {
  override readonly name = 'TrustedProxiesError';
}

/** Parses BRABO_TRUSTED_PROXIES: comma-separated IP addresses (no ranges, no names). */
export function parseTrustedProxies(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const addresses = value.split(',').map((a) => a.trim());
  for (const address of addresses)
    if (isIP(address) === 0)
      throw new TrustedProxiesError(
        `BRABO_TRUSTED_PROXIES: ${JSON.stringify(address)} is not an IP address; list the load balancers' addresses, comma-separated (e.g. 10.0.0.2,10.0.0.3)`,
      );
  return addresses;
}

const bare = (address: string): string => (address.startsWith('::ffff:') ? address.slice(7) : address);

export function clientSource(
  remoteAddress: string | null,
  forwardedFor: string | null,
  trustedProxies: readonly string[],
): string {
  const remote = remoteAddress === null ? 'unknown' : bare(remoteAddress);
  const trusted = new Set(trustedProxies.map(bare));
  if (!trusted.has(remote) || !forwardedFor) return remote;
  const hops = forwardedFor
    .split(',')
    .map((hop) => bare(hop.trim()))
    .filter((hop) => hop.length > 0);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return remote; // a malformed header is not trusted
    if (!trusted.has(hop)) return hop;
  }
  return remote;
}
