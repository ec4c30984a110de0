// Issue 4 "Done when", as a user sees it: through the gateway a family adds wardrobe items and
// syncs them like an offline-capable app, uploads a real PNG through the signed URL, curates,
// saves outfits, reads the feed, keeps collections, manages and searches offers, and runs try-on
// jobs with the inline and the simulated backend; another household sees none of it. Real
// service processes on loopback, the embedded sqlite store, one shared ARTIFACT_LOCAL_DIR.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { components, operations } from '@hs/client';
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  type JourneyClient,
  type Json,
  journeyClient,
  makePng,
  type Reply,
  readPng,
  reply,
  type User,
} from './journey-client.ts';

let stack: RunningStack;
let client: JourneyClient;
let parent: User;
let adult: User;
let outsider: User;
let householdId: string;
let outsiderHouseholdId: string;

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'wardrobe', 'commerce', 'vto', 'artifacts-audit'],
    durable: true,
    perService: {
      vto: { VTO_INFERENCE_BACKEND: 'inline', VTO_WORKER_POLL_MS: '100' },
      wardrobe: { UPLOAD_MAX_BYTES: '65536' },
    },
  });
  client = journeyClient(stack.url('gateway'));
  [parent, adult, outsider] = await Promise.all([
    client.login('catalogue-parent@family.test'),
    client.login('catalogue-adult@family.test'),
    client.login('catalogue-outsider@other.test'),
  ]);
  householdId = await client.household(parent, 'Catalogue family', [[adult, 'ADULT']]);
  outsiderHouseholdId = await client.household(outsider, 'Neighbours');
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const as = (user: User) => client.as(user);
const ITEMS = '/api/v1/households/{id}/wardrobe/items';
const ITEM = '/api/v1/households/{id}/wardrobe/items/{itemId}';
const OUTFITS = '/api/v1/households/{id}/wardrobe/outfits';
const FEED = '/api/v1/households/{id}/wardrobe/feed';
const COLLECTIONS = '/api/v1/households/{id}/wardrobe/feed/collections';
const OFFERS = '/api/v1/households/{id}/offers';
const OFFER = '/api/v1/households/{id}/offers/{offerId}';
const JOBS = '/api/v1/households/{id}/vto/jobs';
const JOB = '/api/v1/households/{id}/vto/jobs/{jobId}';

type NewItem = operations['createWardrobeItem']['requestBody']['content']['application/json'];
const addItem = async (body: NewItem, user = parent) =>
  reply(await as(user).POST(ITEMS, { params: { path: { id: householdId } }, body }));
const listItems = async (user = parent, header?: { 'if-none-match': string }) =>
  reply(await as(user).GET(ITEMS, { params: { path: { id: householdId }, header } }));
const curate = async (itemId: string) =>
  reply(
    await as(parent).POST('/api/v1/households/{id}/wardrobe/items/{itemId}/curate', {
      params: { path: { id: householdId, itemId } },
    }),
  );

/** The wardrobe picture: a real PNG, uploaded once and used as try-on input by every backend. */
const UPLOADED_PNG = makePng(48, 64, [40, 90, 200]);

/** What the other tests refer to, to check another household can't reach it. */
const made = {
  itemId: '',
  imageId: '',
  imageRef: '',
  outfitId: '',
  collectionId: '',
  offerId: '',
  vtoJobId: '',
};

describe('wardrobe items, synced like an offline-capable app', () => {
  it('adds items (owner must be a member), then syncs with ETags, updatedSince, tombstones and If-Match', async () => {
    const shirt = await addItem({
      category: 'TOP',
      brand: 'Linen & Co',
      colors: ['blue'],
      season: ['SUMMER'],
    });
    expect(shirt.status).toBe(201);
    expect(shirt.body).toMatchObject({
      itemId: expect.stringMatching(/^item_/),
      householdId,
      ownerMemberId: parent.userId,
      occasion: [],
      tags: [],
      images: [],
    });
    const adultsChinos = await addItem({
      category: 'BOTTOM',
      brand: 'Chino Lab',
      colors: ['beige'],
      season: ['SUMMER'],
      ownerMemberId: adult.userId,
    });
    expect(adultsChinos.body.ownerMemberId).toBe(adult.userId);
    const scarf = await addItem({ category: 'ACCESSORY', colors: ['red'], season: ['WINTER'] });
    expect(scarf.status).toBe(201);

    const strangersItem = await addItem({ category: 'TOP', ownerMemberId: outsider.userId });
    expect(strangersItem.status).toBe(400);
    expect(strangersItem.body).toEqual({
      error: 'BAD_REQUEST',
      message: 'ownerMemberId is not a household member',
    });
    const noCategory = await addItem({ brand: 'Nameless' } as never); // deliberately without a category
    expect(noCategory.status).toBe(422);
    expect(noCategory.body.error).toBe('VALIDATION_ERROR');
    expect(noCategory.body.details[0].loc).toEqual(['body', 'category']);

    // First sync: everything, with a strong ETag; asking again with it costs a 304.
    const full = await listItems();
    expect(full.status).toBe(200);
    expect(full.body.items.map((i: Json) => i.itemId)).toEqual([
      shirt.body.itemId,
      adultsChinos.body.itemId,
      scarf.body.itemId,
    ]);
    const listTag = full.headers.get('etag')!;
    expect(listTag).toMatch(/^"/);
    const unchanged = await listItems(parent, { 'if-none-match': listTag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBeNull();
    const syncedAt = full.body.syncedAt;

    // An edit with the copy the app holds succeeds; the same stale copy again is 412.
    const item = (itemId: string) => ({ path: { id: householdId, itemId } });
    const shirtId = shirt.body.itemId as string;
    const scarfId = scarf.body.itemId as string;
    const one = await as(parent).GET(ITEM, { params: item(shirtId) });
    expect(one.data?.itemId).toBe(shirtId);
    const itemTag = one.response.headers.get('etag')!;
    const notModified = await as(parent).GET(ITEM, {
      params: { ...item(shirtId), header: { 'if-none-match': itemTag } },
    });
    expect(notModified.response.status).toBe(304);
    const patched = await as(parent).PATCH(ITEM, {
      params: { ...item(shirtId), header: { 'if-match': itemTag } },
      body: { occasion: ['beach'] },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data?.occasion).toEqual(['beach']);
    expect(patched.response.headers.get('etag')).not.toBe(itemTag);
    const stale = await as(adult).PATCH(ITEM, {
      params: { ...item(shirtId), header: { 'if-match': itemTag } },
      body: { tags: ['favourite'] },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toEqual({
      error: 'PRECONDITION_FAILED',
      message: 'The resource changed since it was read',
    });
    const staleDelete = await as(parent).DELETE(ITEM, {
      params: { ...item(scarfId), header: { 'if-match': '"not-the-current-version"' } },
    });
    expect(staleDelete.response.status).toBe(412);

    const deleted = await as(parent).DELETE(ITEM, { params: item(scarfId) });
    expect(deleted.response.status).toBe(204);
    expect((await as(parent).GET(ITEM, { params: item(scarfId) })).response.status).toBe(404);

    // Delta sync: only what changed since, and the tombstone of what was deleted.
    const delta = await as(parent).GET(ITEMS, {
      params: { path: { id: householdId }, query: { updatedSince: syncedAt } },
    });
    expect(delta.response.status).toBe(200);
    expect(delta.data?.items.map((i) => i.itemId)).toEqual([shirtId]);
    expect(delta.data?.deletedItemIds).toEqual([scarfId]);
    expect(delta.data!.syncedAt >= syncedAt).toBe(true);
    const changed = await listItems(parent, { 'if-none-match': listTag });
    expect(changed.status).toBe(200);

    made.itemId = shirt.body.itemId;
  });
});

describe('images, curation, outfits, feed and collections', () => {
  const png = UPLOADED_PNG;

  it('uploads a real PNG through the signed URL via the gateway and confirms it once', async () => {
    const url = reply(
      await as(parent).POST('/api/v1/households/{id}/wardrobe/items/{itemId}/upload-url', {
        params: { path: { id: householdId, itemId: made.itemId } },
        body: { contentType: 'image/png', fileName: 'shirt.png' },
      }),
    );
    expect(url.status).toBe(200);
    expect(url.body).toMatchObject({
      imageId: expect.stringMatching(/^img_/),
      method: 'PUT',
      uploadUrl: expect.stringContaining(`${client.baseUrl}/api/v1/uploads/`),
    });
    const { imageId, uploadUrl, headers } = url.body;
    const confirm = async () =>
      reply(
        await as(parent).POST('/api/v1/households/{id}/wardrobe/items/{itemId}/images/{imageId}/confirm', {
          params: { path: { id: householdId, itemId: made.itemId, imageId } },
        }),
      );

    const early = await confirm();
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ error: 'BAD_REQUEST', message: 'No image bytes have been uploaded yet' });

    // The uploadImage operation at the URL the API handed out (its path and its signature), the
    // bytes sent as they are.
    const put = async (target: string, bytes: Uint8Array, contentType = 'image/png') => {
      const signed = new URL(target);
      expect(signed.origin).toBe(new URL(client.baseUrl).origin);
      return reply(
        await client.as().PUT('/api/v1/uploads/{path}', {
          params: {
            path: { path: decodeURIComponent(signed.pathname.slice('/api/v1/uploads/'.length)) },
            query: Object.fromEntries(signed.searchParams),
          },
          body: new Blob([bytes]),
          bodySerializer: (blob) => blob,
          headers: { ...headers, 'content-type': contentType },
        }),
      );
    };
    const tampered = new URL(uploadUrl);
    tampered.searchParams.set('sig', `${tampered.searchParams.get('sig')?.slice(0, -2)}xx`);
    const forged = await put(tampered.toString(), png);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ error: 'FORBIDDEN', message: 'Upload URL signature is invalid' });
    // Deliberately not one of the image types the operation takes.
    const notAnImage = await put(uploadUrl, new TextEncoder().encode('hello'), 'text/plain');
    expect(notAnImage.status).toBe(415);
    const empty = await put(uploadUrl, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'BAD_REQUEST', message: 'Upload body is empty' });
    const tooBig = await put(uploadUrl, new Uint8Array(70_000));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
      message: 'Upload is larger than 65536 bytes',
    });
    expect((await confirm()).status).toBe(400); // nothing was stored by the refused uploads

    const uploaded = await put(uploadUrl, png);
    expect(uploaded.status).toBe(200);
    const sha256 = createHash('sha256').update(png).digest('hex');
    expect(uploaded.body).toEqual({ size: png.length, contentType: 'image/png', sha256 });

    const confirmed = await confirm();
    expect(confirmed.status).toBe(200);
    const image = confirmed.body.images.find((i: Json) => i.imageId === imageId);
    expect(image).toMatchObject({
      status: 'confirmed',
      contentType: 'image/png',
      fileName: 'shirt.png',
      size: png.length,
      sha256,
      ref: expect.stringMatching(new RegExp(`^local://households/${householdId}/`)),
    });
    const again = await confirm();
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'CONFLICT', message: 'Image is already confirmed' });
    const overwrite = await put(uploadUrl, makePng(8, 8, [255, 0, 0]));
    expect(overwrite.status).toBe(409); // the confirmed picture can't be swapped behind the item's back
    made.imageId = imageId;
    made.imageRef = image.ref;
  });

  it('curates looks around the item, saves outfits, reads the feed and keeps a collection', async () => {
    const noImage = await addItem({ category: 'BAG', colors: ['white'], season: ['SUMMER'] });
    const refused = await curate(noImage.body.itemId);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'BAD_REQUEST', message: 'The item has no confirmed image yet' });

    const curated = await curate(made.itemId);
    expect(curated.status).toBe(200);
    expect(curated.body.itemId).toBe(made.itemId);
    expect(curated.body.looks.length).toBeGreaterThan(0);
    // No shoes in the wardrobe and no offers yet: the looks say so.
    expect(curated.body.offers).toBe('NONE_FOUND');
    for (const look of curated.body.looks) {
      expect(look.anchorItemId).toBe(made.itemId);
      expect(look.why.length).toBeGreaterThan(0);
    }

    const items = (await listItems()).body.items as Json[];
    const chinos = items.find((i) => i.category === 'BOTTOM')!;
    const household = { params: { path: { id: householdId } } };
    const manual = reply(
      await as(parent).POST(OUTFITS, {
        ...household,
        body: { name: 'Beach day', itemIds: [made.itemId, chinos.itemId] },
      }),
    );
    expect(manual.status).toBe(201);
    expect(manual.body).toMatchObject({ source: 'MANUAL', itemIds: [made.itemId, chinos.itemId] });
    const suggested = reply(
      await as(parent).POST(OUTFITS, { ...household, body: { anchorItemId: made.itemId } }),
    );
    expect(suggested.status).toBe(201);
    expect(suggested.body.source).toBe('CURATED');
    expect(suggested.body.itemIds).toContain(made.itemId);
    expect(suggested.body.why.length).toBeGreaterThan(0);

    const collection = reply(
      await as(adult).POST(COLLECTIONS, { ...household, body: { name: 'Summer picks' } }),
    );
    expect(collection.status).toBe(201);
    expect(collection.body).toMatchObject({ collectionId: expect.stringMatching(/^col_/), entries: [] });
    // Deliberately without a name.
    const unnamed = reply(await as(adult).POST(COLLECTIONS, { ...household, body: {} as never }));
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error).toBe('VALIDATION_ERROR');
    const entry = reply(
      await as(adult).POST('/api/v1/households/{id}/wardrobe/feed/collections/{collectionId}/entries', {
        params: { path: { id: householdId, collectionId: collection.body.collectionId } },
        body: { type: 'OUTFIT', id: manual.body.outfitId },
      }),
    );
    expect(entry.status).toBeLessThan(300);

    type Feed = operations['getWardrobeFeed']['parameters'];
    const readFeed = async (query?: Feed['query'], header?: Feed['header']) =>
      reply(await as(adult).GET(FEED, { params: { path: { id: householdId }, query, header } }));
    const feed = await readFeed();
    expect(feed.status).toBe(200);
    const kinds = new Set(feed.body.entries.map((e: Json) => e.type));
    expect([...kinds]).toEqual(expect.arrayContaining(['ITEM', 'OUTFIT', 'COLLECTION']));
    expect(feed.body.unavailableSources).toEqual([]);
    const cached = await readFeed(undefined, { 'if-none-match': feed.headers.get('etag')! });
    expect(cached.status).toBe(304);
    const outfitsOnly = await readFeed({ source: 'OUTFITS' });
    expect(new Set(outfitsOnly.body.entries.map((e: Json) => e.type))).toEqual(new Set(['OUTFIT']));
    const badSource = await readFeed({ source: 'PINTEREST' as never }); // deliberately not a source
    expect(badSource.status).toBe(400);
    expect(badSource.body.error).toBe('VALIDATION_ERROR');

    made.outfitId = manual.body.outfitId;
    made.collectionId = collection.body.collectionId;
  });
});

describe('offers', () => {
  type NewOffer = components['schemas']['CreateOfferRequest'];
  type OfferQuery = operations['listOffers']['parameters']['query'];
  const offer = (title: string, price: number, extra: Partial<NewOffer> = {}): NewOffer => ({
    title,
    price,
    currency: 'EUR',
    url: `https://shop.zalando.de/${encodeURIComponent(title)}`,
    ...extra,
  });
  const page = async (query: OfferQuery) =>
    reply(await as(parent).GET(OFFERS, { params: { path: { id: householdId }, query } }));
  const search = async (query: OfferQuery) => ((await page(query)).body.items as Json[]).map((o) => o.title);
  const offerAt = (offerId: string) => ({ params: { path: { id: householdId, offerId } } });

  it('are created one by one or in an all-or-nothing bulk, change status, are deleted, and are searched', async () => {
    const household = { params: { path: { id: householdId } } };
    const single = reply(
      await as(parent).POST(OFFERS, {
        ...household,
        body: offer('Blue linen shirt', 45, {
          category: 'TOP',
          colors: ['blue'],
          season: ['SUMMER'],
          sizes: ['M'],
        }),
      }),
    );
    expect(single.status).toBe(201);
    expect(single.body).toMatchObject({
      offerId: expect.stringMatching(/^off_/),
      merchantDomain: 'shop.zalando.de',
      status: 'ACTIVE',
    });
    const loopbackShop = reply(
      await as(parent).POST(OFFERS, {
        ...household,
        body: { ...offer('Sneaky', 10), url: 'http://127.0.0.1/admin' },
      }),
    );
    expect(loopbackShop.status).toBe(400);
    expect(loopbackShop.body).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'URL must use a domain name, not an IP address',
    });

    const BULK = '/api/v1/households/{id}/offers/bulk';
    const halfBad = reply(
      await as(parent).POST(BULK, {
        ...household,
        body: {
          offers: [offer('Fine dress', 70), { ...offer('Bad dress', 70), url: 'https://localhost/x' }],
        },
      }),
    );
    expect(halfBad.status).toBe(400);
    expect(halfBad.body).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'offers[1]: URL must have a valid public domain name',
    });
    expect(await search({ query: 'dress' })).toEqual([]); // all or nothing

    const bulk = reply(
      await as(parent).POST(BULK, {
        ...household,
        body: {
          offers: [
            offer('Silk blouse', 95, {
              category: 'TOP',
              colors: ['white'],
              season: ['SUMMER'],
              sizes: ['S', 'M'],
            }),
            offer('Wool parka', 180, { category: 'OUTERWEAR', colors: ['black'], season: ['WINTER'] }),
            offer('Cotton tee', 20, {
              category: 'TOP',
              colors: ['blue', 'white'],
              season: ['SUMMER'],
              sizes: ['L'],
            }),
            offer('Denim shorts', 35, {
              category: 'BOTTOM',
              colors: ['blue'],
              season: ['SUMMER'],
              currency: 'USD',
            }),
            offer('White sneakers', 60, { category: 'SHOES', colors: ['white'], season: ['SUMMER'] }),
          ],
        },
      }),
    );
    expect(bulk.status).toBe(201);
    expect(bulk.body.items).toHaveLength(5);

    expect(await search({ maxPrice: 50, season: 'SUMMER', currency: 'EUR' })).toEqual([
      'Cotton tee',
      'Blue linen shirt',
    ]);
    expect(await search({ colors: 'blue', category: 'TOP' })).toEqual(['Cotton tee', 'Blue linen shirt']);
    expect(await search({ query: 'linen' })).toEqual(['Blue linen shirt']);
    expect(await search({ size: 'M' })).toEqual(['Blue linen shirt', 'Silk blouse']);
    expect(await search({ minPrice: 90 })).toEqual(['Silk blouse', 'Wool parka']);
    expect(await search({ currency: 'USD' })).toEqual(['Denim shorts']);
    const firstPage = await page({ limit: 2 });
    expect(firstPage.body.items).toHaveLength(2);
    const secondPage = await page({ limit: 2, cursor: firstPage.body.nextCursor });
    expect([...firstPage.body.items, ...secondPage.body.items].map((o: Json) => o.title)).toEqual([
      'Cotton tee',
      'Denim shorts',
      'Blue linen shirt',
      'White sneakers',
    ]);

    const parka = bulk.body.items.find((o: Json) => o.title === 'Wool parka');
    const inactive = reply(
      await as(parent).PATCH('/api/v1/households/{id}/offers/{offerId}/status', {
        ...offerAt(parka.offerId),
        body: { status: 'INACTIVE' },
      }),
    );
    expect(inactive.status).toBe(200);
    expect(inactive.body.status).toBe('INACTIVE');
    expect(await search({ category: 'OUTERWEAR' })).toEqual([]);
    expect(await search({ status: 'INACTIVE' })).toEqual(['Wool parka']);

    const removed = reply(await as(parent).DELETE(OFFER, offerAt(parka.offerId)));
    expect(removed.status).toBe(204);
    const gone = reply(await as(parent).GET(OFFER, offerAt(parka.offerId)));
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('NOT_FOUND');

    // The wardrobe feed shows the household's active offers.
    const feed = reply(
      await as(parent).GET(FEED, { params: { path: { id: householdId }, query: { source: 'OFFERS' } } }),
    );
    expect(feed.body.entries.map((e: Json) => e.offer.title)).toContain('Blue linen shirt');
    // Curation now fills the wardrobe's missing shoes with the active offer.
    const curated = await curate(made.itemId);
    expect(curated.body.offers).toBe('INCLUDED');
    const sneakers = bulk.body.items.find((o: Json) => o.title === 'White sneakers');
    expect(curated.body.looks.some((l: Json) => l.offerIds.includes(sneakers.offerId))).toBe(true);
    made.offerId = single.body.offerId;
  });
});

describe('virtual try-on', () => {
  type NewJob = NonNullable<operations['createTryOnJob']['requestBody']>['content']['application/json'];
  const readJob = async (jobId: string) =>
    reply(await as(parent).GET(JOB, { params: { path: { id: householdId, jobId } } }));
  const job = (jobId: string) =>
    eventually(
      () => readJob(jobId),
      (r) => r.body.status === 'SUCCEEDED' || r.body.status === 'FAILED',
    );
  const tryOn = async (user: User, body: NewJob) =>
    reply(await as(user).POST(JOBS, { params: { path: { id: householdId } }, body }));
  /** The result picture, as bytes; a refusal is the error envelope. */
  const picture = (user: User, jobId: string) =>
    as(user).GET('/api/v1/households/{id}/vto/jobs/{jobId}/result', {
      params: { path: { id: householdId, jobId } },
      parseAs: 'arrayBuffer',
    });

  it('composes a real preview from the uploaded wardrobe picture with the inline backend', async () => {
    const missing = await tryOn(parent, { personImageRef: made.imageRef });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'BAD_REQUEST', message: 'garmentImageRef is required' });
    const stranger = await tryOn(parent, {
      personImageRef: made.imageRef,
      garmentImageRef: made.imageRef,
      memberId: outsider.userId,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({ error: 'BAD_REQUEST', message: 'User is not a household member' });

    const queued = await tryOn(adult, { personImageRef: made.imageRef, garmentImageRef: made.imageRef });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      jobId: expect.stringMatching(/^vto_/),
      memberId: adult.userId,
      status: 'QUEUED',
      backend: 'inline',
    });
    const done = await job(queued.body.jobId);
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', error: null, resultImageRef: expect.any(String) });

    const result = await picture(adult, queued.body.jobId);
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('content-type')).toBe('image/png');
    const preview = readPng(Buffer.from(result.data!));
    expect(preview.width).toBeGreaterThan(0);
    expect(preview.height).toBeGreaterThan(0);
    made.vtoJobId = queued.body.jobId;
  });

  it('uses an inference endpoint speaking the :predict shape with the http backend', async () => {
    const answer = makePng(16, 24, [20, 160, 60]);
    const seen: Json[] = [];
    const predictor = createServer(async (req, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          predictions: [{ mimeType: 'image/png', bytesBase64Encoded: answer.toString('base64') }],
        }),
      );
    });
    predictor.listen(0, '127.0.0.1');
    await once(predictor, 'listening');
    const { port } = predictor.address() as AddressInfo;
    try {
      await stack.stop('vto');
      await stack.start('vto', {
        VTO_INFERENCE_BACKEND: 'http',
        VTO_HTTP_ENDPOINT: `http://127.0.0.1:${port}/v1/projects/p/locations/l/publishers/google/models/vto:predict`,
        VTO_HTTP_AUTH_TOKEN: 'journey-token',
      });
      const queued = await tryOn(parent, { personImageRef: made.imageRef, garmentImageRef: made.imageRef });
      expect(queued.body.backend).toBe('http');
      const done = await job(queued.body.jobId);
      expect(done.body.status).toBe('SUCCEEDED');
      const result = await picture(parent, queued.body.jobId);
      expect(Buffer.from(result.data!).equals(answer)).toBe(true);

      // The endpoint got the uploaded wardrobe picture as both person and garment.
      expect(seen).toHaveLength(1);
      expect(seen[0].url).toMatch(/:predict$/);
      expect(seen[0].auth).toBe('Bearer journey-token');
      const instance = seen[0].body.instances[0];
      const uploaded = UPLOADED_PNG.toString('base64');
      expect(instance.personImage.image.bytesBase64Encoded).toBe(uploaded);
      expect(instance.productImages[0].image.bytesBase64Encoded).toBe(uploaded);
    } finally {
      predictor.closeAllConnections();
      predictor.close();
    }
  });

  it('ends FAILED with the simulated-result explanation in a vto process on the default backend', async () => {
    await stack.stop('vto');
    await stack.start('vto', { VTO_INFERENCE_BACKEND: 'simulated' });
    const queued = await tryOn(parent, { personImageRef: made.imageRef, garmentImageRef: made.imageRef });
    expect(queued.status).toBe(202);
    expect(queued.body.backend).toBe('simulated');
    const done = await job(queued.body.jobId);
    expect(done.body).toMatchObject({
      status: 'FAILED',
      resultImageRef: null,
      error: {
        code: 'SIMULATED_RESULT',
        message:
          'Simulated result: no try-on inference backend is configured (VTO_INFERENCE_BACKEND=simulated), so no ' +
          'image was generated. Set VTO_INFERENCE_BACKEND=inline for an in-process preview or http with ' +
          'VTO_HTTP_ENDPOINT for an inference endpoint.',
      },
    });
    const noPicture = reply(await picture(parent, queued.body.jobId));
    expect(noPicture.status).toBe(409);
    expect(noPicture.body).toEqual({
      error: 'CONFLICT',
      message: 'Try-on job is FAILED; only a SUCCEEDED job has a result',
    });
    // The earlier job, kept in the sqlite store, is still there for the new process.
    expect((await readJob(made.vtoJobId)).body.status).toBe('SUCCEEDED');
  });
});

describe('another household', () => {
  it('sees 404 for every one of those resources, and 403 for the household itself', async () => {
    const them = as(outsider);
    const there = { id: outsiderHouseholdId };
    const { itemId, imageId, outfitId, collectionId, offerId, vtoJobId: jobId } = made;
    // What the outsider tries, in their own household, with the ids of ours.
    const attempts: Array<[string, string, () => Promise<Reply<Json>>]> = [
      [
        'GET',
        `/wardrobe/items/${itemId}`,
        async () => reply(await them.GET(ITEM, { params: { path: { ...there, itemId } } })),
      ],
      [
        'PATCH',
        `/wardrobe/items/${itemId}`,
        async () =>
          reply(await them.PATCH(ITEM, { params: { path: { ...there, itemId } }, body: { tags: ['mine'] } })),
      ],
      [
        'DELETE',
        `/wardrobe/items/${itemId}`,
        async () => reply(await them.DELETE(ITEM, { params: { path: { ...there, itemId } } })),
      ],
      [
        'POST',
        `/wardrobe/items/${itemId}/upload-url`,
        async () =>
          reply(
            await them.POST('/api/v1/households/{id}/wardrobe/items/{itemId}/upload-url', {
              params: { path: { ...there, itemId } },
              body: { contentType: 'image/png' },
            }),
          ),
      ],
      [
        'POST',
        `/wardrobe/items/${itemId}/images/${imageId}/confirm`,
        async () =>
          reply(
            await them.POST('/api/v1/households/{id}/wardrobe/items/{itemId}/images/{imageId}/confirm', {
              params: { path: { ...there, itemId, imageId } },
            }),
          ),
      ],
      [
        'POST',
        `/wardrobe/items/${itemId}/curate`,
        async () =>
          reply(
            await them.POST('/api/v1/households/{id}/wardrobe/items/{itemId}/curate', {
              params: { path: { ...there, itemId } },
            }),
          ),
      ],
      [
        'GET',
        `/wardrobe/outfits/${outfitId}`,
        async () =>
          reply(
            await them.GET('/api/v1/households/{id}/wardrobe/outfits/{outfitId}', {
              params: { path: { ...there, outfitId } },
            }),
          ),
      ],
      [
        'GET',
        `/wardrobe/feed/collections/${collectionId}`,
        async () =>
          reply(
            await them.GET('/api/v1/households/{id}/wardrobe/feed/collections/{collectionId}', {
              params: { path: { ...there, collectionId } },
            }),
          ),
      ],
      [
        'GET',
        `/offers/${offerId}`,
        async () => reply(await them.GET(OFFER, { params: { path: { ...there, offerId } } })),
      ],
      [
        'PATCH',
        `/offers/${offerId}/status`,
        async () =>
          reply(
            await them.PATCH('/api/v1/households/{id}/offers/{offerId}/status', {
              params: { path: { ...there, offerId } },
              body: { status: 'ARCHIVED' },
            }),
          ),
      ],
      [
        'DELETE',
        `/offers/${offerId}`,
        async () => reply(await them.DELETE(OFFER, { params: { path: { ...there, offerId } } })),
      ],
      [
        'GET',
        `/vto/jobs/${jobId}`,
        async () => reply(await them.GET(JOB, { params: { path: { ...there, jobId } } })),
      ],
      [
        'GET',
        `/vto/jobs/${jobId}/result`,
        async () =>
          reply(
            await them.GET('/api/v1/households/{id}/vto/jobs/{jobId}/result', {
              params: { path: { ...there, jobId } },
              parseAs: 'arrayBuffer',
            }),
          ),
      ],
    ];
    for (const [method, path, attempt] of attempts) {
      const res = await attempt();
      expect({ method, path, status: res.status, error: res.body?.error }).toEqual({
        method,
        path,
        status: 404,
        error: 'NOT_FOUND',
      });
    }
    const inTheirs = { params: { path: there } };
    const outfitWithTheirItem = reply(await them.POST(OUTFITS, { ...inTheirs, body: { itemIds: [itemId] } }));
    expect(outfitWithTheirItem.status).toBe(404);
    const tryOnTheirPicture = reply(
      await them.POST(JOBS, {
        ...inTheirs,
        body: { personImageRef: made.imageRef, garmentImageRef: made.imageRef },
      }),
    );
    expect(tryOnTheirPicture.status).toBe(400);
    expect(tryOnTheirPicture.body).toEqual({
      error: 'BAD_REQUEST',
      message: `personImageRef must point to this household's storage (households/${outsiderHouseholdId}/...)`,
    });
    const lists = await Promise.all([
      them.GET(ITEMS, inTheirs).then(reply),
      them.GET(OFFERS, inTheirs).then(reply),
      them.GET(JOBS, inTheirs).then(reply),
      them.GET(FEED, inTheirs).then(reply),
    ]);
    expect(lists.map((l) => l.body.items ?? l.body.entries)).toEqual([[], [], [], []]);

    const intoTheirHousehold = reply(await them.GET(ITEM, { params: { path: { id: householdId, itemId } } }));
    expect(intoTheirHousehold.status).toBe(403);
    expect(intoTheirHousehold.body).toEqual({
      error: 'FORBIDDEN',
      message: 'User is not a household member',
    });

    // Nothing of theirs changed.
    const still = reply(await as(parent).GET(OFFER, { params: { path: { id: householdId, offerId } } }));
    expect(still.body.status).toBe('ACTIVE');
    const item = reply(await as(parent).GET(ITEM, { params: { path: { id: householdId, itemId } } }));
    expect(item.body.tags).toEqual([]);
  });
});

describe('deployment switches, seen by the app', () => {
  it('curation disabled answers 503 for curate and curated outfits; a commerce allowlist refuses other shops', async () => {
    await Promise.all([stack.stop('wardrobe'), stack.stop('commerce')]);
    await Promise.all([
      stack.start('wardrobe', { CURATION_BACKEND: 'disabled', UPLOAD_MAX_BYTES: '65536' }),
      stack.start('commerce', {
        COMMERCE_ENFORCE_DOMAIN_ALLOWLIST: 'true',
        COMMERCE_ALLOWED_DOMAINS: 'zalando.de',
      }),
    ]);
    const disabled = { error: 'SERVICE_UNAVAILABLE', message: 'Curation is not enabled in this environment' };
    const curated = await curate(made.itemId);
    expect({ status: curated.status, body: curated.body }).toEqual({ status: 503, body: disabled });
    const household = { params: { path: { id: householdId } } };
    const suggested = reply(
      await as(parent).POST(OUTFITS, { ...household, body: { anchorItemId: made.itemId } }),
    );
    expect({ status: suggested.status, body: suggested.body }).toEqual({ status: 503, body: disabled });
    const manual = reply(await as(parent).POST(OUTFITS, { ...household, body: { itemIds: [made.itemId] } }));
    expect(manual.status).toBe(201);

    const elsewhere = reply(
      await as(parent).POST(OFFERS, {
        ...household,
        body: { title: 'Elsewhere tee', price: 15, currency: 'EUR', url: 'https://www.asos.com/tee' },
      }),
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'Domain www.asos.com is not on the allowlist',
    });
    const subdomain = reply(
      await as(parent).POST(OFFERS, {
        ...household,
        body: { title: 'Allowed tee', price: 15, currency: 'EUR', url: 'https://shop.zalando.de/tee' },
      }),
    );
    expect(subdomain.status).toBe(201);
  });
});
