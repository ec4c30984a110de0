import { z } from 'zod';
import { Label, queryInteger, ShownText, Timestamp } from './common.ts';
import { amountsFitCurrency, isKnownCurrency } from './money.ts';
import { Season, WardrobeCategory } from './wardrobe.ts';

export const OfferStatus = z.enum(['ACTIVE', 'INACTIVE', 'ARCHIVED']);
export type OfferStatus = z.infer<typeof OfferStatus>;

const Currency = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code')
  .transform((v) => v.toUpperCase());
/** An offer's own currency: one a family can pay in (a purchase request refuses the others). */
const OfferCurrency = Currency.refine(isKnownCurrency, 'is not a known ISO 4217 currency code');

export const Offer = z.object({
  offerId: z.string().describe('off_<id>'),
  householdId: z.string(),
  title: z.string(),
  brand: z.string(),
  url: z.string(),
  merchantDomain: z.string().describe('host name of url, lowercased'),
  price: z.number().describe('major units'),
  currency: z.string(),
  category: WardrobeCategory,
  colors: z.array(z.string()),
  season: z.array(Season).describe('empty: any season'),
  sizes: z.array(z.string()),
  imageUrl: z.string().nullable(),
  status: OfferStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Offer = z.infer<typeof Offer>;

export const CreateOfferRequest = z
  .object({
    title: ShownText(200, 1),
    brand: ShownText(80).default(''),
    url: z.string().trim().min(1).max(2048),
    price: z
      .number()
      .nonnegative()
      .max(1_000_000)
      .describe(
        'major units, with no more decimals than the currency has (EUR 2, JPY 0, BHD 3); finer is 422',
      ),
    currency: OfferCurrency,
    category: WardrobeCategory.default('OTHER'),
    colors: z.array(Label).max(20).default([]),
    season: z.array(Season).max(4).default([]),
    sizes: z.array(z.string().trim().min(1).max(20)).max(40).default([]),
    imageUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .default(null),
    status: OfferStatus.default('ACTIVE'),
  })
  .superRefine(amountsFitCurrency('price'));
export type CreateOfferRequest = z.input<typeof CreateOfferRequest>;

/** Atomic: all offers are created or none. */
export const MAX_BULK_OFFERS = 500;
export const BulkCreateOffersRequest = z.object({
  offers: z.array(CreateOfferRequest).min(1).max(MAX_BULK_OFFERS),
});
export const BulkCreateOffersResponse = z.object({ items: z.array(Offer) });

export const UpdateOfferStatusRequest = z.object({ status: OfferStatus });
export const OfferParams = z.object({ id: z.string().min(1).max(128), offerId: z.string().min(1).max(128) });

const colorsList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((c) => c.trim().toLowerCase()).filter(Boolean))
  .pipe(z.array(z.string().min(1).max(40)).min(1).max(10));

const wordList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((c) => c.trim().toLowerCase()).filter(Boolean))
  .pipe(z.array(z.string().min(1).max(40)).min(1).max(10));

/**
 * A price bound: a JSON number, or (query strings) a plain decimal such as `25` or `19.99`.
 * `z.coerce` would read `""`, `null`, `true` and `[]` as 0 or 1 and `0x10` as 16, silently
 * turning a malformed bound into "only free offers"; those are refused (422). A JSON `null`
 * means no bound, as a model calling the search tool means by it.
 */
const PriceBound = z
  .preprocess(
    (v) => (typeof v === 'string' && /^\d{1,12}(\.\d{1,6})?$/.test(v.trim()) ? Number(v.trim()) : v),
    z.number().nonnegative().nullish(),
  )
  .transform((v) => v ?? undefined)
  .optional();

/**
 * Search constraints (internal search and `GET /offers`). `query` matches words of title and
 * brand (all words must occur, singular or plural); `colors` matches offers with any of the colours. Results are
 * ordered by price ascending, then offerId.
 */
export const OfferSearchConstraints = z.object({
  query: z.string().trim().min(1).max(200).optional(),
  maxPrice: PriceBound,
  minPrice: PriceBound,
  currency: Currency.optional(),
  season: Season.optional(),
  category: WardrobeCategory.optional(),
  colors: colorsList
    .optional()
    .describe('any of these colours; a comma-separated string in query parameters'),
  size: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .optional()
    .describe('matched across spellings: "42" finds "EU 42", "M" finds "Medium", "KIDS 8" finds "8Y"'),
  excludeColors: colorsList.optional().describe('offers with any of these colours are left out'),
  excludeBrands: wordList.optional().describe('offers of these brands are left out'),
  excludeWords: wordList
    .optional()
    .describe('offers whose title has any of these words (singular or plural) are left out, e.g. "heels"'),
  limit: queryInteger(1, 100).withDefault(20),
  cursor: z.string().min(1).max(2048).optional(),
});
export type OfferSearchConstraints = z.infer<typeof OfferSearchConstraints>;

/** `GET /offers` (clients): the constraints plus a status (default ACTIVE). */
export const ListOffersQuery = OfferSearchConstraints.extend({ status: OfferStatus.default('ACTIVE') });
export type ListOffersQuery = z.infer<typeof ListOffersQuery>;

/** Internal `POST /api/v1/search` (orchestrator's search_commerce, wardrobe curation): active offers only. */
export const SearchOffersRequest = OfferSearchConstraints.extend({ householdId: z.string().min(1).max(128) });
export type SearchOffersRequest = z.input<typeof SearchOffersRequest>;

export const OfferPage = z.object({ items: z.array(Offer), nextCursor: z.string().nullable() });
export type OfferPage = z.infer<typeof OfferPage>;

// ---- merchant URL policy (offers here, purchase requests in the gateway) ----

/** Special-use and internal names that never denote a public shop (RFC 6761, RFC 6762, common private suffixes). */
const NON_PUBLIC_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'test',
  'example',
  'invalid',
  'arpa',
  'onion',
];
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export type MerchantUrlCheck = { ok: true; url: string; domain: string } | { ok: false; reason: string };

/** True when `domain` is one of `allowed` or a subdomain of one. */
export function isDomainAllowed(domain: string, allowed: readonly string[]): boolean {
  const d = domain.toLowerCase();
  return allowed.some((a) => {
    const base = a
      .trim()
      .toLowerCase()
      .replace(/^\*?\./, '');
    return base.length > 0 && (d === base || d.endsWith(`.${base}`));
  });
}

/**
 * The one rule for merchant URLs (offers, purchase requests): http(s), no credentials, a
 * public domain name (no IP literal, no localhost or other special-use name), and, when an
 * allowlist is given, a domain on it or under it. Pure: no DNS lookups.
 */
export function checkMerchantUrl(
  raw: string,
  policy: { allowedDomains?: readonly string[] | null; allowPrivateHosts?: readonly string[] } = {},
): MerchantUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'URL is not valid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'URL must use http or https' };
  if (url.username || url.password) return { ok: false, reason: 'URL must not contain credentials' };
  // WHATWG parsing already turned every IPv4 spelling (0x7f.1, 2130706433) into dotted decimal.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  // ALLOW_PRIVATE_MERCHANT_HOSTS (dev and test): an exact host:port, such as a local demo shop.
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (policy.allowPrivateHosts?.includes(`${host}:${port}`))
    return { ok: true, url: url.toString(), domain: host };
  if (host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host))
    return { ok: false, reason: 'URL must use a domain name, not an IP address' };
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !TLD.test(labels.at(-1)!))
    return { ok: false, reason: 'URL must have a valid public domain name' };
  if (NON_PUBLIC_SUFFIXES.includes(labels.at(-1)!) || host === 'localhost')
    return { ok: false, reason: 'URL must have a valid public domain name' };
  // The real browser reaches shops on 80 and 443 only: a request on another port could be
  // approved but never prepared.
  if (url.port)
    return { ok: false, reason: 'URL must use the default port of its scheme (443 for https, 80 for http)' };
  if (policy.allowedDomains && !isDomainAllowed(host, policy.allowedDomains))
    return { ok: false, reason: `Domain ${host} is not on the allowlist` };
  return { ok: true, url: url.toString(), domain: host };
}
