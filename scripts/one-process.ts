// The all-in-one mode (`npm start -- --one-process`): the eight services as eight Fastify apps
// in this one Node process, each on its own port (PORT_BASE…PORT_BASE+7) with its own
// settings, store (its own sqlite file), logger and trace exporter, so logs, metrics and traces
// still name each service. For small homes and laptops; eight processes (or containers) stay
// the default and the way to deploy at scale. Built to dist/one-process.js by `pnpm build`.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceName } from '@hs/contracts';
import { runServices, type ServiceDefinition } from '@hs/service-kit';
import { service as artifactsAudit } from '../services/artifacts-audit/src/service.ts';
import { service as browserBridge } from '../services/browser-bridge/src/service.ts';
import { service as cartprep } from '../services/cartprep/src/service.ts';
import { service as commerce } from '../services/commerce/src/service.ts';
import { service as gateway } from '../services/gateway/src/service.ts';
import { service as orchestrator } from '../services/orchestrator/src/service.ts';
import { service as vto } from '../services/vto/src/service.ts';
import { service as wardrobe } from '../services/wardrobe/src/service.ts';
import { stackLayout } from './stack-layout.ts';

const definitions: Record<ServiceName, ServiceDefinition> = {
  gateway,
  orchestrator,
  wardrobe,
  commerce,
  vto,
  cartprep,
  'browser-bridge': browserBridge,
  'artifacts-audit': artifactsAudit,
};

// From the sources (scripts/) or the build (dist/): the checkout's root either way.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let layout: ReturnType<typeof stackLayout>;
try {
  layout = stackLayout(root);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
await runServices(
  layout.services.map(([name, port]) => ({
    definition: definitions[name],
    env: { ...layout.env, PORT: String(port) },
  })),
);
