import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_MESSAGE } from '../src/domain/try-on-failure.ts';
import {
  ALICE,
  BOB,
  buildTestApp,
  garmentKey,
  HH,
  MALLORY,
  OTHER_HH,
  personKey,
  type TestApp,
} from './helpers.ts';

const refs = { personImageRef: `local://${personKey()}`, garmentImageRef: `local://${garmentKey()}` };

describe('try-on jobs (simulated backend, the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('queues a job (202) and it ends FAILED with the simulated-result explanation', async () => {
    const res = await t.submit({ ...refs, memberId: BOB });
    expect(res.statusCode).toBe(202);
    const job = res.json();
    expect(res.headers.location).toBe(`/api/v1/households/${HH}/vto/jobs/${job.jobId}`);
    expect(job).toMatchObject({
      householdId: HH,
      memberId: BOB,
      ...refs,
      status: 'QUEUED',
      resultImageRef: null,
      error: null,
      backend: 'simulated',
      attempts: 0,
    });
    expect(job.jobId).toMatch(/^vto_/);
    expect(job).not.toHaveProperty('workerId');

    const done = await t.waitForJob(job.jobId);
    expect(done.status).toBe('FAILED');
    expect(done.error).toEqual({ code: 'SIMULATED_RESULT', message: SIMULATED_MESSAGE });
    expect(done.error?.message).toContain('VTO_INFERENCE_BACKEND=inline');
    expect(done.attempts).toBe(1);
    expect(done.resultImageRef).toBeNull();
  });

  it('memberId defaults to the caller', async () => {
    const res = await t.submit(refs, HH, BOB);
    expect(res.statusCode).toBe(202);
    expect(res.json().memberId).toBe(BOB);
  });

  it.each([
    [{ garmentImageRef: refs.garmentImageRef }, 'personImageRef is required'],
    [{ personImageRef: refs.personImageRef }, 'garmentImageRef is required'],
    [{ ...refs, personImageRef: '  ' }, 'personImageRef is required'],
    [{}, 'personImageRef is required'],
  ])('missing image refs are 400 BAD_REQUEST (%j)', async (body, message) => {
    const res = await t.submit(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'BAD_REQUEST', message });
  });

  it('a request without any body is missing both refs: 400 BAD_REQUEST, not a schema error', async () => {
    for (const extra of [{}, { 'content-type': 'application/json' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/households/${HH}/vto/jobs`,
        headers: { ...t.headers(), ...extra },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'BAD_REQUEST', message: 'personImageRef is required' });
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const body =
      doc.paths['/api/v1/households/{id}/vto/jobs'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('personImageRef');
  });

  it.each([
    ['http://example.com/p.png', 'personImageRef must be a local:// reference or an https URL'],
    ['ftp://example.com/p.png', 'personImageRef must be a local:// reference or an https URL'],
    ['gs://other-bucket/households/h_alpha/p.png', "personImageRef is not in this service's storage"],
    [
      `local://${personKey(OTHER_HH)}`,
      "personImageRef must point to this household's storage (households/h_alpha/...)",
    ],
    ['local://households/h_alpha/../h_beta/x', 'personImageRef is not a valid storage key'],
    ['https://user:pw@example.com/p.png', 'personImageRef must not carry credentials'],
  ])('an unaccepted image reference is 400 BAD_REQUEST (%s)', async (personImageRef, message) => {
    const res = await t.submit({ ...refs, personImageRef });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'BAD_REQUEST', message });
  });

  it('a wrongly typed field is 400 VALIDATION_ERROR with details', async () => {
    const res = await t.submit({ ...refs, personImageRef: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ loc: ['body', 'personImageRef'] }],
    });
  });

  it('a memberId that is not a household member is 400 BAD_REQUEST (asked of the gateway)', async () => {
    const before = t.gateway.calls.length;
    const res = await t.submit({ ...refs, memberId: MALLORY });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'BAD_REQUEST', message: 'User is not a household member' });
    expect(t.gateway.calls.slice(before).map((c) => c.url)).toEqual([
      `/api/v1/internal/households/${HH}/members`,
    ]);
  });

  it('a job of a household the gateway does not know is 404', async () => {
    const res = await t.submit(
      {
        ...refs,
        personImageRef: `local://${personKey('h_ghost')}`,
        garmentImageRef: `local://${garmentKey('h_ghost')}`,
      },
      'h_ghost',
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Household not found' });
  });

  it('a missing job and another household’s job are both 404', async () => {
    const missing = await t.get('vto_doesnotexist');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'NOT_FOUND', message: 'Try-on job not found' });

    const theirs = await t.submit(
      {
        personImageRef: `local://${personKey(OTHER_HH)}`,
        garmentImageRef: `local://${garmentKey(OTHER_HH)}`,
      },
      OTHER_HH,
      MALLORY,
    );
    expect(theirs.statusCode).toBe(202);
    const jobId = theirs.json().jobId;
    const peek = await t.get(jobId, HH, ALICE);
    expect(peek.statusCode).toBe(404);
    expect(peek.json()).toEqual({ error: 'NOT_FOUND', message: 'Try-on job not found' });
    const result = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs/${jobId}/result`,
      headers: t.headers(),
    });
    expect(result.statusCode).toBe(404);
  });

  it('lists the household’s jobs newest first, with paging, and none of another household’s', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await t.submit(refs)).json().jobId);
      await new Promise((r) => setTimeout(r, 5));
    }
    const first = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs?limit=2`,
      headers: t.headers(),
    });
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.items.map((j: { jobId: string }) => j.jobId)).toEqual([ids[2], ids[1]]);
    expect(page.nextCursor).toEqual(expect.any(String));
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs?limit=50&cursor=${encodeURIComponent(page.nextCursor)}`,
      headers: t.headers(),
    });
    const rest = second.json().items as Array<{ jobId: string; householdId: string }>;
    expect(rest[0]!.jobId).toBe(ids[0]);
    expect(rest.every((j) => j.householdId === HH)).toBe(true);

    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs?cursor=nonsense`,
      headers: t.headers(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'BAD_REQUEST', message: 'cursor is not valid for this list' });
  });

  it('the result of a job without one is 409 CONFLICT', async () => {
    const jobId = (await t.submit(refs)).json().jobId;
    await t.waitForJob(jobId);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs/${jobId}/result`,
      headers: t.headers(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'CONFLICT',
      message: 'Try-on job is FAILED; only a SUCCEEDED job has a result',
    });
  });

  it('refuses calls without the internal token (403)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs`,
      headers: { 'x-user-id': ALICE },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
  });
});

describe('try-on jobs per household', () => {
  it('refuses a household more jobs queued or running than VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD (429), never another household', async () => {
    // No worker: the jobs stay queued.
    const t = await buildTestApp({ VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '2' }, { background: false });
    try {
      expect((await t.submit(refs)).statusCode).toBe(202);
      expect((await t.submit(refs)).statusCode).toBe(202);
      const third = await t.submit(refs);
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(third.json()).toEqual({
        error: 'RATE_LIMITED',
        message: 'This household already has 2 try-ons queued or running; try again when one is done',
      });
      const listed = await t.app.inject({
        method: 'GET',
        url: `/api/v1/households/${HH}/vto/jobs`,
        headers: t.headers(),
      });
      expect(listed.json().items).toHaveLength(2);
      const otherRefs = {
        personImageRef: `local://${personKey(OTHER_HH)}`,
        garmentImageRef: `local://${garmentKey(OTHER_HH)}`,
      };
      expect((await t.submit(otherRefs, OTHER_HH, MALLORY)).statusCode).toBe(202);
    } finally {
      await t.close();
    }
  });
});
