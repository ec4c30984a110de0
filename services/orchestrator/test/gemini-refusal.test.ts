import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiModel } from '../src/adapters/models/gemini-model.ts';
import { TOOLS } from '../src/adapters/tools/tool-registry.ts';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { chunk, fakeAuthClient, startFakeGemini, text } from './fixtures/fake-gemini.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

process.env.METADATA_SERVER_DETECTION = 'none';

let gemini: Awaited<ReturnType<typeof startFakeGemini>>;
let peers: FakePeers;
beforeAll(async () => {
  [gemini, peers] = await Promise.all([startFakeGemini(), startFakePeers()]);
});
afterAll(async () => Promise.all([gemini.close(), peers.close()]));

const model = () =>
  createGeminiModel({
    project: 'demo-project',
    location: 'europe-west4',
    model: 'gemini-2.5-flash',
    timeoutMs: 2000,
    stream: true,
    baseUrl: gemini.url,
    tools: TOOLS,
    authClient: fakeAuthClient,
  });
const M = `/api/v1/households/${H}/orchestrator/missions`;

describe('a message the model refuses', () => {
  it('fails the turn with MODEL_REFUSED and is recorded as SAFETY_VIOLATION MESSAGE_REFUSED', async () => {
    const app = await buildTestApp(peers.url, { model: model() });
    gemini.script.push(text('Hello, what are we shopping for?'));
    const m = (
      await app.inject({
        method: 'POST',
        url: M,
        headers: as(OWNER),
        payload: { mission_type: 'STYLE', initial_message: 'hi' },
      })
    ).json();
    peers.audit.length = 0;
    gemini.script.push({ stream: [{ chunk: { promptFeedback: { blockReason: 'SAFETY' } } }] });
    const refused = await app.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/chat`,
      headers: as(OWNER),
      payload: { message: 'something the model will not touch' },
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/^The agent model refused the message \(SAFETY\)/);
    const safety = peers.audit.filter((e) => e.category === 'SAFETY_VIOLATION');
    expect(safety).toHaveLength(1);
    expect(safety[0]).toMatchObject({ action: 'MESSAGE_REFUSED', detail: { code: 'MODEL_REFUSED' } });
    expect(peers.audit.some((e) => e.action === 'MISSION_TURN_FAILED')).toBe(false);

    gemini.script.push({
      stream: [chunk([{ text: '' }]), { chunk: { candidates: [{ finishReason: 'SAFETY' }] } }],
    });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${M}/${m.mission_id}/chat`,
          headers: as(OWNER),
          payload: { message: 'again' },
        })
      ).json().message,
    ).toMatch(/refused the message \(SAFETY\)/);
    await app.close();
  });
});
