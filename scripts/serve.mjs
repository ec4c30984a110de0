// The image's entry point: runs the service named by SERVICE (a Dockerfile build argument that
// becomes an environment variable), as `node --conditions=@hs/source scripts/serve.mjs`.
const SERVICES = [
  'gateway',
  'orchestrator',
  'wardrobe',
  'commerce',
  'vto',
  'cartprep',
  'browser-bridge',
  'artifacts-audit',
];
const service = process.env.SERVICE ?? '';
if (!SERVICES.includes(service)) {
  process.stderr.write(
    `serve: SERVICE must be one of ${SERVICES.join(', ')} (value: ${service || 'unset'})\n`,
  );
  process.exit(1);
}
await import(`../services/${service}/src/server.ts`);
