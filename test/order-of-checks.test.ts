// The order of checks (decisions, Conventions) over every route of every service's OpenAPI
// document: who is asking is settled before the body is read, so a caller without credentials,
// outside the household or in the wrong role gets 401/403 whatever the body (broken JSON, the
// wrong shape, too large), never 400/413/422. New routes are covered without editing this file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceName } from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltApp,
  buildServiceApps,
  internalToken,
  type Operation,
  operationsOf,
} from './service-apps.ts';

const dir = mkdtempSync(join(tmpdir(), 'order-of-checks-'));
let apps: BuiltApp[];
let gateway: ServiceApp;
const tokens: Record<string, string> = {};
let householdId = '';

const BODIES = {
  'broken JSON': '{"oops": ',
  'the wrong shape': '{"garbage": [1, 2, 3]}',
  'too large a body': `{"x": "${'x'.repeat(1_200_000)}"}`,
};

async function send(app: ServiceApp, op: Operation, headers: Record<string, string>, body: string) {
  const url = op.path.replace('{id}', householdId).replace(/\{[^}]+\}/g, 'x_1');
  const withBody = op.method !== 'GET' && op.method !== 'HEAD';
  const res = await app.inject({
    method: op.method as 'POST',
    url,
    headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    ...(withBody ? { payload: body } : {}),
  });
  return { status: res.statusCode, error: res.json().error as string };
}

beforeAll(async () => {
  apps = await buildServiceApps(dir);
  gateway = apps.find((a) => a.service === 'gateway')!.app;
  for (const name of ['alice', 'bob', 'carol', 'mallory']) {
    const login = await gateway.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { idToken: name },
    });
    tokens[name] = login.json().accessToken;
  }
  const as = (name: string) => ({ authorization: `Bearer ${tokens[name]}` });
  const household = await gateway.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: as('alice'),
    payload: { name: 'Home' },
  });
  householdId = household.json().householdId;
  for (const [name, role] of [
    ['bob', 'ADULT'],
    ['carol', 'CHILD'],
  ] as const) {
    const me = await gateway.inject({ method: 'GET', url: '/api/v1/me', headers: as(name) });
    const added = await gateway.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/members`,
      headers: as('alice'),
      payload: { memberId: me.json().userId, role },
    });
    expect(added.statusCode).toBe(201);
  }
});
afterAll(async () => {
  for (const { app } of apps ?? []) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const MEMBER_OF_ROLE: Record<string, string> = { PARENT_GUARDIAN: 'alice', ADULT: 'bob', CHILD: 'carol' };

describe('order of checks on every route', () => {
  it('refuses a caller without credentials with 401/403 whatever the body', async () => {
    const seen: string[] = [];
    for (const { service, app } of apps) {
      for (const op of operationsOf(app).filter((o) => !o.public)) {
        for (const [what, body] of Object.entries(BODIES)) {
          const res = await send(app, op, {}, body);
          expect({
            service,
            route: `${op.method} ${op.path}`,
            what,
            refused: [401, 403].includes(res.status),
          }).toEqual({ service, route: `${op.method} ${op.path}`, what, refused: true });
        }
        seen.push(`${service} ${op.method} ${op.path}`);
      }
    }
    expect(seen.length).toBeGreaterThan(80);
  });

  it('refuses a signed-in user outside the household with 403 whatever the body (gateway)', async () => {
    const household = operationsOf(gateway).filter(
      (o) => !o.public && o.path.startsWith('/api/v1/households/{id}'),
    );
    expect(household.length).toBeGreaterThan(15);
    for (const op of household) {
      for (const [what, body] of Object.entries(BODIES)) {
        const res = await send(gateway, op, { authorization: `Bearer ${tokens.mallory}` }, body);
        expect({ route: `${op.method} ${op.path}`, what, ...res }).toEqual({
          route: `${op.method} ${op.path}`,
          what,
          status: 403,
          error: 'FORBIDDEN',
        });
      }
    }
  });

  it('refuses every role a route does not allow with 403 whatever the body', async () => {
    const checked: string[] = [];
    for (const { service, app } of apps) {
      for (const op of operationsOf(app).filter((o) => o.roles)) {
        for (const role of Object.keys(MEMBER_OF_ROLE).filter((r) => !op.roles!.includes(r))) {
          const headers: Record<string, string> =
            service === 'gateway'
              ? { authorization: `Bearer ${tokens[MEMBER_OF_ROLE[role]!]}` }
              : {
                  'x-internal-token': internalToken(service as ServiceName),
                  'x-user-id': 'usr_someone',
                  'x-member-role': role,
                };
          for (const [what, body] of Object.entries(BODIES)) {
            const res = await send(app, op, headers, body);
            expect({ route: `${op.method} ${op.path}`, role, what, ...res }).toEqual({
              route: `${op.method} ${op.path}`,
              role,
              what,
              status: 403,
              error: 'FORBIDDEN',
            });
          }
          checked.push(`${op.method} ${op.path} ${role}`);
        }
      }
    }
    // PATCH /members/{memberId} by an ADULT or a CHILD, among others.
    expect(checked).toContain('PATCH /api/v1/households/{id}/members/{memberId} ADULT');
    expect(checked).toContain('PATCH /api/v1/households/{id}/members/{memberId} CHILD');
  });

  it('answers cart-ready and failed without the buy-flow token with its 403, whatever the body', async () => {
    for (const callback of ['cart-ready', 'failed']) {
      for (const body of Object.values(BODIES)) {
        const res = await gateway.inject({
          method: 'POST',
          url: `/api/v1/households/${householdId}/requests/pr_1/${callback}`,
          headers: { 'content-type': 'application/json', 'x-internal-token': 'wrong' },
          payload: body,
        });
        expect(res.json()).toEqual({
          error: 'FORBIDDEN',
          message: 'Missing or invalid internal buy-flow token',
        });
      }
    }
  });
});
