// Which hosts a real browser may reach. The rule is judged on the addresses a name resolves to,
// not on its spelling: `127.0.0.1.nip.io` looks public and is loopback. ALLOW_PRIVATE_MERCHANT_HOSTS
// (dev and test only) names the exact host:port pairs of local shops that are let through.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './forbidden-address.ts';

export type Resolve = (host: string) => Promise<string[]>;

export type GuardVerdict = { ok: true; address: string } | { ok: false; reason: string };

/** Public shops live on the web's ports; anything else is an internal service until allowlisted. */
const WEB_PORTS = new Set([80, 443]);

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

const bare = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

export function createAddressGuard(
  options: { allowPrivateHosts?: readonly string[]; resolve?: Resolve } = {},
) {
  const allowed = new Set((options.allowPrivateHosts ?? []).map((e) => e.trim().toLowerCase()));
  const resolve = options.resolve ?? systemResolve;
  return {
    /** The address to connect to, or why not. Every resolved address must be public. */
    async check(rawHost: string, port: number): Promise<GuardVerdict> {
      const host = bare(rawHost);
      const key = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
      let addresses: string[];
      try {
        addresses = isIP(host) ? [host] : await resolve(host);
      } catch {
        return { ok: false, reason: `${host} does not resolve` };
      }
      if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
      if (allowed.has(key)) return { ok: true, address: addresses[0]! };
      if (addresses.some((a) => isForbiddenAddress(a)))
        return { ok: false, reason: `${host} resolves to a non-public address` };
      if (!WEB_PORTS.has(port)) return { ok: false, reason: `port ${port} is not a web port` };
      return { ok: true, address: addresses[0]! };
    },
  };
}

export type AddressGuard = ReturnType<typeof createAddressGuard>;
