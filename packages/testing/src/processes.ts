import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceName } from '@hs/contracts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const ALL: readonly ServiceName[] = ServiceName.options;

/**
 * Sends `sig` to `child` unless it has ended, and waits until it has (so its files can be
 * removed); resolves to its exit code (null: ended by a signal).
 */
export async function signalAndWait(child: ChildProcess, sig: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, 'exit');
  child.kill(sig);
  const [code] = (await exited) as [number | null];
  return code;
}
const prefix = (s: ServiceName) => s.toUpperCase().replace(/-/g, '_');

/** A free loopback port (bound to 0, read, released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free loopback ports (for a PORT_BASE). Taken below Linux's
 * ephemeral range (32768 on), so the ports other tests get from `listen(0)` never land in it.
 */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (32_000 - 20_000));
    let free = true;
    for (let port = base; port < base + count && free; port++) free = await portIsFree(port);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

export interface RunningStack {
  url(service: ServiceName): string;
  /** The environment every service got (before `perService`); a durable stack's dirs are in it. */
  env: Record<string, string>;
  /** A `durable` stack's temporary directory, removed by `close()`. */
  dataDir?: string;
  /** SIGKILL one service (a crash), leaving the others running. */
  kill(service: ServiceName): Promise<void>;
  /** SIGTERM one service and wait for it to exit; resolves to its exit code (null: killed by a signal). */
  stop(service: ServiceName): Promise<number | null>;
  start(service: ServiceName, extraEnv?: Record<string, string>): Promise<void>;
  logs(service: ServiceName): string;
  /** The running process's id (benchmarks read its memory from /proc). */
  pid(service: ServiceName): number | undefined;
  /** SIGTERM every service, wait for them to exit, then remove a durable stack's `dataDir`. */
  close(): Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, logs: () => string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited during boot:\n${logs()}`);
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not become healthy:\n${logs()}`);
}

/**
 * Starts real service processes on free loopback ports, wired to each other through their
 * `<PEER>_BASE_URL` settings. Services not started still get a (dead) address, so calls to them
 * exercise the "peer down" path.
 *
 * `durable: true` gives the stack state that outlives a restarted process and is gone afterwards:
 * a fresh temporary `dataDir` holding each service's sqlite file (`PERSISTENCE_BACKEND=sqlite`,
 * `DATA_DIR=dataDir`; the files are named per service) and the one local blob storage they share
 * (`ARTIFACT_LOCAL_DIR=<dataDir>/artifacts`). Values given in `env` or `perService` win.
 */
export async function startStack(options: {
  services: ServiceName[];
  env?: Record<string, string>;
  perService?: Partial<Record<ServiceName, Record<string, string>>>;
  durable?: boolean;
  /** Run each service's production build (services/<name>/dist/server.js) where one exists. */
  built?: boolean;
}): Promise<RunningStack> {
  const ports = Object.fromEntries(
    await Promise.all(ALL.map(async (s) => [s, await freePort()] as const)),
  ) as Record<ServiceName, number>;
  const dataDir = options.durable ? mkdtempSync(join(tmpdir(), 'hs-stack-')) : undefined;
  const removeDataDir = () => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const env: Record<string, string> = {
    APP_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...Object.fromEntries(ALL.map((s) => [`${prefix(s)}_BASE_URL`, `http://127.0.0.1:${ports[s]}`])),
    // Clients of a stack reach it through its gateway: the URLs handed out point there.
    PUBLIC_BASE_URL: `http://127.0.0.1:${ports.gateway}`,
    ...(dataDir
      ? { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dataDir, ARTIFACT_LOCAL_DIR: join(dataDir, 'artifacts') }
      : {}),
    ...options.env,
  };
  const children = new Map<ServiceName, ChildProcess>();
  const output = new Map<ServiceName, string>();

  const start = async (service: ServiceName, extraEnv: Record<string, string> = {}) => {
    output.set(service, '');
    const dist = join(REPO_ROOT, 'services', service, 'dist', 'server.js');
    const child = spawn(
      process.execPath,
      options.built && existsSync(dist)
        ? [dist]
        : ['--conditions=@hs/source', join(REPO_ROOT, 'services', service, 'src', 'server.ts')],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          ...env,
          ...options.perService?.[service],
          ...extraEnv,
          PORT: String(ports[service]),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const append = (chunk: Buffer) => output.set(service, (output.get(service) ?? '') + chunk.toString());
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    children.set(service, child);
    await waitHealthy(`http://127.0.0.1:${ports[service]}`, child, () => output.get(service) ?? '');
  };

  const signal = async (service: ServiceName, sig: NodeJS.Signals): Promise<number | null> => {
    const child = children.get(service);
    return child ? signalAndWait(child, sig) : null;
  };

  try {
    await Promise.all(options.services.map((s) => start(s)));
  } catch (err) {
    await Promise.all([...children.keys()].map((s) => signal(s, 'SIGKILL')));
    removeDataDir();
    throw err;
  }
  return {
    url: (s) => `http://127.0.0.1:${ports[s]}`,
    env,
    ...(dataDir ? { dataDir } : {}),
    kill: async (s) => {
      await signal(s, 'SIGKILL');
    },
    stop: (s) => signal(s, 'SIGTERM'),
    start,
    logs: (s) => output.get(s) ?? '',
    pid: (s) => children.get(s)?.pid,
    close: async () => {
      await Promise.all([...children.keys()].map((s) => signal(s, 'SIGTERM')));
      removeDataDir();
    },
  };
}
