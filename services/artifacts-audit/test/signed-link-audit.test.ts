// A recording's signed link is fetched without an account by whoever holds it. Its fetches are
// recorded in the household's audit log once per link, so a link passed around (or replayed in a
// loop) cannot fill the family's log and the ledger's disk.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, internal, type TestApp } from './harness.ts';

let app: TestApp;
let blobs: Awaited<ReturnType<typeof buildTestApp>>['blobs'];
let clock = Date.parse('2030-01-01T00:00:00Z');
beforeEach(async () => {
  clock = Date.parse('2030-01-01T00:00:00Z');
  ({ app, blobs } = await buildTestApp({ now: () => clock }));
});
afterEach(() => app.close());

const H = '/api/v1/households/h_1';

async function contentReads(): Promise<number> {
  const res = await app.inject({
    method: 'GET',
    url: `${H}/audit?action=ARTIFACT_CONTENT_READ`,
    headers: internal,
  });
  expect(res.statusCode).toBe(200);
  return res.json().total;
}

describe('fetches through a signed recording link', () => {
  it('are recorded once per link, however often it is fetched', async () => {
    const registered = await app.inject({
      method: 'POST',
      url: `${H}/artifacts/recording`,
      headers: internal,
      payload: { missionId: 'msn_1', sessionId: 'bs_1', durationSeconds: 1, actionLog: [] },
    });
    expect(registered.statusCode).toBe(201);
    const { artifactId, data } = registered.json();
    await blobs.put(data.storagePath, new Uint8Array([1, 2, 3]), 'video/webm');

    for (let i = 0; i < 5; i++)
      expect((await app.inject({ method: 'GET', url: data.signedUrl })).statusCode).toBe(200);
    expect(await contentReads()).toBe(1);

    // A fresh link (a later read of the artifact signs one) is a new fetch to record.
    clock += 60_000;
    const read = await app.inject({ method: 'GET', url: `${H}/artifacts/${artifactId}`, headers: internal });
    const fresh = read.json().data.signedUrl;
    expect(fresh).not.toBe(data.signedUrl);
    expect((await app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
    expect(await contentReads()).toBe(2);
  });
});
