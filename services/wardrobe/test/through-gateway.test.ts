// Real processes: gateway, wardrobe and commerce on loopback ports, talking HTTP. The upload
// goes to the signed URL the wardrobe hands out, which points at the gateway.
import { type RunningStack, startStack } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from './helpers.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startStack({ services: ['gateway', 'wardrobe', 'commerce'], durable: true });
});
afterAll(async () => {
  await stack?.close();
});

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${stack.url('gateway')}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

describe('wardrobe and commerce through the gateway', () => {
  it('adds an item, uploads a real PNG through the signed URL, confirms it and gets curated looks with an offer', async () => {
    const { accessToken } = (await call('POST', '/api/v1/auth/login', null, { idToken: 'alice' })).body;
    const household = await call('POST', '/api/v1/households', accessToken, { name: 'Home' });
    expect(household.status).toBe(201);
    const W = `/api/v1/households/${household.body.householdId}/wardrobe`;

    const top = await call('POST', `${W}/items`, accessToken, {
      category: 'TOP',
      colors: ['blue'],
      season: ['SUMMER'],
    });
    expect(top.status).toBe(201);
    await call('POST', `${W}/items`, accessToken, {
      category: 'BOTTOM',
      colors: ['beige'],
      season: ['SUMMER'],
    });
    const offer = await call('POST', `/api/v1/households/${household.body.householdId}/offers`, accessToken, {
      title: 'Canvas sneakers',
      url: 'https://shop.acme.com/p/1',
      price: 55,
      currency: 'EUR',
      category: 'SHOES',
      colors: ['white'],
    });
    expect(offer.status).toBe(201);

    const signed = await call('POST', `${W}/items/${top.body.itemId}/upload-url`, accessToken, {
      contentType: 'image/png',
    });
    expect(signed.status).toBe(200);
    expect(signed.body.uploadUrl.startsWith(`${stack.url('gateway')}/api/v1/uploads/`)).toBe(true);
    const tampered = await fetch(signed.body.uploadUrl.replace('sig=', 'sig=x'), {
      method: 'PUT',
      headers: signed.body.headers,
      body: PNG,
    });
    expect(tampered.status).toBe(403);
    const put = await fetch(signed.body.uploadUrl, {
      method: 'PUT',
      headers: signed.body.headers,
      body: PNG,
    });
    expect(put.status).toBe(200);

    const confirmed = await call(
      'POST',
      `${W}/items/${top.body.itemId}/images/${signed.body.imageId}/confirm`,
      accessToken,
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.images[0]).toMatchObject({
      status: 'confirmed',
      size: PNG.length,
      contentType: 'image/png',
    });
    const again = await call(
      'POST',
      `${W}/items/${top.body.itemId}/images/${signed.body.imageId}/confirm`,
      accessToken,
    );
    expect(again.status).toBe(409);

    // The app shows the picture from the path the item gives, through the gateway, as uploaded.
    const contentPath = confirmed.body.images[0].contentPath;
    expect(contentPath).toBe(`${W}/items/${top.body.itemId}/images/${signed.body.imageId}/content`);
    const picture = await fetch(`${stack.url('gateway')}${contentPath}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(PNG);
    const cached = await fetch(`${stack.url('gateway')}${contentPath}`, {
      headers: { authorization: `Bearer ${accessToken}`, 'if-none-match': picture.headers.get('etag')! },
    });
    expect(cached.status).toBe(304);
    const unsigned = await fetch(`${stack.url('gateway')}${contentPath}`);
    expect(unsigned.status).toBe(401);

    const looks = await call('POST', `${W}/items/${top.body.itemId}/curate`, accessToken);
    expect(looks.status).toBe(200);
    expect(looks.body.offers).toBe('INCLUDED');
    expect(looks.body.looks[0].offerIds).toEqual([offer.body.offerId]);

    const list = await fetch(`${stack.url('gateway')}${W}/items`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const etag = list.headers.get('etag')!;
    const notModified = await fetch(`${stack.url('gateway')}${W}/items`, {
      headers: { authorization: `Bearer ${accessToken}`, 'if-none-match': etag },
    });
    expect(notModified.status).toBe(304);

    // Another user is not a member: the gateway refuses before the wardrobe sees anything.
    const { accessToken: bob } = (await call('POST', '/api/v1/auth/login', null, { idToken: 'bob' })).body;
    const foreign = await call('GET', `${W}/items/${top.body.itemId}`, bob);
    expect(foreign.status).toBe(403);
    expect((await call('GET', contentPath, bob)).status).toBe(403);
  });
});
