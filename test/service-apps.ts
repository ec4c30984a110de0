// Every service's app built in-process (app.inject, no listening) on the in-memory store, with
// peers at a closed loopback port: for tests that walk the routes of all OpenAPI documents.
import type { ServiceName } from '@hs/contracts';
import type { ServiceApp } from '@hs/service-kit';
import { createStore } from '@hs/store';
import { createMemoryBlobStorage } from '@hs/testing';
import { buildApp as artifactsAudit } from '../services/artifacts-audit/src/app.ts';
import { loadArtifactsAuditConfig } from '../services/artifacts-audit/src/config.ts';
import { buildApp as browserBridge } from '../services/browser-bridge/src/app.ts';
import { loadBrowserBridgeConfig } from '../services/browser-bridge/src/config.ts';
import { buildApp as cartprep } from '../services/cartprep/src/app.ts';
import { loadCartprepConfig } from '../services/cartprep/src/config.ts';
import { buildApp as commerce } from '../services/commerce/src/app.ts';
import { loadCommerceConfig } from '../services/commerce/src/config.ts';
import { buildApp as gateway } from '../services/gateway/src/app.ts';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';
import { buildApp as orchestrator } from '../services/orchestrator/src/app.ts';
import { loadOrchestratorConfig } from '../services/orchestrator/src/config.ts';
import { buildApp as vto } from '../services/vto/src/app.ts';
import { loadVtoConfig } from '../services/vto/src/config.ts';
import { buildApp as wardrobe } from '../services/wardrobe/src/app.ts';
import { loadWardrobeConfig } from '../services/wardrobe/src/config.ts';

const DEAD = 'http://127.0.0.1:9';
const env = {
  APP_ENV: 'test',
  ...Object.fromEntries(
    [
      'GATEWAY',
      'ORCHESTRATOR',
      'WARDROBE',
      'COMMERCE',
      'VTO',
      'CARTPREP',
      'BROWSER_BRIDGE',
      'ARTIFACTS_AUDIT',
    ].map((p) => [`${p}_BASE_URL`, DEAD]),
  ),
};
const store = () => createStore({ backend: 'inmemory' });

/** The internal token each service requires on its /api/v1 routes (the test-env defaults). */
export const internalToken = (service: ServiceName) => `dev-internal-token-${service}`;

export type BuiltApp = { service: ServiceName; app: ServiceApp };

export async function buildServiceApps(dataDir: string): Promise<BuiltApp[]> {
  const local = { ...env, ARTIFACT_LOCAL_DIR: dataDir };
  const apps: BuiltApp[] = [
    {
      service: 'gateway',
      app: await gateway({ config: loadGatewayConfig(env), store: store(), background: false }),
    },
    {
      service: 'orchestrator',
      app: await orchestrator({ config: loadOrchestratorConfig(env), store: store(), background: false }),
    },
    { service: 'wardrobe', app: await wardrobe({ config: loadWardrobeConfig(local), store: store() }) },
    { service: 'commerce', app: await commerce({ config: loadCommerceConfig(env), store: store() }) },
    {
      service: 'vto',
      app: await vto({
        config: loadVtoConfig(env),
        store: store(),
        storage: createMemoryBlobStorage(),
        background: false,
      }),
    },
    {
      service: 'cartprep',
      app: await cartprep({ config: loadCartprepConfig(env), store: store(), background: false }),
    },
    {
      service: 'browser-bridge',
      app: await browserBridge({ config: loadBrowserBridgeConfig(env), store: store() }),
    },
    {
      service: 'artifacts-audit',
      app: await artifactsAudit({
        config: loadArtifactsAuditConfig(env),
        store: store(),
        storage: createMemoryBlobStorage(),
      }),
    },
  ];
  for (const { app } of apps) await app.ready();
  return apps;
}

export type Operation = {
  method: string;
  /** As the document writes it, with `{param}` placeholders. */
  path: string;
  jsonBody: boolean;
  /** `x-public`: no credential is checked before the body (login, signed URLs, signed bodies). */
  public: boolean;
  /** `x-roles`: the roles the route allows, when it restricts them. */
  roles: string[] | undefined;
};

/** Every `/api/v1` operation an app's OpenAPI document lists. */
export function operationsOf(app: ServiceApp): Operation[] {
  const doc = app.swagger() as unknown as {
    paths: Record<string, Record<string, Record<string, unknown> & { requestBody?: { content?: object } }>>;
  };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/v1'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        jsonBody: Boolean(op.requestBody?.content && 'application/json' in op.requestBody.content),
        public: op['x-public'] === true,
        roles: op['x-roles'] as string[] | undefined,
      })),
    );
}
