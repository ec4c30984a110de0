import { isIPv6 } from 'node:net';

/**
 * The key a per-client-address limit counts under. An IPv4 address is one client; an IPv6 client
 * is handed a whole /64 (RFC 6177: a home or phone gets a /64, and picks addresses in it at will,
 * privacy addresses included), so one client can make up 2^64 addresses and keying on the full
 * address gave it that many budgets. IPv6 addresses are counted by their first 64 bits; an
 * IPv4-mapped address (`::ffff:192.0.2.1`, a dual-stack socket) is its IPv4 address.
 */
export function clientAddressKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  const [head = '', tail = ''] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) sits in the low 64 bits, which are dropped anyway.
  const groups = ip.includes('::')
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
