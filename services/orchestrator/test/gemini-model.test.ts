import { ConfigError } from '@hs/service-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiModel } from '../src/adapters/models/gemini-model.ts';
import { TOOL_NAMES, TOOLS } from '../src/adapters/tools/tool-registry.ts';
import { loadOrchestratorConfig } from '../src/config.ts';
import { ModelError, type ModelInput } from '../src/domain/agent-model.ts';
import { emptyContext } from '../src/domain/mission.ts';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { calls, fakeAuthClient, startFakeGemini, text } from './fixtures/fake-gemini.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

process.env.METADATA_SERVER_DETECTION = 'none';

let gemini: Awaited<ReturnType<typeof startFakeGemini>>;
let peers: FakePeers;
beforeAll(async () => {
  [gemini, peers] = await Promise.all([startFakeGemini(), startFakePeers()]);
});
afterAll(async () => Promise.all([gemini.close(), peers.close()]));
beforeEach(() => {
  gemini.requests.length = 0;
  gemini.script.length = 0;
});

const model = (timeoutMs = 2000) =>
  createGeminiModel({
    project: 'demo-project',
    location: 'europe-west4',
    model: 'gemini-2.5-flash',
    timeoutMs,
    baseUrl: gemini.url,
    tools: TOOLS,
    authClient: fakeAuthClient,
  });

const input = (over: Partial<ModelInput> = {}): ModelInput => ({
  missionType: 'STYLE',
  history: [],
  userText: 'summer tops under 80',
  steps: [],
  context: emptyContext(),
  tools: TOOL_NAMES,
  ...over,
});

describe('Gemini adapter (Vertex generateContent against a local server)', () => {
  it('sends the conversation, tool declarations from zod and the injected credentials; reads a text reply', async () => {
    gemini.script.push(text('Here you go.'));
    expect(await model().next(input())).toEqual({ kind: 'reply', text: 'Here you go.' });
    const [req] = gemini.requests;
    expect(req!.url).toBe(
      '/v1beta1/projects/demo-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(req!.headers.authorization).toBe('Bearer fake-token');
    expect(req!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'summer tops under 80' }] }]);
    const decls = (
      req!.body.tools as Array<{
        functionDeclarations: Array<{ name: string; parametersJsonSchema: Record<string, unknown> }>;
      }>
    )[0]!.functionDeclarations;
    expect(decls.map((d) => d.name)).toEqual(TOOL_NAMES);
    expect(decls[1]!.parametersJsonSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { maxPrice: { type: 'number' }, season: { enum: ['SPRING', 'SUMMER', 'FALL', 'WINTER'] } },
    });
    expect(JSON.stringify(req!.body.systemInstruction)).toContain('STYLE mission');
  });

  it('reads function calls, and sends earlier steps back as function responses (multi-turn)', async () => {
    gemini.script.push(
      calls({ name: 'search_commerce', args: { maxPrice: 80 } }, { name: 'list_wardrobe', args: {} }),
    );
    expect(await model().next(input())).toEqual({
      kind: 'tools',
      calls: [
        { tool: 'search_commerce', args: { maxPrice: 80 } },
        { tool: 'list_wardrobe', args: {} },
      ],
    });
    gemini.script.push(text('Done.'));
    await model().next(
      input({
        history: [
          {
            id: 'msg_1',
            role: 'user',
            content: 'hi',
            created_at: '2026-01-01T00:00:00Z',
            tool_calls: null,
            source: 'text',
          },
          {
            id: 'msg_2',
            role: 'model',
            content: 'hello',
            created_at: '2026-01-01T00:00:01Z',
            tool_calls: [],
            source: 'text',
          },
        ],
        steps: [
          [
            {
              ok: true,
              tool: 'search_commerce',
              args: { maxPrice: 80 },
              result: { items: [], nextCursor: null },
            },
            {
              ok: false,
              tool: 'list_wardrobe',
              args: {},
              error: { code: 'UPSTREAM_ERROR', message: 'wardrobe is unreachable' },
            },
          ],
        ],
      }),
    );
    expect(gemini.requests[1]!.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'model', parts: [{ text: 'hello' }] },
      { role: 'user', parts: [{ text: 'summer tops under 80' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'search_commerce', args: { maxPrice: 80 } } },
          { functionCall: { name: 'list_wardrobe', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'search_commerce',
              response: { output: { items: [], nextCursor: null } },
            },
          },
          {
            functionResponse: {
              name: 'list_wardrobe',
              response: { error: { code: 'UPSTREAM_ERROR', message: 'wardrobe is unreachable' } },
            },
          },
        ],
      },
    ]);
  });

  it('turns HTTP errors, garbage, empty answers and timeouts into ModelError', async () => {
    const cases: Array<[Parameters<typeof gemini.script.push>[0], string]> = [
      [
        { status: 400, body: { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } } },
        'MODEL_UPSTREAM_ERROR',
      ],
      [
        { status: 500, body: { error: { code: 500, message: 'boom', status: 'INTERNAL' } } },
        'MODEL_UPSTREAM_ERROR',
      ],
      [{ raw: '{not json' }, 'MODEL_UPSTREAM_ERROR'],
      [{ body: { candidates: [] } }, 'MODEL_INVALID_REPLY'],
      [
        { body: { candidates: [{ content: { role: 'model', parts: [{ text: '   ' }] } }] } },
        'MODEL_INVALID_REPLY',
      ],
      [{ ...text('late'), delayMs: 400 }, 'MODEL_TIMEOUT'],
    ];
    for (const [reply, code] of cases) {
      gemini.script.push(reply);
      const err = await model(150)
        .next(input())
        .catch((e: unknown) => e);
      expect(err, JSON.stringify(reply)).toBeInstanceOf(ModelError);
      expect((err as ModelError).code, JSON.stringify(reply)).toBe(code);
    }
  });
});

describe('Gemini behind the mission routes', () => {
  it('runs tools the model asks for; a failing model fails the turn, not the mission', async () => {
    const app = await buildTestApp(peers.url, { model: model(1000) });
    const M = `/api/v1/households/${H}/orchestrator/missions`;
    gemini.script.push(
      calls({ name: 'search_commerce', args: { maxPrice: 50, currency: 'EUR' } }),
      text('Denim shorts at 30 EUR fit best.'),
    );
    const created = await app.inject({
      method: 'POST',
      url: M,
      headers: as(OWNER),
      payload: { mission_type: 'STYLE', initial_message: 'shorts under 50 EUR' },
    });
    const m = created.json();
    expect(m.history[1]).toMatchObject({ role: 'model', content: 'Denim shorts at 30 EUR fit best.' });
    expect(m.history[1].tool_calls[0]).toMatchObject({
      tool: 'search_commerce',
      args: { maxPrice: 50, currency: 'EUR' },
    });

    const chat = () =>
      app.inject({
        method: 'POST',
        url: `${M}/${m.mission_id}/chat`,
        headers: as(OWNER),
        payload: { message: 'more?' },
      });
    gemini.script.push(calls({ name: 'buy_everything', args: {} }));
    const invalid = await chat();
    expect(invalid.statusCode).toBe(502);
    expect(invalid.json()).toEqual({
      error: 'UPSTREAM_ERROR',
      message:
        'The agent model called an unknown tool "buy_everything". The mission is still running: send the message again.',
    });
    gemini.script.push(calls({ name: 'search_commerce', args: { maxPrice: 'cheap' } }));
    expect((await chat()).statusCode).toBe(502);
    gemini.script.push({ ...text('slow'), delayMs: 1500 });
    const slow = await chat();
    expect(slow.statusCode).toBe(504);
    expect(slow.json().error).toBe('UPSTREAM_TIMEOUT');

    gemini.script.push(text('Still here.'));
    const retried = await chat();
    expect(retried.statusCode).toBe(200);
    expect(retried.json().state).toBe('RUNNING');
    expect(retried.json().history.at(-1).content).toBe('Still here.');
    const errors = (await app.ctx.events.after(m.mission_id, 0))
      .filter((e) => e.type === 'error')
      .map((e) => e.data.code);
    expect(errors).toEqual(['MODEL_INVALID_TOOL_CALL', 'MODEL_INVALID_TOOL_CALL', 'MODEL_TIMEOUT']);
  });

  it('refuses to boot with ORCHESTRATOR_REQUIRE_LLM_AGENT=true and no project, in one line', () => {
    expect(() => loadOrchestratorConfig({ ORCHESTRATOR_REQUIRE_LLM_AGENT: 'true' })).toThrow(
      new ConfigError(
        'Configuration error: ORCHESTRATOR_GCP_PROJECT is required when ORCHESTRATOR_REQUIRE_LLM_AGENT=true (value: unset)',
      ),
    );
    expect(
      loadOrchestratorConfig({ ORCHESTRATOR_REQUIRE_LLM_AGENT: 'true', ORCHESTRATOR_GCP_PROJECT: 'p' }).agent,
    ).toMatchObject({
      backend: 'gemini',
      model: 'gemini-2.5-flash',
      location: 'us-central1',
    });
    expect(() =>
      loadOrchestratorConfig({ APP_ENV: 'production', REQUIRE_INTERNAL_EVENT_TOKEN: 'false' }),
    ).toThrow(ConfigError);
  });
});
