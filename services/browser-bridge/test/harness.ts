import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Role } from '@hs/contracts';
import type { HouseholdMembers } from '@hs/service-kit';
import { createStore } from '@hs/store';
import Fastify, { type FastifyInstance } from 'fastify';
import type { BrowserProvider } from '../src/adapters/browser-provider.ts';
import { buildApp } from '../src/app.ts';
import { loadBrowserBridgeConfig } from '../src/config.ts';

export const TOKEN = 'test-bridge-token';
export const ORCH_TOKEN = 'test-orchestrator-token';
/** A Standard Webhooks secret: `whsec_` + base64 of the key bytes. */
export const SIGNING_SECRET = `whsec_${Buffer.from('bridge-test-signing-key-32-bytes!').toString('base64')}`;

export type RecordedEvent = { body: Record<string, unknown>; token: string | undefined };

/** A stand-in for the orchestrator's internal browser-events route. */
export async function startFakeOrchestrator() {
  const events: RecordedEvent[] = [];
  let down = false;
  const app: FastifyInstance = Fastify();
  app.post('/api/v1/internal/browser/events', async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    if (down) return reply.code(500).send({ error: 'INTERNAL_ERROR', message: 'down' });
    if (request.headers['x-internal-token'] !== ORCH_TOKEN)
      return reply.code(403).send({ error: 'FORBIDDEN', message: 'Missing or invalid internal event token' });
    if (String(body.missionId).startsWith('msn_style'))
      return reply.code(409).send({ error: 'INVALID_MISSION_TYPE', message: 'Mission is not INTERACTIVE' });
    events.push({ body, token: request.headers['x-internal-token'] as string | undefined });
    return { accepted: true, missionId: body.missionId, eventType: body.type };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    setDown: (value: boolean) => {
      down = value;
    },
    close: () => app.close(),
  };
}

/** The gateway's word on a household's members; by default every user asked about is an ADULT member. */
export function fakeMembers(roleOf: (userId: string) => Role | null = () => 'ADULT'): HouseholdMembers {
  const everyone = ['usr_alice', 'usr_bob', 'usr_owner', 'usr_other'];
  const members = async () =>
    everyone.flatMap((memberId) => {
      const role = roleOf(memberId);
      return role
        ? [{ memberId, role, displayName: null, addedAt: '2026-01-01T00:00:00.000Z', addedBy: memberId }]
        : [];
    });
  return {
    members,
    isMember: async (_householdId, memberId) => (await members()).some((m) => m.memberId === memberId),
  };
}

export async function buildBridge(options: {
  orchestratorUrl: string;
  env?: Record<string, string>;
  provider?: BrowserProvider;
  members?: HouseholdMembers;
  now?: () => number;
}) {
  const config = loadBrowserBridgeConfig({
    BROWSER_BRIDGE_INTERNAL_TOKEN: TOKEN,
    ORCHESTRATOR_INTERNAL_TOKEN: ORCH_TOKEN,
    ORCHESTRATOR_BASE_URL: options.orchestratorUrl,
    INTERNAL_API_TIMEOUT_SECONDS: '2',
    BROWSER_ENFORCE_EVENT_SIGNATURES: 'true',
    BROWSER_EVENT_SIGNING_SECRET: SIGNING_SECRET,
    ...options.env,
  });
  const store = createStore({ backend: 'inmemory' });
  const app = await buildApp({
    config,
    store,
    ...(options.provider ? { provider: options.provider } : {}),
    members: options.members ?? fakeMembers(),
    ...(options.now ? { now: options.now } : {}),
  });
  await app.ready();
  return app;
}

export const internal = { 'x-internal-token': TOKEN };
export const asMember = (userId = 'usr_alice') => ({
  'x-internal-token': TOKEN,
  'x-user-id': userId,
  'x-member-role': 'ADULT',
  'x-user-email': `${userId}@dev.local`,
});

/**
 * A shop page on loopback for a real browser to open: `<h1>Shop</h1>`, answered after `delayMs`
 * for paths starting with `slowPath`. `host` is what ALLOW_PRIVATE_MERCHANT_HOSTS must name.
 */
export async function startShopPage(options: { slowPath?: string; delayMs?: number } = {}) {
  const server = createServer((req, res) => {
    const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Shop</h1>');
    if (options.slowPath && req.url?.startsWith(options.slowPath)) setTimeout(answer, options.delayMs ?? 0);
    else answer();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    host: `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
