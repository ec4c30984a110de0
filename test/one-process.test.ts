// The all-in-one mode (`npm start -- --one-process`): eight Fastify apps in one Node process,
// each on its own port with its own store and its own service name in its log lines, working
// together over real HTTP; SIGTERM drains all eight; one bad setting stops the boot in one line.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '@hs/client';
import { ServiceName } from '@hs/contracts';
import {
  freePortRange,
  type OtlpReceiver,
  REPO_ROOT,
  signalAndWait,
  startOtlpReceiver,
  waitUntil,
} from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ENTRY = join(REPO_ROOT, 'scripts', 'one-process.ts');

type AllInOne = { child: ChildProcess; base: number; lines: string[]; exited: Promise<number | null> };

async function startAllInOne(env: Record<string, string>): Promise<AllInOne> {
  const base = await freePortRange(ServiceName.options.length);
  const child = spawn(process.execPath, ['--conditions=@hs/source', ENTRY], {
    cwd: REPO_ROOT,
    env: { ...process.env, APP_ENV: 'test', LOG_FORMAT: 'json', PORT_BASE: String(base), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, base, lines, exited };
}

describe('all eight services in one process', () => {
  let dir: string;
  let app: AllInOne;
  let receiver: OtlpReceiver;
  const url = (service: ServiceName) => `http://127.0.0.1:${app.base + ServiceName.options.indexOf(service)}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'one-process-'));
    receiver = await startOtlpReceiver();
    app = await startAllInOne({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      PERSISTENCE_BACKEND: 'sqlite',
      DATA_DIR: join(dir, 'data'),
      ARTIFACT_LOCAL_DIR: join(dir, 'blobs'),
    });
    for (const service of ServiceName.options)
      await waitUntil(
        `${service} healthy`,
        () =>
          fetch(`${url(service)}/health`)
            .then((r) => r.ok)
            .catch(() => false),
        { timeoutMs: 30_000, context: () => app.lines.join('\n') },
      );
  }, 40_000);
  afterAll(async () => {
    if (app) await signalAndWait(app.child, 'SIGKILL');
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('answers on eight ports, each as its own service with its own store', async () => {
    for (const service of ServiceName.options) {
      const health = await fetch(`${url(service)}/health`).then((r) => r.json());
      expect(health).toEqual({ status: 'ok', service, version: expect.any(String) });
      expect((await fetch(`${url(service)}/ready`)).status).toBe(200);
      expect(existsSync(join(dir, 'data', `${service}.sqlite`))).toBe(true);
    }
  });

  it('serves a family through the gateway, the services calling each other over HTTP', async () => {
    const anonymous = createApiClient({ baseUrl: url('gateway') });
    const login = await anonymous.POST('/api/v1/auth/login', {
      body: { idToken: 'one-process@family.test' },
    });
    expect(login.response.status).toBe(200);
    const client = createApiClient({ baseUrl: url('gateway'), token: login.data!.accessToken });
    const household = await client.POST('/api/v1/households', { body: { name: 'Laptop family' } });
    expect(household.response.status).toBe(201);
    const id = household.data!.householdId;
    const item = await client.POST('/api/v1/households/{id}/wardrobe/items', {
      params: { path: { id } },
      body: { category: 'TOP', colors: ['blue'] },
      headers: { 'x-request-id': 'req-one-process-item' },
    });
    expect(item.response.status).toBe(201);
    // Links handed out point at this stack's gateway (PORT_BASE), not at the default port 8080.
    const upload = await client.POST('/api/v1/households/{id}/wardrobe/items/{itemId}/upload-url', {
      params: { path: { id, itemId: item.data!.itemId } },
      body: { contentType: 'image/png' },
    });
    expect(upload.data?.uploadUrl.startsWith(`${url('gateway')}/api/v1/uploads/`)).toBe(true);
    const items = await client.GET('/api/v1/households/{id}/wardrobe/items', { params: { path: { id } } });
    expect(items.data?.items.map((i) => i.itemId)).toEqual([item.data!.itemId]);
    // The gateway's audit entry reached the audit service's own store.
    const log = await waitUntil('the audit entry', async () => {
      const entries = await client.GET('/api/v1/households/{id}/audit-logs', { params: { path: { id } } });
      return entries.data?.length ? entries.data : undefined;
    });
    expect(log.map((e) => e.action)).toContain('HOUSEHOLD_CREATED');

    // One request, logged by each service it crossed under that service's own name.
    const logged = app.lines
      .filter((line) => line.includes('req-one-process-item'))
      .map((line) => (JSON.parse(line) as { service: string }).service);
    expect(new Set(logged)).toEqual(new Set(['gateway', 'wardrobe']));
    // And traced the same way: each service's spans carry its own service.name, in one trace.
    const itemSpans = () =>
      receiver.spans.filter(
        (s) => s.attributes['url.path'] === `/api/v1/households/${id}/wardrobe/items` && s.kind === 2,
      );
    // Exports arrive in batches per service: wait for both, then check nothing else claimed them.
    const spans = await waitUntil('server spans of the item requests from gateway and wardrobe', async () => {
      const found = itemSpans();
      return found.some((s) => s.service === 'gateway') && found.some((s) => s.service === 'wardrobe')
        ? found
        : undefined;
    });
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gateway', 'wardrobe']));
    // And counted by each service in its own metrics, not in a registry the process shares.
    const wardrobeMetrics = await fetch(`${url('wardrobe')}/metrics`).then((r) => r.text());
    expect(wardrobeMetrics).toMatch(/http_requests_total\{method="POST",route="[^"]*wardrobe\/items"/);
    expect(wardrobeMetrics).not.toContain('/api/v1/auth/login');
  });

  it('drains all eight on SIGTERM and exits 0', async () => {
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    const shutDown = app.lines.filter((line) => line.includes('"msg":"shut down"'));
    expect(new Set(shutDown.map((line) => (JSON.parse(line) as { service: string }).service))).toEqual(
      new Set(ServiceName.options),
    );
  });
});

describe('a bad setting in the all-in-one mode', () => {
  it('stops the boot with one line naming the service and the setting, and exit 1', async () => {
    const app = await startAllInOne({
      PERSISTENCE_BACKEND: 'inmemory',
      VTO_INFERENCE_BACKEND: 'crystal-ball',
    });
    expect(await app.exited).toBe(1);
    const errors = app.lines.filter((line) => !line.startsWith('{'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^vto: .*VTO_INFERENCE_BACKEND/);
  }, 30_000);
});
