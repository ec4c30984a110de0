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
  conflict,
  errorResponses,
  locationOf,
  NOT_CHILD,
  newId,
  notFound,
  nowIso,
  policyViolation,
  type ServiceApp,
} from '@hs/service-kit';
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

/** 409 when the household holds COMMERCE_MAX_OFFERS_PER_HOUSEHOLD offers, or a batch would pass it. */
const atOfferCap = (max: number) =>
  conflict(
    `A household holds at most ${max} offers (COMMERCE_MAX_OFFERS_PER_HOUSEHOLD); delete some first (a batch is created whole or not at all)`,
  );

export function registerOfferRoutes(app: ServiceApp, ctx: CommerceContext): void {
  const draft = (input: z.output<typeof CreateOfferRequest>, householdId: string, where: string) => {
    const result = draftOffer(
      input,
      { offerId: newId('off'), householdId, now: nowIso() },
      ctx.allowedDomains,
    );
    if (!result.ok) throw policyViolation(`${where}${result.reason}`);
    return result.offer;
  };

  app.post(
    `${H}/offers`,
    {
      schema: {
        tags,
        description: `Creates one offer. price is in major units with no more decimals than its currency has (EUR 2, JPY 0, BHD 3; finer is 422). 409 CONFLICT when the household holds COMMERCE_MAX_OFFERS_PER_HOUSEHOLD offers (default 200,000; deleting one frees its place).${WRITERS_ONLY}`,
        params: HouseholdParams,
        body: CreateOfferRequest,
        response: { 201: Offer, ...createErrors },
      },
      ...writers,
    },
    async (request, reply) => {
      const offer = draft(request.body, request.params.id, '');
      if (!(await ctx.offers.create(offer))) throw atOfferCap(ctx.offers.maxOffers);
      return reply.code(201).header('location', locationOf(request, offer.offerId)).send(offer);
    },
  );

  app.post(
    `${H}/offers/bulk`,
    {
      schema: {
        tags,
        description: `Creates all offers or none (max 500); one URL or price refused refuses the whole batch; 409 CONFLICT when the batch would take the household past COMMERCE_MAX_OFFERS_PER_HOUSEHOLD (default 200,000).${WRITERS_ONLY}`,
        params: HouseholdParams,
        body: BulkCreateOffersRequest,
        response: { 201: BulkCreateOffersResponse, ...createErrors },
      },
      ...writers,
    },
    async (request, reply) => {
      const drafted: StoredOffer[] = request.body.offers.map((o, i) =>
        draft(o, request.params.id, `offers[${i}]: `),
      );
      if (!(await ctx.offers.createMany(request.params.id, drafted))) throw atOfferCap(ctx.offers.maxOffers);
      return reply.code(201).send({ items: drafted });
    },
  );

  app.get(
    `${H}/offers`,
    {
      schema: {
        tags,
        description: 'Offers of the household with one status (default ACTIVE), by price ascending.',
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
    },
    async (request, reply) => {
      if (!(await ctx.offers.delete(request.params.id, request.params.offerId)))
        throw notFound('Offer not found');
      return reply.code(204).send(null);
    },
  );
}
