// The image's entry point: runs the service named by SERVICE (a Dockerfile build argument that
// becomes an environment variable), as `node --conditions=@hs/source scripts/serve.mjs`.
import { existsSync } from 'node:fs';

const service = process.env.SERVICE ?? '';
const server = new URL(`../services/${service}/src/server.ts`, import.meta.url);
if (!/^[a-z][a-z-]*$/.test(service) || !existsSync(server)) {
  process.stderr.write(`serve: SERVICE must name a folder of services/ (value: ${service || 'unset'})\n`);
  process.exit(1);
}
await import(server.href);
