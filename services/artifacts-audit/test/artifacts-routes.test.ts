import { StorageUnavailableError } from '@hs/storage';
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

const H = '/api/v1/households';
const post = (householdId: string, kind: string, payload: object) =>
  app.inject({ method: 'POST', url: `${H}/${householdId}/artifacts/${kind}`, headers: internal, payload });
const get = (url: string, headers: Record<string, string> = internal) =>
  app.inject({ method: 'GET', url, headers });

const planRequest = {
  missionId: 'msn_1',
  missionType: 'STYLE',
  goal: 'A summer wedding outfit',
  constraints: { maxPrice: 80, season: 'summer' },
  contextData: { wardrobeItemCount: 12 },
};
const recording = {
  missionId: 'msn_1',
  sessionId: 'bs_1',
  durationSeconds: 42.5,
  actionLog: [{ type: 'NAVIGATE', url: 'https://shop.test' }],
};

describe('mission plan', () => {
  it('creates a MissionPlan artifact and writes its data to storage', async () => {
    const res = await post('h_1', 'mission-plan', planRequest);
    expect(res.statusCode).toBe(201);
    const artifact = res.json();
    expect(artifact).toMatchObject({ householdId: 'h_1', missionId: 'msn_1', type: 'MissionPlan' });
    expect(artifact.artifactId).toMatch(/^art_/);
    expect(artifact.storagePath).toBe(
      `households/h_1/missions/msn_1/MissionPlan/${artifact.artifactId}.json`,
    );
    expect(Object.keys(artifact.data)).toEqual([
      'goal',
      'constraints',
      'steps',
      'toolCallsExpected',
      'stopConditions',
      'assumptions',
    ]);
    expect(artifact.data.constraints).toEqual({ maxPrice: 80, season: 'SUMMER' });
    const stored = blobs.objects.get(artifact.storagePath);
    expect(stored?.info.contentType).toBe('application/json');
    expect(JSON.parse(new TextDecoder().decode(stored?.bytes))).toEqual(artifact.data);
  });

  it('gives the same data for the same request, in any household', async () => {
    const a = (await post('h_1', 'mission-plan', planRequest)).json();
    const b = (await post('h_2', 'mission-plan', planRequest)).json();
    expect(b.data).toEqual(a.data);
    expect(b.artifactId).not.toBe(a.artifactId);
  });

  it('answers 409 for a second plan of the same mission and keeps the first', async () => {
    const first = (await post('h_1', 'mission-plan', planRequest)).json();
    const again = await post('h_1', 'mission-plan', { ...planRequest, goal: 'Something else' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'CONFLICT',
      message: 'An artifact of type MissionPlan already exists for mission msn_1',
    });
    expect((await get(`${H}/h_1/artifacts/${first.artifactId}`)).json().data.goal).toBe(
      'A summer wedding outfit',
    );
    expect(blobs.objects.size).toBe(1);
  });

  it('lets exactly one of two concurrent plans for a mission win', async () => {
    const results = await Promise.all([
      post('h_1', 'mission-plan', planRequest),
      post('h_1', 'mission-plan', planRequest),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(blobs.objects.size).toBe(1);
  });

  it('answers 422 with details for an unknown mission type and a negative maxPrice', async () => {
    const res = await post('h_1', 'mission-plan', {
      ...planRequest,
      missionType: 'SHOPPING',
      constraints: { maxPrice: -1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'missionType'],
      ['body', 'constraints', 'maxPrice'],
    ]);
  });

  it('answers 502 and stores nothing when blob storage is down', async () => {
    blobs.failWrites = true;
    const res = await post('h_1', 'mission-plan', planRequest);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'UPSTREAM_ERROR', message: 'Artifact storage is unavailable' });
    blobs.failWrites = false;
    expect((await get(`${H}/h_1/missions/msn_1/artifacts`)).json()).toEqual([]);
    expect((await post('h_1', 'mission-plan', planRequest)).statusCode).toBe(201);
  });

  it('answers 503 naming the cause and stores nothing when the local disk is full', async () => {
    const put = blobs.put.bind(blobs);
    blobs.put = async () => {
      throw new StorageUnavailableError('ENOSPC', 'Blob storage is full: nothing was saved');
    };
    const res = await post('h_1', 'mission-plan', planRequest);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error: 'SERVICE_UNAVAILABLE',
      message: 'Blob storage is full: nothing was saved (ENOSPC); try again later',
    });
    blobs.put = put;
    expect((await get(`${H}/h_1/missions/msn_1/artifacts`)).json()).toEqual([]);
    expect((await post('h_1', 'mission-plan', planRequest)).statusCode).toBe(201);
  });
});

describe('outcome summary', () => {
  const summary = {
    missionId: 'msn_1',
    finalState: 'DONE',
    totalTurns: 6,
    toolCallsMade: 4,
    keyDecisions: ['Chose linen over silk for the heat'],
    resultItems: [{ offerId: 'off_1', title: 'Linen shirt', price: 49 }],
  };

  it('stores the outcome and refuses a second one for the mission', async () => {
    const res = await post('h_1', 'outcome-summary', summary);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({
      finalState: 'DONE',
      totalTurns: 6,
      toolCallsMade: 4,
      keyDecisions: ['Chose linen over silk for the heat'],
      resultItems: [{ offerId: 'off_1', title: 'Linen shirt', price: 49 }],
    });
    const again = await post('h_1', 'outcome-summary', summary);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'CONFLICT',
      message: 'An artifact of type OutcomeSummary already exists for mission msn_1',
    });
  });

  it('answers 422 for a finalState that is not terminal', async () => {
    const res = await post('h_1', 'outcome-summary', { ...summary, finalState: 'RUNNING' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'finalState']);
  });
});

describe('transcript', () => {
  it('orders entries by time and flags voice', async () => {
    const res = await post('h_1', 'transcript', {
      missionId: 'msn_1',
      entries: [
        {
          role: 'model',
          content: 'Here are three options',
          source: 'text',
          createdAt: '2030-01-01T10:00:05Z',
        },
        { role: 'user', content: 'Find me sandals', source: 'voice', createdAt: '2030-01-01T10:00:00Z' },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({
      missionId: 'msn_1',
      entries: [
        { role: 'user', content: 'Find me sandals', source: 'voice', createdAt: '2030-01-01T10:00:00Z' },
        {
          role: 'model',
          content: 'Here are three options',
          source: 'text',
          createdAt: '2030-01-01T10:00:05Z',
        },
      ],
      totalMessages: 2,
      hasVoice: true,
    });
  });

  it('has hasVoice false for a text-only history and refuses a second transcript', async () => {
    const body = {
      missionId: 'msn_2',
      entries: [{ role: 'user', content: 'hi', createdAt: '2030-01-01T10:00:00Z' }],
    };
    const res = await post('h_1', 'transcript', body);
    expect(res.json().data).toMatchObject({
      totalMessages: 1,
      hasVoice: false,
      entries: [{ source: 'text' }],
    });
    expect((await post('h_1', 'transcript', body)).statusCode).toBe(409);
  });

  it('answers 422 for an entry with an unknown source', async () => {
    const res = await post('h_1', 'transcript', {
      missionId: 'msn_1',
      entries: [{ role: 'user', content: 'hi', source: 'telepathy', createdAt: '2030-01-01T10:00:00Z' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].loc).toEqual(['body', 'entries', 0, 'source']);
  });
});

describe('recording', () => {
  it('registers a recording with a default storage path and a signed link to its content', async () => {
    const res = await post('h_1', 'recording', recording);
    expect(res.statusCode).toBe(201);
    const artifact = res.json();
    expect(artifact.data).toMatchObject({
      sessionId: 'bs_1',
      storagePath: 'households/h_1/missions/msn_1/recordings/bs_1.webm',
      durationSeconds: 42.5,
      actionLog: [{ type: 'NAVIGATE', url: 'https://shop.test' }],
    });
    expect(artifact.data.signedUrl).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:8080/api/v1/households/h_1/artifacts/${artifact.artifactId}/content\\?expires=\\d+&signature=`,
      ),
    );

    await blobs.put(
      'households/h_1/missions/msn_1/recordings/bs_1.webm',
      new Uint8Array([1, 2, 3]),
      'video/webm',
    );
    const content = await get(artifact.data.signedUrl, {});
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toBe('video/webm');
    expect([...content.rawPayload]).toEqual([1, 2, 3]);
  });

  it('refuses a tampered or expired link with 403', async () => {
    const { data } = (await post('h_1', 'recording', recording)).json();
    const tampered = await get(data.signedUrl.replace('signature=', 'signature=x'), {});
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toEqual({ error: 'FORBIDDEN', message: 'Invalid or expired signature' });
    clock += 2 * 3600 * 1000;
    expect((await get(data.signedUrl, {})).statusCode).toBe(403);
  });

  it('refuses a link cut short (no signature, no expires, either malformed) with 403, not 422', async () => {
    const { data } = (await post('h_1', 'recording', recording)).json();
    const url = new URL(data.signedUrl);
    const bare = url.pathname;
    const expires = url.searchParams.get('expires')!;
    const signature = url.searchParams.get('signature')!;
    for (const query of [
      '',
      `?expires=${expires}`,
      `?signature=${signature}`,
      `?expires=soon&signature=${signature}`,
      `?expires=${expires}&signature=`,
      `?expires=${expires}&signature=${'a'.repeat(200)}`,
      `?expires=${'9'.repeat(25)}&signature=${signature}`,
      `?expires=${expires}&expires=${expires}&signature=${signature}`,
      `?expires=${expires}&signature=${signature}&signature=${signature}`,
    ]) {
      const res = await get(`${url.origin}${bare}${query}`, {});
      expect(res.statusCode, query).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Invalid or expired signature' });
    }
  });

  it('answers 404 through a valid link when the content was never uploaded', async () => {
    const { data } = (await post('h_1', 'recording', recording)).json();
    const res = await get(data.signedUrl, {});
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Recording content not found' });
  });

  it('allows one recording per session, even from another mission', async () => {
    expect((await post('h_1', 'recording', recording)).statusCode).toBe(201);
    const again = await post('h_1', 'recording', { ...recording, missionId: 'msn_2' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'CONFLICT',
      message: 'A BrowserRecording already exists for session bs_1',
    });
    expect((await post('h_1', 'recording', { ...recording, sessionId: 'bs_2' })).statusCode).toBe(201);
  });

  it("refuses a storage path outside the household's folder with 422", async () => {
    for (const storagePath of ['households/h_2/rec.webm', 'households/h_1/../h_2/rec.webm', '/etc/passwd']) {
      const res = await post('h_1', 'recording', { ...recording, storagePath });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [
          {
            loc: ['body', 'storagePath'],
            msg: 'Must be a relative key under households/h_1/',
            type: 'custom',
          },
        ],
      });
    }
  });
});

describe('reading artifacts', () => {
  it("answers 404 for a missing artifact and for another household's", async () => {
    const { artifactId } = (await post('h_1', 'mission-plan', planRequest)).json();
    for (const url of [`${H}/h_1/artifacts/art_missing`, `${H}/h_2/artifacts/${artifactId}`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'NOT_FOUND', message: 'Artifact not found' });
    }
    expect((await get(`${H}/h_1/artifacts/${artifactId}`)).statusCode).toBe(200);
  });

  it("lists a mission's artifacts oldest first, filtered by artifact_type, never another household's", async () => {
    await post('h_1', 'mission-plan', planRequest);
    await post('h_1', 'recording', recording);
    await post('h_2', 'mission-plan', planRequest);
    const all = (await get(`${H}/h_1/missions/msn_1/artifacts`)).json();
    expect(all.map((a: { type: string }) => a.type)).toEqual(['MissionPlan', 'BrowserRecording']);
    expect(all.every((a: { householdId: string }) => a.householdId === 'h_1')).toBe(true);
    const plans = (await get(`${H}/h_1/missions/msn_1/artifacts?artifact_type=BrowserRecording`)).json();
    expect(plans).toHaveLength(1);
    expect(plans[0].data.signedUrl).toContain('signature=');
    const bad = await get(`${H}/h_1/missions/msn_1/artifacts?artifact_type=Poem`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0].loc).toEqual(['querystring', 'artifact_type']);
  });

  it('requires the internal token', async () => {
    const res = await get(`${H}/h_1/missions/msn_1/artifacts`, {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: 'Missing or invalid internal token' });
  });
});

describe('OpenAPI', () => {
  it('documents every route of the service', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/households/{id}/artifacts/mission-plan',
      '/api/v1/households/{id}/artifacts/outcome-summary',
      '/api/v1/households/{id}/artifacts/recording',
      '/api/v1/households/{id}/artifacts/transcript',
      '/api/v1/households/{id}/artifacts/{artifactId}',
      '/api/v1/households/{id}/artifacts/{artifactId}/content',
      '/api/v1/households/{id}/audit',
      '/api/v1/households/{id}/audit/events',
      '/api/v1/households/{id}/audit/verify',
      '/api/v1/households/{id}/missions/{mId}/artifacts',
      '/api/v1/households/{id}/missions/{mId}/artifacts/audit-log',
      '/api/v1/households/{id}/missions/{mId}/audit',
      '/health',
      '/ready',
    ]);
  });
});
