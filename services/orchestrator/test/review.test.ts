import { waitUntil } from '@hs/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkToolCall, TOOL_NAMES } from '../src/adapters/tools/tool-registry.ts';
import { MAX_CALLS_PER_STEP, runAgentTurn } from '../src/domain/agent-loop.ts';
import { ModelError } from '../src/domain/agent-model.ts';
import { parseConstraints } from '../src/domain/constraint-parser.ts';
import { emptyContext } from '../src/domain/mission.ts';
import { as, buildTestApp, H, OWNER } from './fixtures/build.ts';
import { type FakePeers, startFakePeers } from './fixtures/fake-peers.ts';

// Adversarial review of missions: superseded turns, hostile messages, the trust of headers.
let peers: FakePeers;
let app: Awaited<ReturnType<typeof buildTestApp>> | undefined;
const M = `/api/v1/households/${H}/orchestrator/missions`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  peers = await startFakePeers();
});
afterAll(async () => peers.close());
afterEach(async () => {
  peers.behaviour.clear();
  await app?.close();
  app = undefined;
});

async function build(env: Record<string, string> = {}) {
  const built = await buildTestApp(peers.url, { env });
  app = built;
  return built;
}

const create = async (a: NonNullable<typeof app>, message = 'summer tops under 80') => {
  const res = await a.inject({
    method: 'POST',
    url: M,
    headers: as(OWNER),
    payload: { mission_type: 'STYLE', initial_message: message },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
};
const chat = (
  a: NonNullable<typeof app>,
  mId: string,
  message: string,
  headers: Record<string, string> = as(OWNER),
) => a.inject({ method: 'POST', url: `${M}/${mId}/chat`, headers, payload: { message } });

describe('a turn that outlives its lease', () => {
  it('keeps a slow but healthy turn its lease: a chat meanwhile is 409, not a takeover', async () => {
    // A 1 s lease renewed every third of it: a loaded machine's pause of a few hundred ms must
    // not be what this test sees.
    const a = await build({ ORCHESTRATOR_TURN_LEASE_SECONDS: '1' });
    const m = await create(a);
    peers.behaviour.set('/wardrobe', 3000); // one tool call lasts three leases
    const slow = chat(a, m.mission_id, 'black shirts');
    await sleep(1500);
    const meanwhile = await chat(a, m.mission_id, 'blue jeans');
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.json()).toEqual({
      error: 'CONFLICT',
      message: 'A turn is already running for this mission; wait for it to finish',
    });
    peers.behaviour.clear();
    expect((await slow).statusCode).toBe(200);
    const events = await a.ctx.events.after(m.mission_id, 0, 500);
    expect(events.filter((e) => e.type === 'turn.failed')).toEqual([]);
  });

  it('does not write its answer after the newer turn that took the mission over', async () => {
    const a = await build({ ORCHESTRATOR_TURN_LEASE_SECONDS: '0.3' });
    const m = await create(a);
    peers.behaviour.set('/wardrobe', 900); // the next turn's tools hang
    const slow = chat(a, m.mission_id, 'black shirts');
    await sleep(200);
    // A stalled process: its lease ran out before it could renew it.
    await a.ctx.missions.update(m.mission_id, (doc) => ({
      ...doc,
      turn_lease: doc.turn_lease && { ...doc.turn_lease, expires_at: Date.now() - 1 },
    }));
    const newer = await chat(a, m.mission_id, 'blue jeans');
    expect(newer.statusCode).toBe(200);
    peers.behaviour.clear();
    const late = await slow;
    expect(late.statusCode).toBe(502);
    expect(late.json()).toEqual({
      error: 'UPSTREAM_ERROR',
      message:
        'The turn outlived its lease and a newer turn took the mission over; its answer was not recorded. The mission is still running: send the message again.',
    });
    const mission = (
      await a.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(mission.history.map((x: { role: string; content: string }) => x.role)).toEqual([
      'user',
      'model',
      'user',
      'user',
      'model',
    ]);
    expect(mission.history.at(-1).content).toContain('blue');
    // The newer turn reported the slow one ended (its chat stream stops there), once; from then on
    // the slow turn added nothing to the stream: no tool results, no second turn.failed.
    const events = await a.ctx.events.after(m.mission_id, 0, 500);
    const interrupted = events.find((e) => e.type === 'turn.failed' && e.data.code === 'TURN_INTERRUPTED')!;
    const slowTurn = interrupted.data.turn_id;
    expect(events.filter((e) => e.data.turn_id === slowTurn && e.seq > interrupted.seq)).toEqual([]);
    expect(events.filter((e) => e.type === 'turn.failed' && e.data.turn_id === slowTurn)).toHaveLength(1);
    // Nor did it run another tool once it knew.
    const audited = await waitUntil('the slow turn in the audit log', async () => {
      const entries = peers.calls
        .filter((c) => c.url.endsWith('/audit/events'))
        .map((c) => c.body as { action: string; detail: { turnId?: string; tool?: string; code?: string } })
        .filter((e) => e.detail.turnId === slowTurn);
      return entries.some((e) => e.action === 'MISSION_TURN_FAILED') ? entries : undefined;
    });
    // The tool in flight when its lease ran out, then its end: no tool after.
    expect(audited.map((e) => e.detail.tool ?? e.detail.code)).toEqual(['list_wardrobe', 'TURN_SUPERSEDED']);
    // And the mission takes the next message.
    expect((await chat(a, m.mission_id, 'thanks')).statusCode).toBe(200);
  });
});

describe('hostile input', () => {
  it('reads prices from an adversarial message in linear time', () => {
    // 32 kB of digits (four times the message limit): the old patterns backtracked quadratically
    // (about 5 s here); a bounded number token reads it in milliseconds.
    const started = performance.now();
    for (const text of [
      '1'.repeat(32_000),
      `under ${'9'.repeat(32_000)}`,
      `from ${'1'.repeat(32_000)} to 5 eur`,
    ])
      parseConstraints(text);
    // The quadratic reading took about 5 s; a slow machine's linear one stays far below 2 s.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each([
    ['under 0', {}],
    ['under -50 eur', {}],
    ['under 99999999999999999999 EUR', {}],
    ['under ٨٠ eur', {}],
    ['under 2000000 eur', { currency: 'EUR' }],
    ['no more than 49,99 €', { maxPrice: 49.99, currency: 'EUR' }],
    ['under $1,200.50', { maxPrice: 1200.5, currency: 'USD' }],
  ])('keeps "%s" within the price rules', (text, expected) => {
    const c = parseConstraints(text);
    expect({ maxPrice: c.maxPrice, minPrice: c.minPrice, currency: c.currency }).toEqual({
      maxPrice: undefined,
      minPrice: undefined,
      currency: undefined,
      ...expected,
    });
  });

  it('counts the message limit in UTF-8 bytes, not characters', async () => {
    const a = await build();
    const m = await create(a);
    const tooLong = await chat(a, m.mission_id, 'é'.repeat(4097)); // 4097 characters, 8194 bytes
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().details).toEqual([
      { loc: ['body', 'message'], msg: 'must be at most 8192 bytes', type: 'custom' },
    ]);
    expect((await chat(a, m.mission_id, 'é'.repeat(4096))).statusCode).toBe(200);
  });

  it('refuses control characters and hidden tag text in a message; keeps line breaks, tabs and flags, and drops pasted direction controls', async () => {
    const a = await build();
    const m = await create(a);
    for (const message of [
      'hi\u0000there',
      '\u001b[31mred',
      '\u202a\u202c',
      'a\ud800b',
      'x \u{e0069}\u{e0067}\u{e006e}',
    ]) {
      const refused = await chat(a, m.mission_id, message);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().details[0].loc).toEqual(['body', 'message']);
    }
    const view = await a.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) });
    expect(JSON.stringify(view.json().history)).not.toContain('there');
    const kept =
      'a coat\n\tin navy \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} שלום\u200f';
    expect((await chat(a, m.mission_id, kept)).statusCode).toBe(200);
    // Pasted from a phone: direction controls around a number or a name, an office line break.
    const pasted = await chat(
      a,
      m.mission_id,
      'call \u202a+44 20 7946 0958\u202c about \u2068Layla\u2069\u000bthanks',
    );
    expect(pasted.statusCode).toBe(200);
    const said = pasted
      .json()
      .history.filter((h: { role: string }) => h.role === 'user')
      .at(-1).content;
    expect(said).toBe('call +44 20 7946 0958 about Layla\nthanks');
  });

  it('refuses a prepare_cart call whose request id is not a pr_ id (no path segments reach the gateway)', () => {
    for (const requestId of ['..', '.', 'pr_a/../../x', 'pr_ok?x=1', ''])
      expect(() => checkToolCall({ tool: 'prepare_cart', args: { requestId } })).toThrow(ModelError);
    expect(checkToolCall({ tool: 'prepare_cart', args: { requestId: ' pr_Ab-1_x ' } }).args).toEqual({
      requestId: 'pr_Ab-1_x',
    });
  });

  it('trusts x-message-source (and every caller header) only with the internal token', async () => {
    const a = await build();
    const m = await create(a);
    for (const token of [undefined, 'wrong-token']) {
      const headers: Record<string, string> = {
        'x-user-id': OWNER,
        'x-member-role': 'PARENT_GUARDIAN',
        'x-message-source': 'voice',
      };
      if (token) headers['x-internal-token'] = token;
      const res = await chat(a, m.mission_id, 'spoken?', headers);
      expect(res.statusCode).toBe(403);
    }
    const mission = (
      await a.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(mission.history).toHaveLength(2);
    expect(mission.history.every((x: { source: string }) => x.source === 'text')).toBe(true);
  });
});

describe('a model that fans out', () => {
  it('fails the turn before running any call when one step proposes too many tool calls', async () => {
    const ran: string[] = [];
    const calls = Array.from({ length: MAX_CALLS_PER_STEP + 1 }, () => ({
      tool: 'create_browser_session',
      args: {},
    }));
    const turn = runAgentTurn(
      {
        turnId: 'turn_1',
        missionType: 'INTERACTIVE',
        history: [],
        userText: 'open the shop',
        context: emptyContext(),
        plan: [],
      },
      {
        model: { name: 'fan-out', next: async () => ({ kind: 'tools', calls }) },
        maxSteps: 3,
        tools: TOOL_NAMES,
        checkCall: checkToolCall,
        runTool: async (call) => {
          ran.push(call.tool);
          return { ok: true, tool: call.tool, args: call.args, result: {} };
        },
        emit: async () => {},
        renewLease: async () => {},
      },
    );
    await expect(turn).rejects.toMatchObject({
      code: 'MODEL_INVALID_TOOL_CALL',
      message: 'The agent model proposed 9 tool calls in one step (at most 8)',
    });
    expect(ran).toEqual([]);
  });
});

describe("another household's mission", () => {
  it('is 404 on every route under the other household, and leaves the mission untouched', async () => {
    const a = await build();
    const m = await create(a);
    const other = `/api/v1/households/h_2/orchestrator/missions/${m.mission_id}`;
    const routes: Array<[string, string, object?, Record<string, string>?]> = [
      ['GET', other],
      ['GET', `${other}/stream`, undefined, { accept: 'text/event-stream' }],
      ['POST', `${other}/chat`, { message: 'done' }],
      ['POST', `${other}/complete`, {}],
      ['POST', `${other}/cancel`, {}],
      ['POST', `${other}/events`, { eventType: 'USER_LIKED_ITEM', offerId: 'off_a' }],
    ];
    for (const [method, url, payload, extra] of routes) {
      const res = await a.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: { ...as(OWNER), ...extra },
        ...(payload ? { payload } : {}),
      });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        404,
        { error: 'NOT_FOUND', message: 'Mission not found' },
      ]);
    }
    const events = await a.ctx.events.after(m.mission_id, 0, 500);
    expect(events.filter((e) => e.type === 'client.event' || e.type === 'state.changed')).toHaveLength(1);
    const mission = (
      await a.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(mission).toMatchObject({ state: 'RUNNING' });
    expect(mission.history).toHaveLength(2);
  });
});

describe('a mission ended while its turn runs', () => {
  /** An INTERACTIVE mission whose first message's browser failed to open: its record lists none. */
  const interactiveWithoutBrowser = async (a: NonNullable<typeof app>) => {
    peers.behaviour.set('/api/v1/sessions', 'down');
    const created = await a.inject({
      method: 'POST',
      url: M,
      headers: as(OWNER),
      payload: { mission_type: 'INTERACTIVE', initial_message: 'hello' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().context?.sessions ?? []).toEqual([]);
    return created.json().mission_id as string;
  };

  it('dispatches no further tool calls once the owner has cancelled it', async () => {
    const a = await build();
    const m = await create(a);
    peers.behaviour.set('/wardrobe', 400); // list_wardrobe is slow; search_commerce would follow
    const turn = chat(a, m.mission_id, 'linen shirts under 60');
    await sleep(150);
    const cancelled = await a.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/cancel`,
      headers: as(OWNER),
    });
    expect(cancelled.statusCode).toBe(200);
    const searchesBefore = peers.calls.filter((c) => c.url.includes('/search')).length;
    await turn;
    expect(peers.calls.filter((c) => c.url.includes('/search')).length).toBe(searchesBefore);
    const mission = (
      await a.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(mission.state).toBe('FAILED');
    // The end is a cut: the turn's late answer is not added after it, and its caller hears why.
    const answered = await turn;
    expect(answered.statusCode).toBe(409);
    expect(answered.json()).toMatchObject({
      error: 'INVALID_STATE',
      message: expect.stringMatching(/ended while this turn ran/),
    });
    expect(mission.history.map((h: { role: string }) => h.role)).toEqual(['user', 'model', 'user']);
    expect(mission.turn_lease ?? null).toBeNull();
  });

  it('ends the browser session its INTERACTIVE turn opened after the end', async () => {
    const a = await build();
    const mId = await interactiveWithoutBrowser(a);
    peers.behaviour.set('/api/v1/sessions', 400); // the next one opens slowly
    const before = peers.calls.length;
    const turn = chat(a, mId, 'Open https://shop.example.com/p/linen-shirt');
    await sleep(150);
    const cancelled = await a.inject({ method: 'POST', url: `${M}/${mId}/cancel`, headers: as(OWNER) });
    expect(cancelled.statusCode).toBe(200);
    expect((await turn).statusCode).toBe(409);
    const opened = peers.calls.findIndex(
      (c, i) => i >= before && c.method === 'POST' && c.url === '/api/v1/sessions',
    );
    expect(opened).toBeGreaterThanOrEqual(0);
    // Closed once at the end (nothing open yet) and again after the cut turn, which had opened one.
    await waitUntil('the cut turn’s browser closed', async () =>
      peers.calls.some((c, i) => i > opened && c.url === `/api/v1/missions/${mId}/sessions/terminate`),
    );
    const closing = peers.calls.find((c) => c.url === `/api/v1/missions/${mId}/sessions/terminate`);
    expect(closing?.body).toEqual({ householdId: H });
  });

  it('asks the bridge to close an INTERACTIVE mission’s browsers at its end even when its record lists none', async () => {
    const a = await build();
    // Its browser's answer was lost: the bridge may hold one the mission does not know of.
    const mId = await interactiveWithoutBrowser(a);
    peers.behaviour.clear();
    expect(
      (await a.inject({ method: 'POST', url: `${M}/${mId}/cancel`, headers: as(OWNER) })).statusCode,
    ).toBe(200);
    await waitUntil('the end’s close sent', async () =>
      peers.calls.some((c) => c.url === `/api/v1/missions/${mId}/sessions/terminate`),
    );
  });

  it('keeps the recorded end true: the transcript and the turn count match the history, and the stream says why the turn ended', async () => {
    const a = await build();
    const m = await create(a);
    peers.behaviour.set('/wardrobe', 400);
    const turn = chat(a, m.mission_id, 'a warm coat for my son');
    await sleep(150);
    const completed = await a.inject({
      method: 'POST',
      url: `${M}/${m.mission_id}/complete`,
      headers: as(OWNER),
    });
    expect(completed.statusCode).toBe(200);
    expect((await turn).statusCode).toBe(409);
    const mission = (
      await a.inject({ method: 'GET', url: `${M}/${m.mission_id}`, headers: as(OWNER) })
    ).json();
    expect(mission.state).toBe('DONE');
    expect(mission.history).toHaveLength(3);
    const mine = (kind: string) =>
      peers.artifacts.filter((x) => x.kind === kind && JSON.stringify(x.body).includes(m.mission_id));
    await waitUntil('the end recorded', async () => mine('outcome-summary').length === 1);
    expect((mine('transcript')[0]!.body.entries as unknown[]).length).toBe(mission.history.length);
    expect(mine('outcome-summary')[0]!.body).toMatchObject({ finalState: 'DONE', totalTurns: 1 });
    await waitUntil('the cut turn in the audit log', async () =>
      peers.audit.some(
        (e) => JSON.stringify(e).includes(m.mission_id) && JSON.stringify(e).includes('MISSION_ENDED'),
      ),
    );
    // The next chat is refused as for any ended mission, and nothing ran after the end.
    expect((await chat(a, m.mission_id, 'and a hat')).statusCode).toBe(409);
  });
});
