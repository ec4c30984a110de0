import { isIP } from 'node:net';
import { privateMerchantHosts } from '@hs/browser/private-merchant-hosts';
import {
  type BaseConfig,
  configProblem,
  envBool,
  envList,
  envNumber,
  httpUrl,
  isProductionLike,
  loadConfig,
} from '@hs/service-kit';
import { z } from 'zod';

/** The development placeholder for AUTH_JWT_SECRET; refused in staging and production. */
export const DEV_JWT_SECRET = 'dev-jwt-secret-placeholder-not-for-production';

/** Gateway settings on top of the shared ones (README, configuration table). */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'gateway',
    (appEnv) => ({
      AUTH_MODE: z.enum(['dev', 'oidc']).default(isProductionLike(appEnv) ? 'oidc' : 'dev'),
      AUTH_JWT_SECRET: z.string().min(1).default(DEV_JWT_SECRET),
      AUTH_TOKEN_TTL_SECONDS: envNumber(z.number().int().min(60).max(86_400)).default(3600),
      AUTH_ISSUER: z.string().min(1).default('household-styling-gateway'),
      AUTH_AUDIENCE: z.string().min(1).default('household-styling-api'),
      OIDC_ISSUER: httpUrl().optional(),
      OIDC_AUDIENCE: z.string().min(1).optional(),
      OIDC_JWKS_URL: httpUrl().optional(),
      OIDC_EMAILS_ALWAYS_VERIFIED: envBool(false),
      BUYFLOW_INTERNAL_TOKEN: z.string().min(1).default('dev-buyflow-internal-token'),
      REQUIRE_BUYFLOW_INTERNAL_TOKEN: envBool(true),
      CHECKOUT_TOKEN_TTL_SECONDS: envNumber(z.number().int().min(30).max(86_400)).default(1800),
      AUDIT_RETRY_MAX_SECONDS: envNumber(z.number().positive()).default(60),
      RATE_LIMIT_LOGIN_PER_MINUTE: envNumber(z.number().int().min(0).max(1_000_000)).default(30),
      RATE_LIMIT_CHAT_PER_MINUTE: envNumber(z.number().int().min(0).max(1_000_000)).default(30),
      RATE_LIMIT_CONFIRM_PER_MINUTE: envNumber(z.number().int().min(0).max(1_000_000)).default(10),
      RATE_LIMIT_EVENTS_PER_MINUTE: envNumber(z.number().int().min(0).max(1_000_000)).default(120),
      RATE_LIMIT_HOUSEHOLDS_PER_DAY: envNumber(z.number().int().min(0).max(1_000_000)).default(50),
      MAX_STREAMS_PER_USER: envNumber(z.number().int().min(0).max(100_000)).default(20),
      MAX_CONNECTIONS_PER_CLIENT: envNumber(z.number().int().min(0).max(1_000_000)).default(1024),
      TRUST_PROXY: z
        .string()
        .superRefine((value, ctx) => {
          const problem = trustProxyProblem(value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .optional(),
      // Keep it above 15 s: the peers send a keep-alive every 15 s at most (tests use less).
      UPSTREAM_STREAM_SILENCE_SECONDS: envNumber(z.number().int().min(1).max(3600)).default(45),
      STREAM_TOKEN_TTL_SECONDS: envNumber(z.number().int().min(30).max(3600)).default(300),
      VOICE_SESSION_TTL_SECONDS: envNumber(z.number().int().min(30).max(3600)).default(300),
      VOICE_RATE_LIMIT_PER_MINUTE: envNumber(z.number().int().min(1).max(100_000)).default(10),
      ALLOW_PRIVATE_MERCHANT_HOSTS: envList(),
    }),
    env,
  );
  const raw = base.raw;
  if (isProductionLike(base.appEnv)) {
    const why = `is not allowed when APP_ENV=${base.appEnv}`;
    if (raw.AUTH_MODE === 'dev') configProblem(`AUTH_MODE=dev ${why}`);
    if (raw.AUTH_JWT_SECRET === DEV_JWT_SECRET)
      configProblem(`AUTH_JWT_SECRET is the development placeholder, which ${why}`);
    if (Buffer.byteLength(raw.AUTH_JWT_SECRET) < 32)
      configProblem('AUTH_JWT_SECRET must be at least 32 bytes in staging and production');
    if (!raw.REQUIRE_BUYFLOW_INTERNAL_TOKEN) configProblem(`REQUIRE_BUYFLOW_INTERNAL_TOKEN=false ${why}`);
    if (raw.BUYFLOW_INTERNAL_TOKEN.startsWith('dev-') || Buffer.byteLength(raw.BUYFLOW_INTERNAL_TOKEN) < 32)
      configProblem('BUYFLOW_INTERNAL_TOKEN must be a 32+ byte secret in staging and production');
  }
  if (raw.AUTH_MODE === 'oidc' && (!raw.OIDC_ISSUER || !raw.OIDC_AUDIENCE))
    configProblem('OIDC_ISSUER and OIDC_AUDIENCE are required when AUTH_MODE=oidc');
  return {
    /** Local demo shops (dev/test): accepted by the merchant-URL rule and the cart check over http. */
    allowPrivateMerchantHosts: privateMerchantHosts(raw.ALLOW_PRIVATE_MERCHANT_HOSTS, base.appEnv),
    ...base,
    auth: {
      mode: raw.AUTH_MODE,
      jwtSecret: raw.AUTH_JWT_SECRET,
      ttlSeconds: raw.AUTH_TOKEN_TTL_SECONDS,
      issuer: raw.AUTH_ISSUER,
      audience: raw.AUTH_AUDIENCE,
      oidc: {
        issuer: raw.OIDC_ISSUER,
        audience: raw.OIDC_AUDIENCE,
        jwksUrl: raw.OIDC_JWKS_URL,
        emailsAlwaysVerified: raw.OIDC_EMAILS_ALWAYS_VERIFIED,
      },
    },
    buyflow: {
      internalToken: raw.BUYFLOW_INTERNAL_TOKEN,
      requireInternalToken: raw.REQUIRE_BUYFLOW_INTERNAL_TOKEN,
      checkoutTokenTtlSeconds: raw.CHECKOUT_TOKEN_TTL_SECONDS,
    },
    auditRetryMaxMs: raw.AUDIT_RETRY_MAX_SECONDS * 1000,
    streamTokenTtlSeconds: raw.STREAM_TOKEN_TTL_SECONDS,
    /** A forwarded event stream silent this long (keep-alives included) is ended (see forward.ts). */
    streamSilenceMs: raw.UPSTREAM_STREAM_SILENCE_SECONDS * 1000,
    rateLimits: {
      loginPerMinute: raw.RATE_LIMIT_LOGIN_PER_MINUTE,
      chatPerMinute: raw.RATE_LIMIT_CHAT_PER_MINUTE,
      confirmPerMinute: raw.RATE_LIMIT_CONFIRM_PER_MINUTE,
      /** Client events (votes, takeover and purchase signals) per user. */
      eventsPerMinute: raw.RATE_LIMIT_EVENTS_PER_MINUTE,
      /** Households one user may create in 24 hours. */
      householdsPerDay: raw.RATE_LIMIT_HOUSEHOLDS_PER_DAY,
      /** Mission streams open at once per user on this instance (0: no limit). */
      streamsPerUser: raw.MAX_STREAMS_PER_USER,
    },
    /** Whose X-Forwarded-For to believe: nobody (unset), a number of hops, or these addresses. */
    trustProxy: trustProxyOf(raw.TRUST_PROXY),
    /** Connections one client address may hold open; not applied behind a proxy (TRUST_PROXY set). */
    maxConnectionsPerClient: trustProxyOf(raw.TRUST_PROXY) ? 0 : raw.MAX_CONNECTIONS_PER_CLIENT,
    voice: {
      sessionTtlSeconds: raw.VOICE_SESSION_TTL_SECONDS,
      rateLimitPerMinute: raw.VOICE_RATE_LIMIT_PER_MINUTE,
      // The voice socket lives on the same public host: ws:// or wss:// of PUBLIC_BASE_URL.
      publicWsBase: base.publicBaseUrl.replace(/^http/, 'ws'),
    },
  };
}

/** The names @fastify/proxy-addr expands to address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Why @fastify/proxy-addr would refuse a TRUST_PROXY entry (it throws at boot, deep in Fastify,
 * without naming the setting), or null: an IPv4 or IPv6 address, optionally with a prefix length
 * (1 to 32, or to 128; proxy-addr refuses 0) or an IPv4 netmask, or one of its range names.
 */
function trustProxyEntryProblem(entry: string): string | null {
  if (PROXY_RANGE_NAMES.includes(entry)) return null;
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return 'is not an address, a CIDR or a range name';
  if (slash === -1) return null;
  const range = entry.slice(slash + 1);
  const max = version === 4 ? 32 : 128;
  if (/^\d+$/.test(range))
    return Number(range) >= 1 && Number(range) <= max ? null : `has a prefix length outside 1-${max}`;
  if (version === 4 && isIPv4Netmask(range)) return null;
  return `has a prefix length outside 1-${max}`;
}

/** `255.255.255.0`: ones then zeros, not all zeros (proxy-addr refuses a zero-length range). */
function isIPv4Netmask(text: string): boolean {
  if (isIP(text) !== 4 || !/^\d+(\.\d+){3}$/.test(text)) return false;
  const bits = text
    .split('.')
    .map((part) => Number(part).toString(2).padStart(8, '0'))
    .join('');
  return /^1+0*$/.test(bits);
}

/** TRUST_PROXY: a hop count (0-99), or comma-separated entries trustProxyEntryProblem accepts. */
function trustProxyProblem(value: string): string | null {
  const form =
    'must be a hop count (0-99) or comma-separated proxy addresses, CIDRs (10.0.0.0/8) or range names (loopback, linklocal, uniquelocal)';
  if (/^\d{1,2}$/.test(value)) return null;
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (entry === '') return `${form}; it has an empty entry`;
    const problem = trustProxyEntryProblem(entry);
    if (problem) return `${form}; ${JSON.stringify(entry)} ${problem}`;
  }
  return null;
}

/** Trusts the first `hops` proxies in front of us: the socket's address is hop 0. */
export type TrustHops = (address: string, hop: number) => boolean;

function trustProxyOf(value: string | undefined): false | TrustHops | string {
  if (!value) return false;
  if (!/^\d+$/.test(value)) return value.replace(/\s+/g, '');
  const hops = Number(value);
  // Fastify 5 takes a number for "trust nobody" (hop counts were switched off there): with
  // TRUST_PROXY=1 behind the ingress every client had the ingress's address, one rate-limit
  // bucket for the whole country. proxy-addr still honours a function of the hop.
  return hops === 0 ? false : (_address, hop) => hop < hops;
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig> & BaseConfig;
