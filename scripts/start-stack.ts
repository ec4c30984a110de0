// `pnpm start`: the eight services as eight processes on PORT_BASE…PORT_BASE+7 (8080–8087 by
// default), with the embedded durable store (sqlite under ./.data) and the stub agent. Each runs
// its production build (services/<name>/dist/server.js, from `pnpm build`) when there is one,
// else its TypeScript source. `--one-process` runs all eight in a single Node process instead
// (dist/one-process.js, see one-process.ts). Ctrl-C (or SIGTERM to this process) stops them all.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whenPackageManagerGone } from './package-manager-watch.ts';
import { stackLayout } from './stack-layout.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2).filter((a) => a !== '--');
const unknown = args.filter((a) => a !== '--one-process');
if (unknown.length > 0) {
  console.error(`unknown option ${unknown.join(' ')} (the only one is --one-process)`);
  process.exit(2);
}
const oneProcess = args.includes('--one-process');
let layout: ReturnType<typeof stackLayout>;
try {
  layout = stackLayout(root);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const { services, env } = layout;

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

/** The newest modification time (ms) of the TypeScript sources a build is made from. */
function newestSource(): number {
  let newest = 0;
  const dirs = ['packages', 'services'].flatMap((top) =>
    existsSync(join(root, top))
      ? readdirSync(join(root, top)).map((name) => join(root, top, name, 'src'))
      : [],
  );
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (file.endsWith('.ts')) newest = Math.max(newest, statSync(join(dir, file)).mtimeMs);
  }
  // The all-in-one entry and what it reads of this folder.
  for (const file of ['one-process.ts', 'stack-layout.ts'])
    if (existsSync(join(root, 'scripts', file)))
      newest = Math.max(newest, statSync(join(root, 'scripts', file)).mtimeMs);
  return newest;
}
const sourcesChangedAt = newestSource();

/**
 * Runs the built entry point when there is one built since the sources last changed, else the
 * TypeScript source: started without `npm start` (which builds first), an old build would run
 * code that is no longer there.
 */
function nodeArgs(built: string, source: string): string[] {
  if (existsSync(built) && statSync(built).mtimeMs >= sourcesChangedAt) return [built];
  if (existsSync(built))
    console.error(
      `${built.slice(root.length + 1)} is older than the source: running the source (npm run build to refresh)`,
    );
  return ['--conditions=@hs/source', source];
}

function launch(name: string, args: string[], childEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `${name.padEnd(15)} | `;
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

/** Whether something already listens on the port (another stack, another program). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

// A port already taken would be answered by whoever holds it: the health checks below would
// report this stack up while its own service is failing to listen.
const taken: string[] = [];
for (const [service, port] of services) if (await portTaken(port)) taken.push(`${port} (${service})`);
if (taken.length > 0) {
  console.error(
    `cannot start: port ${taken.join(', ')} already in use (another stack or program); stop it, or move this stack with PORT_BASE=<port>`,
  );
  process.exit(2);
}

if (oneProcess) {
  // Each log line names its service (the `service` field), so the prefix names the process.
  launch(
    'all-in-one',
    nodeArgs(join(root, 'dist', 'one-process.js'), join(root, 'scripts', 'one-process.ts')),
    env,
  );
} else {
  for (const [service, port] of services)
    launch(
      service,
      nodeArgs(
        join(root, 'services', service, 'dist', 'server.js'),
        join(root, 'services', service, 'src', 'server.ts'),
      ),
      { ...env, PORT: String(port) },
    );
}

/** How long the stack may take to come up: a loaded machine is slow, a broken setting stops it at once. */
const HEALTHY_WITHIN_MS = 120_000;

async function waitHealthy() {
  const started = Date.now();
  const deadline = started + HEALTHY_WITHIN_MS;
  const pending = new Set(services.map(([s]) => s));
  let said = false;
  while (pending.size && Date.now() < deadline && !stopping) {
    if (!said && Date.now() - started > 30_000) {
      said = true;
      process.stdout.write(`still starting after 30 s: ${[...pending].join(', ')}\n`);
    }
    for (const [service, port] of services) {
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
    process.stderr.write(
      `not healthy after ${HEALTHY_WITHIN_MS / 1000} s: ${[...pending].join(', ')} (their lines above say why)\n`,
    );
    stopAll(1);
    return;
  }
  process.stdout.write(`\nAll eight services are up${oneProcess ? ' (in one process)' : ''}:\n`);
  for (const [service, port] of services)
    process.stdout.write(
      `  ${service.padEnd(16)} http://127.0.0.1:${port}  (docs: /docs, OpenAPI: /openapi.json)\n`,
    );
  process.stdout.write(
    `Data: ${env.DATA_DIR} (PERSISTENCE_BACKEND=${env.PERSISTENCE_BACKEND}), files in ${env.ARTIFACT_LOCAL_DIR}. Ctrl-C stops the stack.\n\n`,
  );
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
process.on('SIGHUP', () => stopAll(0));
// Whoever reads our output going away (a closed terminal, a pipe to a pager) must not crash the
// stack with an unhandled EPIPE and leave its services running: their lines are dropped instead.
for (const out of [process.stdout, process.stderr]) out.on('error', () => {});
// Run by `pnpm stack` (or npm), a SIGTERM to the package manager ends it without passing it on:
// the stack, now an orphan, would hold its eight ports for good. Started by one, we stop as if
// signalled once it is gone. The package manager is an ancestor, not always the parent (npm runs
// `sh -c`, which runs the workspace's node wrapper script, which runs us: those stay alive), so
// the chain up to it is watched. Started from a shell in the background (`node
// scripts/start-stack.ts &`), the stack outlives that shell, as asked.
if (process.env.npm_lifecycle_event) whenPackageManagerGone(() => stopAll(0));
await waitHealthy();
