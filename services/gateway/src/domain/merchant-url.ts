import { isIP } from 'node:net';
import { policyViolation } from '@hs/service-kit';

// Names that resolve to the machine itself or to private networks, never a merchant.
const RESERVED_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'test',
  'example',
  'invalid',
  'onion',
];
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A merchant URL must be http(s) on a real public domain: no IP literal, no localhost or
 * private-use name, no credentials. Returns the lower-case merchant domain; anything else is
 * 400 POLICY_VIOLATION (the spec's commerce rule for offer URLs).
 */
export function merchantDomainOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw policyViolation('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw policyViolation('url must use http or https');
  if (url.username || url.password) throw policyViolation('url must not contain credentials');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || isIP(host)) throw policyViolation('url must name a domain, not an IP address');
  const labels = host.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !TLD.test(tld) || /^\d+$/.test(tld))
    throw policyViolation('url must have a valid public domain');
  if (RESERVED_SUFFIXES.includes(tld)) throw policyViolation(`url domain ${host} is not a public domain`);
  return host;
}
