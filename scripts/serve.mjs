// The image's entry point: runs the service named by SERVICE (a Dockerfile build argument that
// becomes an environment variable). It runs the production build (`pnpm build`:
// services/<name>/dist/server.js, compiled JavaScript) and falls back to the TypeScript sources
// (Node 24 type stripping, with `--conditions=@hs/source`) in a checkout that was never built.
import { existsSync } from 'node:fs';

const service = process.env.SERVICE ?? '';
const built = new URL(`../services/${service}/dist/server.js`, import.meta.url);
const source = new URL(`../services/${service}/src/server.ts`, import.meta.url);
if (!/^[a-z][a-z-]*$/.test(service) || !existsSync(source)) {
  process.stderr.write(`serve: SERVICE must name a folder of services/ (value: ${service || 'unset'})\n`);
  process.exit(1);
}
await import((existsSync(built) ? built : source).href);
