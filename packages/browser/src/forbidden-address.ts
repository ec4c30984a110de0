import { isIPv4, isIPv6 } from 'node:net';

/**
 * Addresses a user-supplied image URL must never reach (SSRF): everything that is not the
 * public unicast internet. Checked on the address the hostname resolved to, right before the
 * socket is opened. IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4)
 * are judged by that IPv4 address; Teredo is refused outright.
 */
const V4_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/**
 * Inside global unicast (2000::/3), the blocks that are not the public internet. Everything
 * outside 2000::/3 is refused outright (after the embedded-IPv4 forms above): that covers
 * loopback, unspecified, unique-local, link-local, multicast, discard, but also the ones a
 * deny-list forgets, such as the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215, which
 * translates to any IPv4 address, private ones included), the IPv4-translated ::ffff:0:0/96,
 * and SRv6 SIDs 5f00::/16.
 */
const V6_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments: Teredo (tunnels to any IPv4), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];
const V6_GLOBAL_UNICAST = ['2000::', 3] as const;

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function v4InRange(ip: number, base: string, bits: number): boolean {
  const size = 2 ** (32 - bits);
  const start = v4ToInt(base);
  return ip >= start && ip < start + size;
}

/** Eight 16-bit groups of an IPv6 address (handles `::` and a trailing dotted IPv4). */
export function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0]!;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  return [...headParts, ...Array<string>(missing).fill('0'), ...tailParts].map((g) => Number.parseInt(g, 16));
}

function v6InRange(groups: number[], base: string, bits: number): boolean {
  const ref = ipv6Groups(base);
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((groups[i]! & mask) !== (ref[i]! & mask)) return false;
  }
  return true;
}

const groupsToV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 address stands for, when it embeds one. */
function embeddedV4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return groupsToV4(g[6]!, g[7]!); // ::ffff:a.b.c.d mapped
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return groupsToV4(g[6]!, g[7]!); // ::a.b.c.d compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return groupsToV4(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return groupsToV4(g[1]!, g[2]!); // 6to4
  return null;
}

export function isForbiddenAddress(ip: string): boolean {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(address)) {
    const n = v4ToInt(address);
    return V4_BLOCKED.some(([base, bits]) => v4InRange(n, base, bits));
  }
  if (isIPv6(address)) {
    const groups = ipv6Groups(address);
    if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return true;
    const v4 = embeddedV4(groups);
    if (v4 !== null) return isForbiddenAddress(v4);
    if (!v6InRange(groups, ...V6_GLOBAL_UNICAST)) return true;
    return V6_BLOCKED.some(([base, bits]) => v6InRange(groups, base, bits));
  }
  // Not an IP address at all: never connect to it.
  return true;
}

export function isLoopbackAddress(ip: string): boolean {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(address)) return v4InRange(v4ToInt(address), '127.0.0.0', 8);
  if (!isIPv6(address)) return false;
  const groups = ipv6Groups(address);
  const v4 = embeddedV4(groups);
  if (v4 !== null) return isLoopbackAddress(v4);
  return v6InRange(groups, '::1', 128);
}
