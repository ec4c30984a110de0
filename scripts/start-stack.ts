// `pnpm start`: the eight services as eight processes on PORT_BASE…PORT_BASE+7 (8080–8087 by
// default), with the embedded durable store (sqlite under ./.data) and the stub agent. Each runs
// its production build (services/<name>/dist/server.js, from `pnpm build`) when there is one,
// else its TypeScript source. Ctrl-C (or SIGTERM to this process) stops all of them.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceName } from '@hs/contracts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const portBase = Number(process.env.PORT_BASE ?? 8080);
if (!Number.isInteger(portBase) || portBase < 1 || portBase > 65_528) {
  console.error(`PORT_BASE must be a port number (1–65528), got ${process.env.PORT_BASE}`);
  process.exit(2);
}
// In the order of the default ports (gateway first).
const SERVICES = ServiceName.options.map((service, i) => [service, portBase + i] as const);
const peerUrls = Object.fromEntries(
  SERVICES.map(([s, port]) => [`${s.toUpperCase().replace(/-/g, '_')}_BASE_URL`, `http://127.0.0.1:${port}`]),
);

const env = {
  ...peerUrls,
  PERSISTENCE_BACKEND: 'sqlite',
  DATA_DIR: join(root, '.data'),
  ARTIFACT_LOCAL_DIR: join(root, '.data', 'blobs'),
  LOG_FORMAT: 'json',
  ...process.env,
};

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => process.exit(code), 12_000);
  timer.unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(
    () => process.exit(code),
  );
}

for (const [service, port] of SERVICES) {
  const built = join(root, 'services', service, 'dist', 'server.js');
  const child = spawn(
    process.execPath,
    existsSync(built)
      ? [built]
      : ['--conditions=@hs/source', join(root, 'services', service, 'src', 'server.ts')],
    { cwd: root, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const prefix = `${service.padEnd(15)} | `;
  const pipe = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) =>
    stream?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line) out.write(prefix + line + '\n');
    });
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${prefix}exited (${signal ?? code}); stopping the stack\n`);
      stopAll(1);
    }
  });
  children.push(child);
}

async function waitHealthy() {
  const deadline = Date.now() + 30_000;
  const pending = new Set(SERVICES.map(([s]) => s));
  while (pending.size && Date.now() < deadline && !stopping) {
    for (const [service, port] of SERVICES) {
      if (!pending.has(service)) continue;
      const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(500) })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) pending.delete(service);
    }
    if (pending.size) await new Promise((r) => setTimeout(r, 200));
  }
  if (stopping) return;
  if (pending.size) {
    process.stderr.write(`not healthy after 30 s: ${[...pending].join(', ')}\n`);
    stopAll(1);
    return;
  }
  process.stdout.write('\nAll eight services are up:\n');
  for (const [service, port] of SERVICES)
    process.stdout.write(
      `  ${service.padEnd(16)} http://127.0.0.1:${port}  (docs: /docs, OpenAPI: /openapi.json)\n`,
    );
  process.stdout.write(
    `Data: ${env.DATA_DIR} (PERSISTENCE_BACKEND=${env.PERSISTENCE_BACKEND}). Ctrl-C stops the stack.\n\n`,
  );
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
process.on('SIGHUP', () => stopAll(0));
await waitHealthy();
