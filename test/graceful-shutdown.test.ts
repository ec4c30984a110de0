// SIGTERM to real service processes: requests already sent are answered, streams end at once,
// jobs go back to the queue, and the process exits 0 within SHUTDOWN_GRACE_SECONDS.
import { gatewayClient, startStack } from '@hs/testing';
import { Agent, request } from 'undici';
import { describe, expect, it, vi } from 'vitest';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads an event stream's body as it arrives; `ended` settles when the server ends it cleanly. */
function follow(res: Response) {
  const reader = res.body!.getReader();
  const state = { text: '' };
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ended';
      state.text += new TextDecoder().decode(value);
    }
  })();
  return { state, ended };
}

/** A household's offers, read from commerce as the gateway would ask on a member's behalf. */
const listOffers = (commerce: string, agent: Agent) =>
  request(`${commerce}/api/v1/households/h_1/offers`, {
    dispatcher: agent,
    headers: {
      'x-internal-token': 'dev-internal-token-commerce',
      'x-user-id': 'usr_1',
      'x-member-role': 'PARENT_GUARDIAN',
    },
  });

describe('SIGTERM', () => {
  it('answers every request sent on an accepted connection under concurrent load, and exits 0', async () => {
    const stack = await startStack({ services: ['commerce'], env: { SHUTDOWN_GRACE_SECONDS: '5' } });
    const agent = new Agent({ connections: 20, keepAliveTimeout: 30_000 });
    const outcomes: Record<string, number> = {};
    let load = true;
    const one = async () => {
      try {
        const res = await listOffers(stack.url('commerce'), agent);
        await res.body.dump();
        outcomes[res.statusCode] = (outcomes[res.statusCode] ?? 0) + 1;
      } catch (err) {
        const code = (err as { code?: string }).code ?? (err as Error).message;
        outcomes[code] = (outcomes[code] ?? 0) + 1;
      }
    };
    const clients = Array.from({ length: 60 }, async () => {
      while (load) await one();
    });
    try {
      await vi.waitFor(() => expect(outcomes['200'] ?? 0).toBeGreaterThan(500), { timeout: 20_000 });
      const exitCode = await stack.stop('commerce');
      load = false;
      await Promise.all(clients);
      expect(exitCode).toBe(0);
      // Refused connects are new connections after the listener closed; nothing else may fail.
      const { 200: answered, ECONNREFUSED: _refused, ...failed } = outcomes;
      expect(failed).toEqual({});
      expect(answered).toBeGreaterThan(500);
    } finally {
      load = false;
      await agent.close();
      await stack.close();
    }
  }, 60_000);

  it('ends an open mission stream at once and exits 0', async () => {
    const stack = await startStack({ services: ['orchestrator'], env: { SHUTDOWN_GRACE_SECONDS: '5' } });
    const headers = {
      'x-internal-token': 'dev-internal-token-orchestrator',
      'x-user-id': 'usr_owner',
      'x-member-role': 'PARENT_GUARDIAN',
      'content-type': 'application/json',
    };
    const missions = `${stack.url('orchestrator')}/api/v1/households/h_1/orchestrator/missions`;
    try {
      const created = await fetch(missions, {
        method: 'POST',
        headers,
        body: JSON.stringify({ mission_type: 'STYLE', initial_message: 'summer tops' }),
      });
      expect(created.status).toBe(201);
      const { mission_id } = (await created.json()) as { mission_id: string };
      const stream = await fetch(`${missions}/${mission_id}/stream`, {
        headers: { ...headers, accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const { state, ended } = follow(stream);
      await vi.waitFor(() => expect(state.text).toContain('event: turn.completed'), { timeout: 10_000 });
      expect(await stack.stop('orchestrator')).toBe(0);
      // The stream ended cleanly (not reset), after telling the client when to reconnect.
      expect(await ended).toBe('ended');
      expect(state.text.startsWith('retry: ')).toBe(true);
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('ends a mission stream proxied by the gateway at once, and the gateway exits 0', async () => {
    const stack = await startStack({
      services: ['gateway', 'orchestrator'],
      env: { SHUTDOWN_GRACE_SECONDS: '5' },
    });
    const client = gatewayClient(stack.url('gateway'));
    try {
      const owner = await client.login('shutdown');
      const householdId = await client.household(owner, 'Home');
      const missions = `${client.baseUrl}/api/v1/households/${householdId}/orchestrator/missions`;
      const created = await client.api<{ mission_id: string }>(
        `/api/v1/households/${householdId}/orchestrator/missions`,
        {
          method: 'POST',
          token: owner.token,
          body: { mission_type: 'STYLE', initial_message: 'summer tops' },
        },
      );
      expect(created.status).toBe(201);
      const stream = await fetch(`${missions}/${created.body.mission_id}/stream`, {
        headers: { authorization: `Bearer ${owner.token}`, accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const { state, ended } = follow(stream);
      await vi.waitFor(() => expect(state.text).toContain('event: turn.completed'), { timeout: 10_000 });
      expect(await stack.stop('gateway')).toBe(0);
      expect(await ended).toBe('ended');
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('hands a running cart-prep job back to the queue with its attempt counted', async () => {
    const stack = await startStack({
      services: ['cartprep'],
      durable: true,
      env: { SHUTDOWN_GRACE_SECONDS: '5' },
      perService: { cartprep: { CARTPREP_POLL_MS: '50' } },
    });
    const headers = { 'x-internal-token': 'dev-internal-token-cartprep', 'content-type': 'application/json' };
    const jobs = `${stack.url('cartprep')}/api/v1/cartprep/jobs`;
    const get = async () =>
      (await (await fetch(`${jobs}/cpj_shutdown0001`, { headers })).json()) as {
        status: string;
        attempts: number;
      };
    try {
      const created = await fetch(jobs, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jobId: 'cpj_shutdown0001',
          householdId: 'h_1',
          requestId: 'pr_1',
          url: 'https://shop.example.com/p/coat?simulateDelayMs=30000',
          title: 'Coat',
          unitPrice: 90,
          currency: 'EUR',
        }),
      });
      expect(created.status).toBe(201);
      await vi.waitFor(async () => expect(await get()).toMatchObject({ status: 'RUNNING', attempts: 1 }), {
        timeout: 10_000,
      });
      await sleep(200);
      expect(await stack.stop('cartprep')).toBe(0);
      // Its lease (120 s) has not run out: only the hand-back lets the next process take it now.
      await stack.start('cartprep');
      await vi.waitFor(async () => expect(await get()).toMatchObject({ status: 'RUNNING', attempts: 2 }), {
        timeout: 10_000,
      });
    } finally {
      await stack.close();
    }
  }, 60_000);

  it('drains to the end when the stop signal comes twice (npm start signals the group, the stack each service)', async () => {
    const stack = await startStack({
      services: ['commerce'],
      durable: true,
      env: { SHUTDOWN_GRACE_SECONDS: '5' },
    });
    const agent = new Agent({ keepAliveTimeout: 30_000 });
    try {
      const res = await listOffers(stack.url('commerce'), agent);
      await res.body.dump();
      // A kept-alive connection keeps the drain going for a moment: the second signal lands in it.
      process.kill(stack.pid('commerce')!, 'SIGTERM');
      await sleep(100);
      expect(await stack.stop('commerce')).toBe(0);
    } finally {
      await agent.close();
      await stack.close();
    }
  }, 60_000);
});
