// The public API documents: generated from the services' own route contracts (never by hand),
// committed where the gateway serves them, current, and clean under `redocly lint`.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ASYNCAPI_DOCUMENT_PATH,
  generateDocuments,
  PUBLIC_DOCUMENT_PATH,
  serialise,
} from '../scripts/openapi/write.ts';
import { buildGateway, type GatewayApp } from '../services/gateway/test/gateway-harness.ts';

const run = promisify(execFile);
// biome-ignore lint/suspicious/noExplicitAny: walking generated JSON documents
type Json = Record<string, any>;
let generated: Awaited<ReturnType<typeof generateDocuments>>;
let dir = '';
let gateway: GatewayApp;

beforeAll(async () => {
  generated = await generateDocuments();
  dir = await mkdtemp(join(tmpdir(), 'api-docs-'));
  gateway = await buildGateway({});
}, 60_000);
afterAll(async () => {
  await gateway?.close();
});

async function lint(name: string, document: unknown) {
  const file = join(dir, name);
  await writeFile(file, serialise(document));
  const redocly = join(process.cwd(), 'node_modules', '.bin', 'redocly');
  const result = await run(redocly, ['lint', file, '--format', 'summary'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
  }).catch((err: { stdout: string; stderr: string }) => ({ ...err, failed: true }));
  return { failed: 'failed' in result, output: `${result.stdout}${result.stderr}` };
}

describe('public API documents', () => {
  it('are current: `pnpm openapi` wrote what the contracts generate now', async () => {
    expect(JSON.parse(await readFile(PUBLIC_DOCUMENT_PATH, 'utf8'))).toEqual(generated.publicDocument);
    expect(JSON.parse(await readFile(ASYNCAPI_DOCUMENT_PATH, 'utf8'))).toEqual(generated.asyncApiDocument);
  });

  it('serves the public document at /openapi.json, /docs and the AsyncAPI one at /asyncapi.json', async () => {
    const openapi = await gateway.inject({ method: 'GET', url: '/openapi.json' });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json()).toEqual(generated.publicDocument);
    expect(openapi.json()['x-asyncapi']).toBe('/asyncapi.json');
    const asyncapi = await gateway.inject({ method: 'GET', url: '/asyncapi.json' });
    expect(asyncapi.json()).toEqual(generated.asyncApiDocument);
    const docs = await gateway.inject({ method: 'GET', url: '/docs/json' });
    expect(docs.json().paths).toEqual(generated.publicDocument.paths);
  });

  it('describes every forwarded path with a named operation and the bearer it needs', () => {
    const paths: Json = generated.publicDocument.paths;
    const operation = (path: string, method: string) => paths[path]?.[method] as Json | undefined;
    const H = '/api/v1/households/{id}';
    expect(operation(`${H}/wardrobe/items`, 'get')).toMatchObject({
      operationId: 'listWardrobeItems',
      security: [{ bearer: [] }],
    });
    expect(operation(`${H}/requests`, 'post')?.operationId).toBe('createPurchaseRequest');
    expect(operation(`${H}/orchestrator/missions/{mId}/chat`, 'post')?.operationId).toBe(
      'sendMissionMessage',
    );
    expect(operation('/api/v1/auth/login', 'post')?.operationId).toBe('login');
    // The upload takes the image bytes; the stream answers with events, not JSON.
    expect(Object.keys(operation('/api/v1/uploads/{path}', 'put')?.requestBody.content)).toEqual([
      'image/png',
      'image/jpeg',
      'image/webp',
    ]);
    expect(
      Object.keys(operation(`${H}/orchestrator/missions/{mId}/stream`, 'get')?.responses['200'].content),
    ).toEqual(['text/event-stream']);
    // A chat turn answers the MissionView, or the turn's events when the client asks for them.
    expect(operation(`${H}/orchestrator/missions/{mId}/chat`, 'post')?.responses['200'].content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/MissionView' } },
      'text/event-stream': { schema: expect.objectContaining({ type: 'string' }) },
    });
    expect(operation(`${H}/vto/jobs`, 'post')?.operationId).toBe('createTryOnJob');
    expect(operation('/api/v1/auth/login', 'post')?.security).toEqual([]);
    expect(operation('/api/v1/uploads/{path}', 'put')?.security).toEqual([]);
    // No operation a client cannot call, and every one named once.
    const all = Object.entries(paths).flatMap(([path, item]) =>
      Object.values(item as Json).map((o): Json => ({ path, ...(o as Json) })),
    );
    expect(all.filter((o) => o.path.includes('/internal/'))).toEqual([]);
    expect(new Set(all.map((o) => o.operationId)).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(70);
    for (const o of all) expect(o.operationId, o.path).toMatch(/^[a-z][A-Za-z]+$/);
    // Every failure is the error envelope, by name.
    for (const o of all)
      for (const [status, response] of Object.entries(o.responses as Json))
        if (Number(status) >= 400)
          expect((response as Json).content['application/json'].schema, `${o.operationId} ${status}`).toEqual(
            {
              $ref: '#/components/schemas/ErrorEnvelope',
            },
          );
  });

  it('declares what the gateway itself answers in front of each operation, with its headers', () => {
    const paths: Json = generated.publicDocument.paths;
    const H = '/api/v1/households/{id}';
    const op = (path: string, method: string): Json => paths[path][method];
    const statuses = (path: string, method: string) => Object.keys(op(path, method).responses);
    // Forwarded to commerce: a missing bearer, a peer down or slow, a body that is not JSON.
    expect(statuses(`${H}/offers`, 'post')).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '413', '415', '502', '504']),
    );
    // Counted by a per-minute limit: 429, with Retry-After.
    for (const [path, method] of [
      ['/api/v1/auth/login', 'post'],
      [`${H}/orchestrator/missions`, 'post'],
      [`${H}/orchestrator/missions/{mId}/chat`, 'post'],
      [`${H}/orchestrator/missions/{mId}/events`, 'post'],
      [`${H}/requests/{requestId}/confirm-checkout`, 'post'],
    ] as const)
      expect(op(path, method).responses['429']?.headers, `${method} ${path}`).toHaveProperty('Retry-After');
    expect(statuses(`${H}/orchestrator/missions/{mId}/complete`, 'post')).not.toContain('429');
    // A POST that takes no body still reads one sent with it, and may refuse it.
    for (const path of [
      `${H}/browser/sessions/{sessionId}/takeover`,
      `${H}/orchestrator/missions/{mId}/stream-token`,
      `${H}/requests/{requestId}/confirmation-token`,
      `${H}/wardrobe/items/{itemId}/curate`,
    ])
      expect(statuses(path, 'post'), path).toEqual(expect.arrayContaining(['400', '413', '415']));
    // A forwarded create takes an Idempotency-Key and says when its answer is a replay.
    const create = op(`${H}/wardrobe/items`, 'post');
    expect(create.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'idempotency-key', in: 'header' })]),
    );
    expect(create.responses['201'].headers).toHaveProperty('Idempotent-Replayed');
    // A create read back at the path posted to plus its id names it in Location.
    expect(create.responses['201'].headers).toHaveProperty('Location');
    expect(op(`${H}/vto/jobs`, 'post').responses['202'].headers).toHaveProperty('Location');
    expect(op(`${H}/offers/bulk`, 'post').responses['201'].headers).not.toHaveProperty('Location');
    // Every answer of every operation names its request id header.
    for (const [path, item] of Object.entries(paths))
      for (const [method, operation] of Object.entries(item as Json))
        for (const [status, response] of Object.entries((operation as Json).responses as Json)) {
          expect((response as Json).headers, `${method} ${path} ${status}`).toHaveProperty('X-Request-Id');
          if (!path.startsWith(`${H}/`) || (operation as Json).security.length === 0) continue;
          expect(Object.keys((operation as Json).responses), `${method} ${path}`).toEqual(
            expect.arrayContaining(['401', '403', '404']),
          );
        }
  });

  it('names the contracts an app team meets as components, and refers to them', () => {
    const doc: Json = generated.publicDocument;
    for (const name of [
      'PurchaseRequest',
      'CreatePurchaseRequest',
      'MissionView',
      'Brief',
      'WardrobeItem',
      'Offer',
      'ErrorEnvelope',
    ])
      expect(doc.components.schemas, name).toHaveProperty(name);
    expect(
      doc.paths['/api/v1/households/{id}/requests'].post.requestBody.content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/CreatePurchaseRequest',
    });
  });

  it('lint clean with redocly: the public document, the AsyncAPI one and each service’s own', async () => {
    const documents: Array<[string, unknown]> = [
      ['public.json', generated.publicDocument],
      ['asyncapi.json', generated.asyncApiDocument],
      ...generated.documents.map(({ service, document }): [string, unknown] => [`${service}.json`, document]),
    ];
    for (const [name, document] of documents) {
      const { failed, output } = await lint(name, document);
      expect({ name, failed, errors: output.split('\n').filter((l) => l.startsWith('error')) }).toEqual({
        name,
        failed: false,
        errors: [],
      });
    }
  }, 120_000);
});
