// Every route with a JSON body, in every service's OpenAPI document: a body nested deeper than
// 64 levels is 400 BAD_REQUEST in the envelope (decisions, Conventions), from the parser, before
// any handler could act on it. New routes are covered without editing this file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildServiceApps, internalToken, operationsOf } from './service-apps.ts';

const dir = mkdtempSync(join(tmpdir(), 'deep-json-'));
let apps: BuiltApp[];
let bearer = '';
let householdId = '';
let memberId = '';
let requestId = '';
let missionId = '';

beforeAll(async () => {
  apps = await buildServiceApps(dir);
  const gateway = apps.find((a) => a.service === 'gateway')!.app;
  const login = await gateway.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { idToken: 'alice' },
  });
  bearer = login.json().accessToken;
  const household = await gateway.inject({
    method: 'POST',
    url: '/api/v1/households',
    headers: { authorization: `Bearer ${bearer}` },
    payload: { name: 'Home' },
  });
  householdId = household.json().householdId;
  // Routes naming a member or a purchase request look it up before reading the body (404 first,
  // decisions' order of checks): they get real ones.
  memberId = household.json().members[0].memberId;
  const request = await gateway.inject({
    method: 'POST',
    url: `/api/v1/households/${householdId}/requests`,
    headers: { authorization: `Bearer ${bearer}` },
    payload: { title: 'Raincoat', url: 'https://shop.com/raincoat', price: 40, currency: 'EUR' },
  });
  requestId = request.json().requestId;
  // So do routes naming a mission (the orchestrator checks it exists and who may act on it).
  const orchestrator = apps.find((a) => a.service === 'orchestrator')!.app;
  const mission = await orchestrator.inject({
    method: 'POST',
    url: `/api/v1/households/${householdId}/orchestrator/missions`,
    headers: {
      'x-internal-token': internalToken('orchestrator'),
      'x-user-id': 'usr_alice',
      'x-member-role': 'PARENT_GUARDIAN',
      'x-user-email': 'alice@dev.local',
    },
    payload: { mission_type: 'STYLE', initial_message: 'a raincoat' },
  });
  missionId = mission.json().mission_id;
});
afterAll(async () => {
  for (const { app } of apps ?? []) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const listDeep = (depth: number) => `{"metadata":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('JSON nesting depth on every route with a JSON body', () => {
  it('refuses 65 and 1000 levels with 400 BAD_REQUEST before anything runs', async () => {
    let checked = 0;
    let deep = 0;
    for (const { service, app } of apps) {
      const caller = {
        'x-internal-token': service === 'gateway' ? 'dev-buyflow-internal-token' : internalToken(service),
        'x-user-id': 'usr_alice',
        'x-member-role': 'PARENT_GUARDIAN',
        'x-user-email': 'alice@dev.local',
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
      };
      const serviceCall = {
        'x-internal-token': caller['x-internal-token'],
        'content-type': 'application/json',
      };
      for (const op of operationsOf(app).filter((o) => o.jsonBody)) {
        const url = op.path
          .replace('{id}', householdId)
          .replace('{memberId}', memberId)
          .replace('{requestId}', requestId)
          .replace('{mId}', missionId)
          .replace(/\{[^}]+\}/g, 'x_1');
        for (const payload of [nested(65), listDeep(65), nested(1000)]) {
          let res = await app.inject({ method: op.method as 'POST', url, headers: caller, payload });
          // A route only a service may call (a mission's Transcript, say) refuses a member first;
          // its depth is checked for the service's own call. The gateway's routes for the agent
          // take the gateway's own internal token, not the buy flow's, and check it first.
          if (res.statusCode === 403)
            res = await app.inject({
              method: op.method as 'POST',
              url,
              headers:
                service === 'gateway'
                  ? { ...caller, 'x-internal-token': internalToken('gateway'), 'x-user-id': memberId }
                  : serviceCall,
              payload,
            });
          // A path naming a resource made up here is 404 before its body is read
          // (decisions' order of checks: existence, then the body): nothing ran on it either.
          const madeUp =
            /\{(?!id\}|memberId\}|requestId\}|mId\})[^}]+\}/.test(op.path) ||
            (op.path.includes('{id}') && !op.path.includes('/households/{id}'));
          if (madeUp && res.statusCode === 404) {
            expect(res.json().error, `${op.method} ${op.path}`).toBe('NOT_FOUND');
            continue;
          }
          expect({
            service,
            route: `${op.method} ${op.path}`,
            status: res.statusCode,
            body: res.json(),
          }).toEqual({
            service,
            route: `${op.method} ${op.path}`,
            status: 400,
            body: { error: 'BAD_REQUEST', message: 'JSON is nested deeper than 64 levels' },
          });
          deep++;
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
    // Most routes reach the depth check itself.
    expect(deep).toBeGreaterThan(60);
  });

  it('still accepts 64 levels (the limit itself)', async () => {
    const artifacts = apps.find((a) => a.service === 'artifacts-audit')!.app;
    const res = await artifacts.inject({
      method: 'POST',
      url: `/api/v1/households/${householdId}/audit/events`,
      headers: { 'x-internal-token': internalToken('artifacts-audit'), 'content-type': 'application/json' },
      payload: nested(64),
    });
    expect(res.statusCode).toBe(422);
  });
});
