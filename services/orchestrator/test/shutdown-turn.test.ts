// SIGTERM while a chat streamed over SSE is mid-turn: the process exits 0, the turn is closed
// (turn.failed TURN_INTERRUPTED) and the mission takes the next message right after the restart
// instead of refusing chats until the dead turn's lease runs out.
import { gatewayClient, type RunningStack, startStack } from '@hs/testing';
import { describe, expect, it, vi } from 'vitest';
import { startSlowWardrobe } from './fixtures/processes.ts';
import { openEventSource } from './fixtures/sse.ts';

/**
 * A gateway and an orchestrator whose wardrobe can be made to hang, with a user and a STYLE
 * mission whose first turn has run. `run` gets them and the stack is closed after it.
 */
async function withMission(
  env: Record<string, string>,
  orchestratorEnv: Record<string, string>,
  run: (t: {
    stack: RunningStack;
    wardrobe: Awaited<ReturnType<typeof startSlowWardrobe>>;
    client: ReturnType<typeof gatewayClient>;
    owner: Awaited<ReturnType<ReturnType<typeof gatewayClient>['login']>>;
    mission: string;
  }) => Promise<void>,
): Promise<void> {
  const wardrobe = await startSlowWardrobe();
  const stack = await startStack({
    services: ['gateway', 'orchestrator'],
    durable: true,
    env: { SHUTDOWN_GRACE_SECONDS: '3', ...env },
    perService: { orchestrator: { WARDROBE_BASE_URL: wardrobe.url, ...orchestratorEnv } },
  });
  const client = gatewayClient(stack.url('gateway'));
  try {
    const owner = await client.login('restart');
    const householdId = await client.household(owner, 'Home');
    const missions = `/api/v1/households/${householdId}/orchestrator/missions`;
    const created = await client.api(missions, {
      method: 'POST',
      token: owner.token,
      body: { mission_type: 'STYLE', initial_message: 'summer tops' },
    });
    expect(created.status).toBe(201);
    await run({ stack, wardrobe, client, owner, mission: `${missions}/${created.body.mission_id}` });
  } finally {
    await stack.close();
    await wardrobe.close();
  }
}

describe('SIGTERM during a streamed turn', () => {
  it('closes the running turn so the mission is usable at once after the restart', async () => {
    // A long lease: without the shutdown closing the turn, the mission would stay blocked.
    const env = {
      ORCHESTRATOR_TURN_LEASE_SECONDS: '60',
      ORCHESTRATOR_STREAM_POLL_MS: '100',
      ORCHESTRATOR_SSE_RETRY_MS: '200',
    };
    await withMission(env, {}, async ({ stack, wardrobe, client, owner, mission }) => {
      // The next turn hangs in its wardrobe call while the chat streams it.
      wardrobe.hang();
      const seen = wardrobe.seen();
      const chat = await fetch(`${stack.url('gateway')}${mission}/chat`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.token}`,
          accept: 'text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ message: 'jackets?' }),
      });
      expect(chat.status).toBe(200);
      const streamed = chat.text();
      await vi.waitFor(() => expect(wardrobe.seen()).toBeGreaterThan(seen), { timeout: 10_000 });

      expect(await stack.stop('orchestrator')).toBe(0);
      expect(await streamed).toContain('event: turn.started');
      await stack.start('orchestrator');

      const next = await client.api(`${mission}/chat`, {
        method: 'POST',
        token: owner.token,
        body: { message: 'hello again' },
      });
      expect(next.status).toBe(200);
      expect(next.body.history.at(-1).role).toBe('model');

      const replay = openEventSource(`${stack.url('gateway')}${mission}/stream?after=0`, {
        authorization: `Bearer ${owner.token}`,
      });
      try {
        await vi.waitFor(
          // The first turn and "hello again" completed; the interrupted one ends with turn.failed only.
          () => expect(replay.received.filter((e) => e.type === 'turn.completed')).toHaveLength(2),
          { timeout: 10_000 },
        );
        expect(replay.received.filter((e) => e.type === 'turn.failed').map((e) => e.data.code)).toEqual([
          'TURN_INTERRUPTED',
        ]);
      } finally {
        replay.es.close();
      }
    });
  }, 60_000);

  it('answers a JSON chat at once when its turn is closed, not when the hung tool call times out', async () => {
    // Peer calls time out long after the grace: only closing the turn can answer the chat in time.
    const orchestratorEnv = { INTERNAL_API_TIMEOUT_SECONDS: '30' };
    await withMission({ ORCHESTRATOR_TURN_LEASE_SECONDS: '60' }, orchestratorEnv, async (t) => {
      const { stack, wardrobe, client, owner, mission } = t;
      wardrobe.hang();
      const seen = wardrobe.seen();
      const chat = client.api(`${mission}/chat`, {
        method: 'POST',
        token: owner.token,
        body: { message: 'jackets?' },
      });
      await vi.waitFor(() => expect(wardrobe.seen()).toBeGreaterThan(seen), { timeout: 10_000 });

      const stopping = Date.now();
      // Exit 0: drained within the grace, not cut off when it ran out.
      expect(await stack.stop('orchestrator')).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(3000);
      const answer = await chat;
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(answer.body.message).toBe(
        'The service restarted before the turn finished. The mission is still running: send the message again.',
      );
    });
  }, 60_000);
});
