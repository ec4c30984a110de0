import {
  BulkCreateOffersRequest,
  BulkCreateOffersResponse,
  CreateOfferRequest,
  HouseholdParams,
  ListOffersQuery,
  Offer,
  OfferPage,
  OfferParams,
  UpdateOfferStatusRequest,
} from '@hs/contracts';
import {
  checkBeforeBody,
  conflict,
  errorResponses,
  idempotencyKeyOf,
  keyedId,
  locationOf,
  NOT_CHILD,
  newId,
  notFound,
  nowIso,
  policyViolation,
  type ServiceApp,
} from '@hs/service-kit';
import { StoreConflictError } from '@hs/store';
import { z } from 'zod';
import { draftOffer, type StoredOffer } from '../domain/offers.ts';
import type { CommerceContext } from './context.ts';
import { runSearch } from './run-search.ts';

const errors = errorResponses(400, 403, 404, 422);
const createErrors = errorResponses(400, 403, 404, 409, 422);
const tags = ['offers'];
const H = '/api/v1/households/:id';
/** The roles table: a CHILD reads offers but does not create, change or delete them. */
const writers = {
  config: { roles: NOT_CHILD, rolesMessage: 'A CHILD may not create, change or delete offers' },
};
const WRITERS_ONLY = ' ADULT and PARENT_GUARDIAN only (a CHILD gets 403).';
const KEYED_CREATE =
  " With an Idempotency-Key (the gateway passes the client's on) the same caller, key and body always give the same offers: a retry whose first attempt was saved here but never answered (a restart, a 504) gets them back (201) instead of a second set.";

/** 409 when the household holds COMMERCE_MAX_OFFERS_PER_HOUSEHOLD offers, or a batch would pass it. */
const atOfferCap = (max: number) =>
  conflict(
    `A household holds at most ${max} offers (COMMERCE_MAX_OFFERS_PER_HOUSEHOLD); delete some first (a batch is created whole or not at all)`,
  );

export function registerOfferRoutes(app: ServiceApp, ctx: CommerceContext): void {
  /**
   * The offer the path names exists (404), checked before the body is read (decisions,
   * Conventions: role 403, then existence 404, then the body). The role is the kit's (`writers`).
   */
  const offerExists = checkBeforeBody<{ id: string; offerId: string }>({
    find: (p) => ctx.offers.get(p.id, p.offerId),
    missing: 'Offer not found',
  });

  const draft = (
    input: z.output<typeof CreateOfferRequest>,
    householdId: string,
    where: string,
    offerId = newId('off'),
  ) => {
    const result = draftOffer(input, { offerId, householdId, now: nowIso() }, ctx.allowedDomains);
    if (!result.ok) throw policyViolation(`${where}${result.reason}`);
    return result.offer;
  };

  /**
   * Under an Idempotency-Key (the gateway passes the client's on) the ids of the offers a create
   * makes are the key's, so a retry whose first attempt was saved here but never answered (a
   * restart, a 504) finds those offers instead of making them again; null without a key.
   */
  const keyedOfferIds = (
    request: { headers: Record<string, string | string[] | undefined>; caller?: { userId: string } | null },
    householdId: string,
    kind: string,
    body: unknown,
    n: number,
  ) => {
    const key = idempotencyKeyOf(request.headers);
    if (!key) return null;
    const first = keyedId('off', key, [householdId, request.caller?.userId ?? null, kind], body);
    return kind === 'offer' ? [first] : Array.from({ length: n }, (_, i) => `${first}${i}`);
  };

  /** The offers an earlier attempt under the same key saved, in order; null when it saved none. */
  const savedBefore = async (householdId: string, ids: readonly string[]): Promise<StoredOffer[] | null> => {
    const found = await ctx.offers.getMany(householdId, ids);
    const saved = ids.map((id) => found.get(id)).filter((o): o is StoredOffer => o !== undefined);
    return saved.length > 0 ? saved : null;
  };

  /** Saves offers all or none; a keyed create racing its own retry answers with what the other saved. */
  const createOffers = async (
    householdId: string,
    offers: StoredOffer[],
    keyed: boolean,
    save: () => Promise<boolean>,
  ): Promise<StoredOffer[]> => {
    try {
      if (await save()) return offers;
    } catch (err) {
      const first =
        keyed && err instanceof StoreConflictError
          ? await savedBefore(
              householdId,
              offers.map((o) => o.offerId),
            )
          : null;
      if (first) return first;
      throw err;
    }
    throw atOfferCap(ctx.offers.maxOffers);
  };

  app.post(
    `${H}/offers`,
    {
      schema: {
        tags,
        description: `Creates one offer. 400 POLICY_VIOLATION when its url lacks a valid domain (not http(s), an address or a private host) or, with COMMERCE_ENFORCE_DOMAIN_ALLOWLIST=true, its domain is not allowed. price is in major units with no more decimals than its currency has (EUR 2, JPY 0, BHD 3; finer is 422). 409 CONFLICT when the household holds COMMERCE_MAX_OFFERS_PER_HOUSEHOLD offers (default 200,000; deleting one frees its place).${WRITERS_ONLY}${KEYED_CREATE}`,
        params: HouseholdParams,
        body: CreateOfferRequest,
        response: { 201: Offer, ...createErrors },
      },
      ...writers,
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const ids = keyedOfferIds(request, householdId, 'offer', request.body, 1);
      const sent = (offer: StoredOffer) =>
        reply.code(201).header('location', locationOf(request, offer.offerId)).send(offer);
      const before = ids && (await savedBefore(householdId, ids));
      if (before) return sent(before[0]!);
      const offer = draft(request.body, householdId, '', ids?.[0]);
      const [saved] = await createOffers(householdId, [offer], ids !== null, () => ctx.offers.create(offer));
      return sent(saved!);
    },
  );

  app.post(
    `${H}/offers/bulk`,
    {
      schema: {
        tags,
        description: `Creates all offers or none (max 500); one URL or price refused refuses the whole batch (400 POLICY_VIOLATION for a url without a valid or allowed domain, as for one offer); 409 CONFLICT when the batch would take the household past COMMERCE_MAX_OFFERS_PER_HOUSEHOLD (default 200,000).${WRITERS_ONLY}${KEYED_CREATE}`,
        params: HouseholdParams,
        body: BulkCreateOffersRequest,
        response: { 201: BulkCreateOffersResponse, ...createErrors },
      },
      ...writers,
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const ids = keyedOfferIds(request, householdId, 'bulk', request.body, request.body.offers.length);
      const before = ids && (await savedBefore(householdId, ids));
      if (before) return reply.code(201).send({ items: before });
      const drafted: StoredOffer[] = request.body.offers.map((o, i) =>
        draft(o, householdId, `offers[${i}]: `, ids?.[i]),
      );
      const items = await createOffers(householdId, drafted, ids !== null, () =>
        ctx.offers.createMany(householdId, drafted),
      );
      return reply.code(201).send({ items });
    },
  );

  app.get(
    `${H}/offers`,
    {
      schema: {
        tags,
        description:
          'Offers of the household with one status (default ACTIVE), by price ascending (then offerId). Filters, all optional and combined with AND: query (every word must occur in the title or brand, singular or plural); colors (any of them: comma-separated or the parameter repeated, up to 10); excludeColors, excludeBrands (the whole brand, any letter case), excludeWords (words of the title or brand), each in the same list forms, leave out offers with any of them; size (matched across spellings: "42" finds "EU 42", "M" finds "Medium"); minPrice and maxPrice (plain decimals, else 422; minPrice above maxPrice gives an empty page); currency, category, season (an offer without seasons matches every season). limit 1-100 (default 20). A cursor belongs to the filters (and status) it came with, in any order of list values: reused with other filters it is 400 BAD_REQUEST (resuming after its price would skip cheaper matches), so start again without it when a filter changes; a cursor the service did not issue is 400 BAD_REQUEST too. A page may hold fewer than limit offers while nextCursor is not null: page on until it is null.',
        params: HouseholdParams,
        querystring: ListOffersQuery,
        response: { 200: OfferPage, ...errors },
      },
    },
    async (request) => {
      const { status, ...constraints } = request.query;
      return runSearch(ctx, request.params.id, status, constraints);
    },
  );

  app.get(
    `${H}/offers/:offerId`,
    { schema: { tags, params: OfferParams, response: { 200: Offer, ...errors } } },
    async (request) => {
      const offer = await ctx.offers.get(request.params.id, request.params.offerId);
      if (!offer) throw notFound('Offer not found');
      return offer;
    },
  );

  app.patch(
    `${H}/offers/:offerId/status`,
    {
      schema: {
        tags,
        description: `Changes the offer's status.${WRITERS_ONLY}`,
        params: OfferParams,
        body: UpdateOfferStatusRequest,
        response: { 200: Offer, ...errors },
      },
      ...writers,
      onRequest: offerExists,
    },
    async (request) => {
      const { id, offerId } = request.params;
      const offer = await ctx.offers.setStatus(id, offerId, request.body.status, nowIso());
      if (!offer) throw notFound('Offer not found');
      return offer;
    },
  );

  app.delete(
    `${H}/offers/:offerId`,
    {
      schema: {
        tags,
        description: `Deletes the offer.${WRITERS_ONLY}`,
        params: OfferParams,
        response: { 204: z.null(), ...errors },
      },
      ...writers,
      onRequest: offerExists,
    },
    async (request, reply) => {
      if (!(await ctx.offers.delete(request.params.id, request.params.offerId)))
        throw notFound('Offer not found');
      return reply.code(204).send(null);
    },
  );
}
