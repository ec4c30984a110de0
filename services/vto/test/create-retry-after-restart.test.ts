// A submit queued here whose answer never reached the gateway (the process was killed right after
// saving, or answered after the gateway's 504): the gateway kept no answer for the client's
// Idempotency-Key, so the client's retry comes here again. It must get the job already queued,
// not a second try-on of the same pictures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VtoJob } from '@hs/contracts';
import { createStore } from '@hs/store';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, HH, type TestApp } from './helpers.ts';

const dirs: string[] = [];
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startOn(file: string) {
  const t = await buildTestApp({}, { store: createStore({ backend: 'sqlite', file }) });
  apps.push(t);
  return t;
}

const body = {
  personImageRef: 'https://images.example.com/person.png',
  garmentImageRef: 'https://images.example.com/shirt.png',
};
const submit = (t: TestApp, key: string | null, payload: object = body) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/households/${HH}/vto/jobs`,
    headers: { ...t.headers(), ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
const jobs = async (t: TestApp) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/v1/households/${HH}/vto/jobs`, headers: t.headers() })
  ).json().items as VtoJob[];

describe('POST /vto/jobs retried with its Idempotency-Key after a restart', () => {
  it('answers with the job the first attempt queued, and the household has one job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vto-retry-'));
    dirs.push(dir);
    const file = join(dir, 'vto.sqlite');
    const before = await startOn(file);
    const first = await submit(before, 'try-1');
    expect(first.statusCode).toBe(202);
    await before.close();
    apps.splice(0);

    const after = await startOn(file);
    const retry = await submit(after, 'try-1');
    expect(retry.statusCode).toBe(202);
    expect(retry.json().jobId).toBe(first.json().jobId);
    expect(retry.headers.location).toBe(first.headers.location);
    expect((await jobs(after)).map((j) => j.jobId)).toEqual([first.json().jobId]);
  });

  it('a new key, other pictures or no key still queue a new job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vto-retry-'));
    dirs.push(dir);
    const t = await startOn(join(dir, 'vto.sqlite'));
    for (const [key, payload] of [
      ['try-1', body],
      ['try-2', body],
      ['try-1', { ...body, garmentImageRef: 'https://images.example.com/coat.png' }],
      [null, body],
    ] as const)
      expect((await submit(t, key, payload)).statusCode).toBe(202);
    expect(await jobs(t)).toHaveLength(4);
  });
});
