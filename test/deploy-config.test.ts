// Deployment files against the code: every variable they set is one a service's configuration
// declares, and the Kubernetes, Cloud Run and compose files follow the operating rules.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceName } from '@hs/contracts';
import { DEFAULT_PORTS, declaredConfigVariables, SERVICE_NODE_OPTIONS } from '@hs/service-kit';
import { REPO_ROOT } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadArtifactsAuditConfig } from '../services/artifacts-audit/src/config.ts';
import { loadBrowserBridgeConfig } from '../services/browser-bridge/src/config.ts';
import { loadCartprepConfig } from '../services/cartprep/src/config.ts';
import { loadCommerceConfig } from '../services/commerce/src/config.ts';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';
import { loadOrchestratorConfig } from '../services/orchestrator/src/config.ts';
import { loadVtoConfig } from '../services/vto/src/config.ts';
import { loadWardrobeConfig } from '../services/wardrobe/src/config.ts';

const SERVICES = ServiceName.options;
/** Read outside the configuration schemas, each for a reason. */
const PROCESS_VARIABLES = new Set([
  'SERVICE', // scripts/serve.mjs: which service the image runs
  'NODE_ENV', // libraries
  'LOG_FORMAT', // the logger (json or pretty)
  'FIRESTORE_EMULATOR_HOST', // the Firestore client library
  'NODE_OPTIONS', // Node itself (the image sets SERVICE_NODE_OPTIONS)
]);
const BACKGROUND_LOOPS = ['gateway', 'orchestrator', 'cartprep', 'vto'];

for (const load of [
  loadArtifactsAuditConfig,
  loadBrowserBridgeConfig,
  loadCartprepConfig,
  loadCommerceConfig,
  loadGatewayConfig,
  loadOrchestratorConfig,
  loadVtoConfig,
  loadWardrobeConfig,
])
  load({ APP_ENV: 'test' });
const declared = (service: ServiceName) => new Set(declaredConfigVariables(service));
const anyService = new Set(SERVICES.flatMap((s) => [...declared(s)]));
const unknownFor = (names: Iterable<string>, known: Set<string>) =>
  [...names].filter((n) => !known.has(n) && !PROCESS_VARIABLES.has(n));
const isSecret = (name: string) => /TOKEN$|SECRET$|API_KEY$/.test(name) && !name.startsWith('REQUIRE_');

type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are checked field by field
type Obj = any;

describe('the image', () => {
  it('runs the services with the Node options npm start and the benchmarks use', () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`ENV NODE_OPTIONS=${SERVICE_NODE_OPTIONS}\n`);
  });

  it('sets only variables the services read, and probes each service on its own default port', () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    const envBlocks = [...dockerfile.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].map((m) => m[1]!);
    const names = envBlocks.flatMap((block) => [...block.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!));
    expect(names).toContain('BROWSER_CHROMIUM_PATH');
    expect(unknownFor(names, anyService)).toEqual([]);
    const probe = /HEALTHCHECK[\s\S]*?const d=(\{[^}]*\})/.exec(dockerfile)?.[1] ?? '{}';
    const ports = Function(`return ${probe}`)() as Record<string, number>;
    expect(ports).toEqual(DEFAULT_PORTS);
  });
});

describe('configuration schemas', () => {
  it('are known for every service (the checks below rely on them)', () => {
    for (const s of SERVICES) expect(declared(s).has('PORT'), s).toBe(true);
  });
});

const compose = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
});
const hasCompose = !compose.error;
if (!hasCompose) console.warn('docker-compose not installed: docker-compose.yml checks SKIPPED');

describe.skipIf(!hasCompose)('docker-compose.yml', () => {
  const config: Obj = hasCompose ? parse(compose.stdout) : {};
  it('sets only variables the services declare', () => {
    expect(compose.status, compose.stderr).toBe(0);
    for (const service of SERVICES) {
      const env = Object.keys(config.services[service].environment);
      expect(unknownFor(env, anyService), service).toEqual([]);
    }
  });

  it('starts services after the ones they call are healthy, read-only, with named volumes and a public address', () => {
    for (const service of SERVICES) {
      const s = config.services[service];
      expect(s.read_only, service).toBe(true);
      expect(s.cap_drop, service).toEqual(['ALL']);
      expect(s.volumes.map((v: Obj) => (typeof v === 'string' ? v : `${v.source}:${v.target}`))).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^data:\/data/),
          expect.stringMatching(/^blobs:\/blobs/),
        ]),
      );
      // Never a compose-internal host name: phones cannot resolve those.
      const host = new URL(s.environment.PUBLIC_BASE_URL).hostname;
      expect(SERVICES as readonly string[], service).not.toContain(host);
      if (service !== 'artifacts-audit')
        for (const dep of Object.values(s.depends_on ?? {}) as Obj[])
          expect(dep.condition, service).toBe('service_healthy');
    }
    expect(Object.keys(config.services.gateway.depends_on).sort()).toEqual(
      SERVICES.filter((s) => s !== 'gateway').sort(),
    );
    expect(config.services.firestore.profiles).toEqual(['firestore']);
    expect(Object.keys(config.volumes).sort()).toEqual(['blobs', 'data']);
  });
});

const kubectl = spawnSync('kubectl', ['kustomize', 'deploy/kubernetes/overlays/production'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
});
// Kustomize v4+ (kubectl 1.21+): older ones do not know `labels`, `replicas` or inline patches.
const kustomizeMajor = Number(
  /Kustomize Version: v(\d+)/.exec(
    spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).stdout ?? '',
  )?.[1] ?? 0,
);
const hasKubectl = !kubectl.error && kustomizeMajor >= 4;
if (!hasKubectl)
  console.warn(
    'kubectl with kustomize v4+ not installed: the kustomize rendering checks are SKIPPED (.ci/run installs it)',
  );

describe.skipIf(!hasKubectl)('kubectl kustomize deploy/kubernetes/overlays/production', () => {
  const objects: Obj[] = hasKubectl ? parseAllDocuments(kubectl.stdout).map((d) => d.toJS()) : [];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => of(kind).find((o) => o.metadata.name === name);

  it('renders a Deployment, Service and PodDisruptionBudget per service', () => {
    expect(kubectl.status, kubectl.stderr).toBe(0);
    for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget'])
      expect(
        of(kind)
          .map((o) => o.metadata.name)
          .sort(),
        kind,
      ).toEqual([...SERVICES].sort());
    for (const pdb of of('PodDisruptionBudget'))
      expect(named('Deployment', pdb.metadata.name).spec.replicas).toBe(2);
  });

  it('probes /health for liveness and /ready for readiness, with requests and limits, locked down', () => {
    for (const d of of('Deployment')) {
      const pod = d.spec.template.spec;
      const [c] = pod.containers;
      const name = d.metadata.name;
      expect(c.livenessProbe.httpGet.path, name).toBe('/health');
      expect(c.readinessProbe.httpGet.path, name).toBe('/ready');
      expect(Object.keys(c.resources.requests).sort(), name).toEqual(['cpu', 'memory']);
      expect(Object.keys(c.resources.limits).sort(), name).toEqual(['cpu', 'memory']);
      expect(pod.securityContext.runAsNonRoot, name).toBe(true);
      expect(c.securityContext, name).toMatchObject({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThan(20);
      expect(c.image, name).toMatch(new RegExp(`/household-styling/${name}:`));
    }
  });

  it('sets only declared variables, and every token and secret from a Secret', () => {
    const config = of('ConfigMap')[0];
    expect(unknownFor(Object.keys(config.data), anyService)).toEqual([]);
    expect(Object.keys(config.data).filter(isSecret)).toEqual([]);
    for (const d of of('Deployment')) {
      const service = d.metadata.name as ServiceName;
      const env: Env[] = d.spec.template.spec.containers[0].env;
      expect(
        unknownFor(
          env.map((e) => e.name),
          declared(service),
        ),
        service,
      ).toEqual([]);
      const secrets = [...declared(service)].filter(isSecret);
      for (const name of secrets) {
        const entry = env.find((e) => e.name === name);
        expect(entry?.valueFrom?.secretKeyRef, `${service} ${name}`).toBeDefined();
      }
    }
    expect(
      named('Deployment', 'gateway').spec.template.spec.containers[0].env.map((e: Env) => e.name),
    ).toContain('AUTH_JWT_SECRET');
  });

  it('autoscales gateway and orchestrator, and lets SSE through the Ingress unbuffered', () => {
    expect(
      of('HorizontalPodAutoscaler')
        .map((h) => h.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual(['gateway', 'orchestrator']);
    const ingress = of('Ingress')[0];
    expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe('gateway');
    expect(ingress.metadata.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
    });
    expect(of('ConfigMap')[0].data).toMatchObject({
      PERSISTENCE_BACKEND: 'docstore',
      ARTIFACT_STORAGE_BACKEND: 'cloudstore',
      APP_ENV: 'production',
    });
  });
});

describe('deploy/cloudrun', () => {
  it('takes only secrets the README tells operators to create', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const paragraph = /\n- Secrets \(never in the ConfigMap[\s\S]*?(?=\n- )/.exec(readme)?.[0] ?? '';
    const listed = (name: string) =>
      paragraph.includes(`\`${name}\``) ||
      (name.endsWith('_INTERNAL_TOKEN') && paragraph.includes('`<SERVICE>_INTERNAL_TOKEN`'));
    const fromSecrets = SERVICES.flatMap((service) => {
      const doc: Obj = parse(readFileSync(join(REPO_ROOT, 'deploy', 'cloudrun', `${service}.yaml`), 'utf8'));
      return (doc.spec.template.spec.containers[0].env as Env[])
        .filter((e) => e.valueFrom?.secretKeyRef)
        .map((e) => e.name);
    });
    expect(fromSecrets.length).toBeGreaterThan(0);
    expect([...new Set(fromSecrets)].filter((name) => !listed(name))).toEqual([]);
  });

  for (const service of SERVICES)
    it(`${service}: declared variables, secrets from Secret Manager, CPU always on for background loops`, () => {
      const doc: Obj = parse(readFileSync(join(REPO_ROOT, 'deploy', 'cloudrun', `${service}.yaml`), 'utf8'));
      const template = doc.spec.template;
      const env: Env[] = template.spec.containers[0].env;
      expect(
        unknownFor(
          env.map((e) => e.name),
          declared(service),
        ),
      ).toEqual([]);
      expect(env.map((e) => e.name)).not.toContain('PORT'); // Cloud Run sets it
      for (const e of env.filter((x) => isSecret(x.name)))
        expect(e.valueFrom?.secretKeyRef, e.name).toBeDefined();
      expect(env.find((e) => e.name === 'PERSISTENCE_BACKEND')?.value).toBe('docstore');
      expect(template.metadata.annotations['run.googleapis.com/cpu-throttling']).toBe(
        BACKGROUND_LOOPS.includes(service) ? 'false' : 'true',
      );
      expect(template.spec.containers[0].livenessProbe.httpGet.path).toBe('/health');
    });
});
