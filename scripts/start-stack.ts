// `pnpm start`: the eight services as eight processes on 8080–8087, with the embedded durable
// store (sqlite under ./.data) and the stub agent. Ctrl-C stops all of them.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES = [
  ['gateway', 8080],
  ['orchestrator', 8081],
  ['wardrobe', 8082],
  ['commerce', 8083],
  ['vto', 8084],
  ['cartprep', 8085],
  ['browser-bridge', 8086],
  ['artifacts-audit', 8087],
] as const;

const env = {
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
  const child = spawn(
    process.execPath,
    ['--conditions=@hs/source', join(root, 'services', service, 'src', 'server.ts')],
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
