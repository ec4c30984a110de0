// Boot time and idle memory: each service alone from its production build and from its
// TypeScript source, beside a bare Node process printing nothing (the floor), all eight
// together until every /health answers, and all eight in one process (the all-in-one mode).
// Needs `pnpm build` first for the built figures.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { ServiceName } from '@hs/contracts';
import { SERVICE_NODE_OPTIONS } from '@hs/service-kit';
import { freePort, freePortRange, REPO_ROOT } from '@hs/testing';

/** How the services boot here: quiet, and with the Node options they run with in production. */
const BOOT_ENV = {
  APP_ENV: 'test',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  NODE_OPTIONS: SERVICE_NODE_OPTIONS,
};

export type BootFigure = { ms: number; rssMb: number };

export const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

export function entryArgs(service: ServiceName, built: boolean): string[] {
  const dist = join(REPO_ROOT, 'services', service, 'dist', 'server.js');
  if (built && existsSync(dist)) return [dist];
  return ['--conditions=@hs/source', join(REPO_ROOT, 'services', service, 'src', 'server.ts')];
}

/**
 * One GET /health on a fresh connection. The poller shares the two cores with the services it
 * times, so it is as cheap as a probe gets: a refused fetch costs several times more CPU, and
 * polling eight ports every 10 ms with fetch took about 1 CPU-s of the boot it measured.
 */
const healthy = (port: number) =>
  new Promise<boolean>((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/health', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });

async function untilHealthy(port: number, child: ChildProcess, deadline: number) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} during boot`);
    if (await healthy(port)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`port ${port} not healthy in time`);
}

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};

/** Boots the given services at once; resolves when all are healthy, with each one's figures. */
export async function bootAll(
  services: readonly ServiceName[],
  built: boolean,
  settleMs = 1000,
): Promise<{ ms: number; perService: Record<string, BootFigure> }> {
  const ports = await Promise.all(services.map(() => freePort()));
  const started = Date.now();
  const env = { ...process.env, ...BOOT_ENV };
  const children = services.map((service, i) =>
    spawn(process.execPath, entryArgs(service, built), {
      cwd: REPO_ROOT,
      env: { ...env, PORT: String(ports[i]) },
      stdio: 'ignore',
    }),
  );
  try {
    const done = await Promise.all(
      children.map(async (child, i) => {
        await untilHealthy(ports[i]!, child, started + 30_000);
        return Date.now() - started;
      }),
    );
    // Idle memory once boot work (JIT, timers' first runs) has settled.
    await new Promise((r) => setTimeout(r, settleMs));
    const perService = Object.fromEntries(
      services.map((s, i) => [s, { ms: done[i]!, rssMb: rssMb(children[i]!.pid!) }]),
    );
    return { ms: Math.max(...done), perService };
  } finally {
    await Promise.all(children.map(stop));
  }
}

/** The all-in-one mode (dist/one-process.js): time until all eight answer /health, idle RSS. */
export async function bootOneProcess(settleMs = 1000): Promise<BootFigure> {
  const entry = join(REPO_ROOT, 'dist', 'one-process.js');
  if (!existsSync(entry)) throw new Error('dist/one-process.js is missing: run `pnpm build` first');
  const base = await freePortRange(ServiceName.options.length);
  const started = Date.now();
  const child = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...BOOT_ENV, PERSISTENCE_BACKEND: 'inmemory', PORT_BASE: String(base) },
    stdio: 'ignore',
  });
  try {
    await Promise.all(ServiceName.options.map((_, i) => untilHealthy(base + i, child, started + 30_000)));
    const ms = Date.now() - started;
    await new Promise((r) => setTimeout(r, settleMs));
    return { ms, rssMb: rssMb(child.pid!) };
  } finally {
    await stop(child);
  }
}

/** The share of the machine's CPU time spent idle over `ms` (all cores, from /proc/stat). */
async function idleShare(ms: number): Promise<number> {
  const sample = () => {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // idle + iowait, and the total.
    return { idle: fields[3]! + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  };
  const a = sample();
  await new Promise((r) => setTimeout(r, ms));
  const b = sample();
  return b.total === a.total ? 1 : (b.idle - a.idle) / (b.total - a.total);
}

/**
 * Waits until the machine is idle (90% over half a second; at most `maxMs`), since the boot
 * targets are for an idle machine: the benches before this one leave processes exiting, files
 * being written back and a large heap in this process. Returns how long it waited.
 */
export async function untilQuiet(maxMs = 15_000): Promise<number> {
  const started = Date.now();
  (globalThis as { gc?: () => void }).gc?.();
  while (Date.now() - started < maxMs && (await idleShare(500)) < 0.9) {
    // keep sampling
  }
  return Date.now() - started;
}

/** The floor: a Node process that starts, then exits. */
export async function bareNodeMs(): Promise<number> {
  const started = Date.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return Date.now() - started;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('bare node', await bareNodeMs(), 'ms');
  for (const built of [true, false]) {
    const r = await bootAll(['commerce'], built);
    console.log(built ? 'commerce built' : 'commerce source', r.perService);
  }
  const all = await bootAll(ServiceName.options, true);
  console.log('all eight built', all.ms, 'ms', all.perService);
  console.log('all eight in one process', await bootOneProcess());
}
