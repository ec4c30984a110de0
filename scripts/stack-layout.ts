// Where the local stack's eight services listen and how they find each other: PORT_BASE (8080
// by default) for the gateway and the next seven ports for the others, in the order of the
// default ports, with the embedded durable store under ./.data. The links the services hand out
// (upload URLs, artifact links, live views, the voice socket) point at that gateway port. Shared by `npm start` (eight
// processes) and its all-in-one mode (one process).
import { join } from 'node:path';
import { ServiceName } from '@hs/contracts';
import { envNumber, SERVICE_NODE_OPTIONS } from '@hs/service-kit';
import { z } from 'zod';

const portBaseSchema = envNumber(z.number().int().min(1).max(65_528)).default(8080);

export type StackLayout = {
  services: Array<readonly [ServiceName, number]>;
  /** The environment every service gets (the caller's own variables win), without PORT. */
  env: NodeJS.ProcessEnv;
};

export function stackLayout(root: string, portBaseValue = process.env.PORT_BASE): StackLayout {
  // Read like the services' own numeric settings: plain decimal digits only (Number() took
  // `0x2500` as 9472), and an empty value counts as unset.
  const parsed = portBaseSchema.safeParse(portBaseValue || undefined);
  if (!parsed.success)
    throw new Error(`PORT_BASE must be a port number (1–65528), got ${JSON.stringify(portBaseValue)}`);
  const portBase = parsed.data;
  const services = ServiceName.options.map((service, i) => [service, portBase + i] as const);
  const peerUrls = Object.fromEntries(
    services.map(([s, port]) => [
      `${s.toUpperCase().replace(/-/g, '_')}_BASE_URL`,
      `http://127.0.0.1:${port}`,
    ]),
  );
  // Blobs live beside the databases: two stacks with their own DATA_DIR share nothing.
  const dataDir = process.env.DATA_DIR || join(root, '.data');
  return {
    services,
    env: {
      ...peerUrls,
      PUBLIC_BASE_URL: `http://127.0.0.1:${portBase}`,
      PERSISTENCE_BACKEND: 'sqlite',
      DATA_DIR: dataDir,
      ARTIFACT_LOCAL_DIR: join(dataDir, 'blobs'),
      LOG_FORMAT: 'json',
      NODE_OPTIONS: SERVICE_NODE_OPTIONS,
      ...process.env,
    },
  };
}
