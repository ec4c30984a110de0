// Issue 4 "Done when", as a user sees it: through the gateway a family adds wardrobe items and
// syncs them like an offline-capable app, uploads a real PNG through the signed URL, curates,
// saves outfits, reads the feed, keeps collections, manages and searches offers, and runs try-on
// jobs with the inline and the simulated backend; another household sees none of it. Real
// service processes on loopback, the embedded sqlite store, one shared ARTIFACT_LOCAL_DIR.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiClient } from '@hs/client';
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  type JourneyClient,
  type Json,
  journeyClient,
  makePng,
  readPng,
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

const h = (path: string, household = householdId) => `/api/v1/households/${household}${path}`;
const addItem = (body: Record<string, unknown>, user = parent) =>
  client.api(h('/wardrobe/items'), { method: 'POST', token: user.token, body });

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
    const noCategory = await addItem({ brand: 'Nameless' });
    expect(noCategory.status).toBe(422);
    expect(noCategory.body.error).toBe('VALIDATION_ERROR');
    expect(noCategory.body.details[0].loc).toEqual(['body', 'category']);

    // First sync: everything, with a strong ETag; asking again with it costs a 304.
    const full = await client.api(h('/wardrobe/items'), { token: parent.token });
    expect(full.status).toBe(200);
    expect(full.body.items.map((i: Json) => i.itemId)).toEqual([
      shirt.body.itemId,
      adultsChinos.body.itemId,
      scarf.body.itemId,
    ]);
    const listTag = full.headers.get('etag')!;
    expect(listTag).toMatch(/^"/);
    const unchanged = await client.api(h('/wardrobe/items'), {
      token: parent.token,
      headers: { 'if-none-match': listTag },
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBeNull();
    const syncedAt = full.body.syncedAt;

    // An edit with the copy the app holds succeeds; the same stale copy again is 412. From here
    // on the app uses the typed client generated from the public document: a path, parameter or
    // schema the document gets wrong fails to compile or to run.
    const typed = (user: User) => createApiClient({ baseUrl: client.baseUrl, token: user.token });
    const item = (itemId: string) => ({ params: { path: { id: householdId, itemId } } });
    const ITEM = '/api/v1/households/{id}/wardrobe/items/{itemId}' as const;
    const shirtId = shirt.body.itemId as string;
    const scarfId = scarf.body.itemId as string;
    const one = await typed(parent).GET(ITEM, item(shirtId));
    expect(one.data?.itemId).toBe(shirtId);
    const itemTag = one.response.headers.get('etag')!;
    const notModified = await typed(parent).GET(ITEM, {
      ...item(shirtId),
      headers: { 'if-none-match': itemTag },
    });
    expect(notModified.response.status).toBe(304);
    const patched = await typed(parent).PATCH(ITEM, {
      ...item(shirtId),
      body: { occasion: ['beach'] },
      headers: { 'if-match': itemTag },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data?.occasion).toEqual(['beach']);
    expect(patched.response.headers.get('etag')).not.toBe(itemTag);
    const stale = await typed(adult).PATCH(ITEM, {
      ...item(shirtId),
      body: { tags: ['favourite'] },
      headers: { 'if-match': itemTag },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toEqual({
      error: 'PRECONDITION_FAILED',
      message: 'The resource changed since it was read',
    });
    const staleDelete = await typed(parent).DELETE(ITEM, {
      ...item(scarfId),
      headers: { 'if-match': '"not-the-current-version"' },
    });
    expect(staleDelete.response.status).toBe(412);

    const deleted = await typed(parent).DELETE(ITEM, item(scarfId));
    expect(deleted.response.status).toBe(204);
    expect((await typed(parent).GET(ITEM, item(scarfId))).response.status).toBe(404);

    // Delta sync: only what changed since, and the tombstone of what was deleted.
    const delta = await typed(parent).GET('/api/v1/households/{id}/wardrobe/items', {
      params: { path: { id: householdId }, query: { updatedSince: syncedAt } },
    });
    expect(delta.response.status).toBe(200);
    expect(delta.data?.items.map((i) => i.itemId)).toEqual([shirtId]);
    expect(delta.data?.deletedItemIds).toEqual([scarfId]);
    expect(delta.data!.syncedAt >= syncedAt).toBe(true);
    const changed = await client.api(h('/wardrobe/items'), {
      token: parent.token,
      headers: { 'if-none-match': listTag },
    });
    expect(changed.status).toBe(200);

    made.itemId = shirt.body.itemId;
  });
});

describe('images, curation, outfits, feed and collections', () => {
  const png = UPLOADED_PNG;

  it('uploads a real PNG through the signed URL via the gateway and confirms it once', async () => {
    const url = await client.api(h(`/wardrobe/items/${made.itemId}/upload-url`), {
      method: 'POST',
      token: parent.token,
      body: { contentType: 'image/png', fileName: 'shirt.png' },
    });
    expect(url.status).toBe(200);
    expect(url.body).toMatchObject({
      imageId: expect.stringMatching(/^img_/),
      method: 'PUT',
      uploadUrl: expect.stringContaining(`${client.baseUrl}/api/v1/uploads/`),
    });
    const { imageId, uploadUrl, headers } = url.body;
    const confirm = () =>
      client.api(h(`/wardrobe/items/${made.itemId}/images/${imageId}/confirm`), {
        method: 'POST',
        token: parent.token,
      });

    const early = await confirm();
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ error: 'BAD_REQUEST', message: 'No image bytes have been uploaded yet' });

    const put = (target: string, body: Uint8Array, contentType = 'image/png') =>
      fetch(target, { method: 'PUT', headers: { ...headers, 'content-type': contentType }, body });
    const tampered = new URL(uploadUrl);
    tampered.searchParams.set('sig', `${tampered.searchParams.get('sig')?.slice(0, -2)}xx`);
    const forged = await put(tampered.toString(), png);
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: 'FORBIDDEN', message: 'Upload URL signature is invalid' });
    const notAnImage = await put(uploadUrl, new TextEncoder().encode('hello'), 'text/plain');
    expect(notAnImage.status).toBe(415);
    const empty = await put(uploadUrl, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: 'BAD_REQUEST', message: 'Upload body is empty' });
    const tooBig = await put(uploadUrl, new Uint8Array(70_000));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({
      error: 'PAYLOAD_TOO_LARGE',
      message: 'Upload is larger than 65536 bytes',
    });
    expect((await confirm()).status).toBe(400); // nothing was stored by the refused uploads

    const uploaded = await put(uploadUrl, png);
    expect(uploaded.status).toBe(200);
    const sha256 = createHash('sha256').update(png).digest('hex');
    expect(await uploaded.json()).toEqual({ size: png.length, contentType: 'image/png', sha256 });

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
    const refused = await client.api(h(`/wardrobe/items/${noImage.body.itemId}/curate`), {
      method: 'POST',
      token: parent.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'BAD_REQUEST', message: 'The item has no confirmed image yet' });

    const curated = await client.api(h(`/wardrobe/items/${made.itemId}/curate`), {
      method: 'POST',
      token: parent.token,
    });
    expect(curated.status).toBe(200);
    expect(curated.body.itemId).toBe(made.itemId);
    expect(curated.body.looks.length).toBeGreaterThan(0);
    // No shoes in the wardrobe and no offers yet: the looks say so.
    expect(curated.body.offers).toBe('NONE_FOUND');
    for (const look of curated.body.looks) {
      expect(look.anchorItemId).toBe(made.itemId);
      expect(look.why.length).toBeGreaterThan(0);
    }

    const items = (await client.api(h('/wardrobe/items'), { token: parent.token })).body.items as Json[];
    const chinos = items.find((i) => i.category === 'BOTTOM')!;
    const manual = await client.api(h('/wardrobe/outfits'), {
      method: 'POST',
      token: parent.token,
      body: { name: 'Beach day', itemIds: [made.itemId, chinos.itemId] },
    });
    expect(manual.status).toBe(201);
    expect(manual.body).toMatchObject({ source: 'MANUAL', itemIds: [made.itemId, chinos.itemId] });
    const suggested = await client.api(h('/wardrobe/outfits'), {
      method: 'POST',
      token: parent.token,
      body: { anchorItemId: made.itemId },
    });
    expect(suggested.status).toBe(201);
    expect(suggested.body.source).toBe('CURATED');
    expect(suggested.body.itemIds).toContain(made.itemId);
    expect(suggested.body.why.length).toBeGreaterThan(0);

    const collection = await client.api(h('/wardrobe/feed/collections'), {
      method: 'POST',
      token: adult.token,
      body: { name: 'Summer picks' },
    });
    expect(collection.status).toBe(201);
    expect(collection.body).toMatchObject({ collectionId: expect.stringMatching(/^col_/), entries: [] });
    const unnamed = await client.api(h('/wardrobe/feed/collections'), {
      method: 'POST',
      token: adult.token,
      body: {},
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error).toBe('VALIDATION_ERROR');
    const entry = await client.api(h(`/wardrobe/feed/collections/${collection.body.collectionId}/entries`), {
      method: 'POST',
      token: adult.token,
      body: { type: 'OUTFIT', id: manual.body.outfitId },
    });
    expect(entry.status).toBeLessThan(300);

    const feed = await client.api(h('/wardrobe/feed'), { token: adult.token });
    expect(feed.status).toBe(200);
    const kinds = new Set(feed.body.entries.map((e: Json) => e.type));
    expect([...kinds]).toEqual(expect.arrayContaining(['ITEM', 'OUTFIT', 'COLLECTION']));
    expect(feed.body.unavailableSources).toEqual([]);
    const cached = await client.api(h('/wardrobe/feed'), {
      token: adult.token,
      headers: { 'if-none-match': feed.headers.get('etag')! },
    });
    expect(cached.status).toBe(304);
    const outfitsOnly = await client.api(h('/wardrobe/feed?source=OUTFITS'), { token: adult.token });
    expect(new Set(outfitsOnly.body.entries.map((e: Json) => e.type))).toEqual(new Set(['OUTFIT']));
    const badSource = await client.api(h('/wardrobe/feed?source=PINTEREST'), { token: adult.token });
    expect(badSource.status).toBe(400);
    expect(badSource.body.error).toBe('VALIDATION_ERROR');

    made.outfitId = manual.body.outfitId;
    made.collectionId = collection.body.collectionId;
  });
});

describe('offers', () => {
  const offer = (title: string, price: number, extra: Record<string, unknown> = {}) => ({
    title,
    price,
    currency: 'EUR',
    url: `https://shop.zalando.de/${encodeURIComponent(title)}`,
    ...extra,
  });
  const search = async (query: string) =>
    ((await client.api(h(`/offers?${query}`), { token: parent.token })).body.items as Json[]).map(
      (o) => o.title,
    );

  it('are created one by one or in an all-or-nothing bulk, change status, are deleted, and are searched', async () => {
    const single = await client.api(h('/offers'), {
      method: 'POST',
      token: parent.token,
      body: offer('Blue linen shirt', 45, {
        category: 'TOP',
        colors: ['blue'],
        season: ['SUMMER'],
        sizes: ['M'],
      }),
    });
    expect(single.status).toBe(201);
    expect(single.body).toMatchObject({
      offerId: expect.stringMatching(/^off_/),
      merchantDomain: 'shop.zalando.de',
      status: 'ACTIVE',
    });
    const loopbackShop = await client.api(h('/offers'), {
      method: 'POST',
      token: parent.token,
      body: { ...offer('Sneaky', 10), url: 'http://127.0.0.1/admin' },
    });
    expect(loopbackShop.status).toBe(400);
    expect(loopbackShop.body).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'URL must use a domain name, not an IP address',
    });

    const halfBad = await client.api(h('/offers/bulk'), {
      method: 'POST',
      token: parent.token,
      body: { offers: [offer('Fine dress', 70), { ...offer('Bad dress', 70), url: 'https://localhost/x' }] },
    });
    expect(halfBad.status).toBe(400);
    expect(halfBad.body).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'offers[1]: URL must have a valid public domain name',
    });
    expect(await search('query=dress')).toEqual([]); // all or nothing

    const bulk = await client.api(h('/offers/bulk'), {
      method: 'POST',
      token: parent.token,
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
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.items).toHaveLength(5);

    expect(await search('maxPrice=50&season=SUMMER&currency=EUR')).toEqual([
      'Cotton tee',
      'Blue linen shirt',
    ]);
    expect(await search('colors=blue&category=TOP')).toEqual(['Cotton tee', 'Blue linen shirt']);
    expect(await search('query=linen')).toEqual(['Blue linen shirt']);
    expect(await search('size=M')).toEqual(['Blue linen shirt', 'Silk blouse']);
    expect(await search('minPrice=90')).toEqual(['Silk blouse', 'Wool parka']);
    expect(await search('currency=USD')).toEqual(['Denim shorts']);
    const firstPage = await client.api(h('/offers?limit=2'), { token: parent.token });
    expect(firstPage.body.items).toHaveLength(2);
    const secondPage = await client.api(
      h(`/offers?limit=2&cursor=${encodeURIComponent(firstPage.body.nextCursor)}`),
      {
        token: parent.token,
      },
    );
    expect([...firstPage.body.items, ...secondPage.body.items].map((o: Json) => o.title)).toEqual([
      'Cotton tee',
      'Denim shorts',
      'Blue linen shirt',
      'White sneakers',
    ]);

    const parka = bulk.body.items.find((o: Json) => o.title === 'Wool parka');
    const inactive = await client.api(h(`/offers/${parka.offerId}/status`), {
      method: 'PATCH',
      token: parent.token,
      body: { status: 'INACTIVE' },
    });
    expect(inactive.status).toBe(200);
    expect(inactive.body.status).toBe('INACTIVE');
    expect(await search('category=OUTERWEAR')).toEqual([]);
    expect(await search('status=INACTIVE')).toEqual(['Wool parka']);

    const removed = await client.api(h(`/offers/${parka.offerId}`), {
      method: 'DELETE',
      token: parent.token,
    });
    expect(removed.status).toBe(204);
    const gone = await client.api(h(`/offers/${parka.offerId}`), { token: parent.token });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('NOT_FOUND');

    // The wardrobe feed shows the household's active offers.
    const feed = await client.api(h('/wardrobe/feed?source=OFFERS'), { token: parent.token });
    expect(feed.body.entries.map((e: Json) => e.offer.title)).toContain('Blue linen shirt');
    // Curation now fills the wardrobe's missing shoes with the active offer.
    const curated = await client.api(h(`/wardrobe/items/${made.itemId}/curate`), {
      method: 'POST',
      token: parent.token,
    });
    expect(curated.body.offers).toBe('INCLUDED');
    const sneakers = bulk.body.items.find((o: Json) => o.title === 'White sneakers');
    expect(curated.body.looks.some((l: Json) => l.offerIds.includes(sneakers.offerId))).toBe(true);
    made.offerId = single.body.offerId;
  });
});

describe('virtual try-on', () => {
  const jobs = (household = householdId) => h('/vto/jobs', household);
  const job = (jobId: string) =>
    eventually(
      () => client.api(`${jobs()}/${jobId}`, { token: parent.token }),
      (r) => r.body.status === 'SUCCEEDED' || r.body.status === 'FAILED',
    );

  it('composes a real preview from the uploaded wardrobe picture with the inline backend', async () => {
    const missing = await client.api(jobs(), {
      method: 'POST',
      token: parent.token,
      body: { personImageRef: made.imageRef },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'BAD_REQUEST', message: 'garmentImageRef is required' });
    const stranger = await client.api(jobs(), {
      method: 'POST',
      token: parent.token,
      body: { personImageRef: made.imageRef, garmentImageRef: made.imageRef, memberId: outsider.userId },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toEqual({ error: 'BAD_REQUEST', message: 'User is not a household member' });

    const queued = await client.api(jobs(), {
      method: 'POST',
      token: adult.token,
      body: { personImageRef: made.imageRef, garmentImageRef: made.imageRef },
    });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      jobId: expect.stringMatching(/^vto_/),
      memberId: adult.userId,
      status: 'QUEUED',
      backend: 'inline',
    });
    const done = await job(queued.body.jobId);
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', error: null, resultImageRef: expect.any(String) });

    const picture = await fetch(`${client.baseUrl}${jobs()}/${queued.body.jobId}/result`, {
      headers: { authorization: `Bearer ${adult.token}` },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    const preview = readPng(Buffer.from(await picture.arrayBuffer()));
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
      const queued = await client.api(jobs(), {
        method: 'POST',
        token: parent.token,
        body: { personImageRef: made.imageRef, garmentImageRef: made.imageRef },
      });
      expect(queued.body.backend).toBe('http');
      const done = await job(queued.body.jobId);
      expect(done.body.status).toBe('SUCCEEDED');
      const picture = await fetch(`${client.baseUrl}${jobs()}/${queued.body.jobId}/result`, {
        headers: { authorization: `Bearer ${parent.token}` },
      });
      expect(Buffer.from(await picture.arrayBuffer()).equals(answer)).toBe(true);

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
    const queued = await client.api(jobs(), {
      method: 'POST',
      token: parent.token,
      body: { personImageRef: made.imageRef, garmentImageRef: made.imageRef },
    });
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
    const noPicture = await client.api(`${jobs()}/${queued.body.jobId}/result`, { token: parent.token });
    expect(noPicture.status).toBe(409);
    expect(noPicture.body).toEqual({
      error: 'CONFLICT',
      message: 'Try-on job is FAILED; only a SUCCEEDED job has a result',
    });
    // The earlier job, kept in the sqlite store, is still there for the new process.
    expect((await client.api(`${jobs()}/${made.vtoJobId}`, { token: parent.token })).body.status).toBe(
      'SUCCEEDED',
    );
  });
});

describe('another household', () => {
  it('sees 404 for every one of those resources, and 403 for the household itself', async () => {
    const as = (method: string, path: string, body?: unknown) =>
      client.api(h(path, outsiderHouseholdId), { method, token: outsider.token, body });
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/wardrobe/items/${made.itemId}`],
      ['PATCH', `/wardrobe/items/${made.itemId}`, { tags: ['mine'] }],
      ['DELETE', `/wardrobe/items/${made.itemId}`],
      ['POST', `/wardrobe/items/${made.itemId}/upload-url`, { contentType: 'image/png' }],
      ['POST', `/wardrobe/items/${made.itemId}/images/${made.imageId}/confirm`],
      ['POST', `/wardrobe/items/${made.itemId}/curate`],
      ['GET', `/wardrobe/outfits/${made.outfitId}`],
      ['GET', `/wardrobe/feed/collections/${made.collectionId}`],
      ['GET', `/offers/${made.offerId}`],
      ['PATCH', `/offers/${made.offerId}/status`, { status: 'ARCHIVED' }],
      ['DELETE', `/offers/${made.offerId}`],
      ['GET', `/vto/jobs/${made.vtoJobId}`],
      ['GET', `/vto/jobs/${made.vtoJobId}/result`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await as(method, path, body);
      expect({ method, path, status: res.status, error: res.body?.error }).toEqual({
        method,
        path,
        status: 404,
        error: 'NOT_FOUND',
      });
    }
    const outfitWithTheirItem = await as('POST', '/wardrobe/outfits', { itemIds: [made.itemId] });
    expect(outfitWithTheirItem.status).toBe(404);
    const tryOnTheirPicture = await as('POST', '/vto/jobs', {
      personImageRef: made.imageRef,
      garmentImageRef: made.imageRef,
    });
    expect(tryOnTheirPicture.status).toBe(400);
    expect(tryOnTheirPicture.body).toEqual({
      error: 'BAD_REQUEST',
      message: `personImageRef must point to this household's storage (households/${outsiderHouseholdId}/...)`,
    });
    const lists = await Promise.all([
      as('GET', '/wardrobe/items'),
      as('GET', '/offers'),
      as('GET', '/vto/jobs'),
      as('GET', '/wardrobe/feed'),
    ]);
    expect(lists.map((l) => l.body.items ?? l.body.entries)).toEqual([[], [], [], []]);

    const intoTheirHousehold = await client.api(h(`/wardrobe/items/${made.itemId}`), {
      token: outsider.token,
    });
    expect(intoTheirHousehold.status).toBe(403);
    expect(intoTheirHousehold.body).toEqual({
      error: 'FORBIDDEN',
      message: 'User is not a household member',
    });

    // Nothing of theirs changed.
    const still = await client.api(h(`/offers/${made.offerId}`), { token: parent.token });
    expect(still.body.status).toBe('ACTIVE');
    const item = await client.api(h(`/wardrobe/items/${made.itemId}`), { token: parent.token });
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
    const curate = await client.api(h(`/wardrobe/items/${made.itemId}/curate`), {
      method: 'POST',
      token: parent.token,
    });
    expect({ status: curate.status, body: curate.body }).toEqual({ status: 503, body: disabled });
    const suggested = await client.api(h('/wardrobe/outfits'), {
      method: 'POST',
      token: parent.token,
      body: { anchorItemId: made.itemId },
    });
    expect({ status: suggested.status, body: suggested.body }).toEqual({ status: 503, body: disabled });
    const manual = await client.api(h('/wardrobe/outfits'), {
      method: 'POST',
      token: parent.token,
      body: { itemIds: [made.itemId] },
    });
    expect(manual.status).toBe(201);

    const elsewhere = await client.api(h('/offers'), {
      method: 'POST',
      token: parent.token,
      body: { title: 'Elsewhere tee', price: 15, currency: 'EUR', url: 'https://www.asos.com/tee' },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({
      error: 'POLICY_VIOLATION',
      message: 'Domain www.asos.com is not on the allowlist',
    });
    const subdomain = await client.api(h('/offers'), {
      method: 'POST',
      token: parent.token,
      body: { title: 'Allowed tee', price: 15, currency: 'EUR', url: 'https://shop.zalando.de/tee' },
    });
    expect(subdomain.status).toBe(201);
  });
});
