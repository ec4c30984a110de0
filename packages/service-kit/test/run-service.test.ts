import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'slow-service.ts');
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

function start(env: Record<string, string>) {
  const proc = spawn(process.execPath, ['--conditions=@hs/source', FIXTURE], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  let slowStarted = () => {};
  const started = new Promise<void>((resolve) => {
    slowStarted = resolve;
  });
  const port = new Promise<number>((resolve, reject) => {
    proc.stdout.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        output.push(line);
        const parsed = JSON.parse(line) as { port?: number; msg?: string };
        if (parsed.port) resolve(parsed.port);
        if (parsed.msg === 'slow started') slowStarted();
      }
    });
    proc.on('exit', () => reject(new Error(`exited before listening: ${output.join('\n')}`)));
  });
  return { proc, port, exited, output, started };
}

/** Until the service stops accepting connections (a loaded machine may take a moment). */
async function untilRefused(port: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const refused = await fetch(`http://127.0.0.1:${port}/health`).then(
      () => false,
      () => true,
    );
    if (refused) return;
    if (Date.now() > deadline) throw new Error('still accepting requests 5 s after SIGTERM');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('runService', () => {
  it('lets an in-flight request finish after SIGTERM, refuses new ones, closes resources and exits 0', async () => {
    const service = start({ SLOW_MS: '3000', SHUTDOWN_GRACE_SECONDS: '8' });
    const port = await service.port;
    let answered = false;
    const inflight = fetch(`http://127.0.0.1:${port}/slow`).then(async (r) => {
      answered = true;
      return { status: r.status, body: await r.json(), connection: r.headers.get('connection') };
    });
    await service.started;
    service.proc.kill('SIGTERM');
    await untilRefused(port);
    // Refused while the slow request was still being worked on.
    expect(answered).toBe(false);
    // Received before the stop, answered after it: its connection ends with it.
    expect(await inflight).toEqual({ status: 200, body: { finished: true }, connection: 'close' });
    expect(await service.exited).toBe(0);
    expect(service.output.some((l) => l.includes('resources closed'))).toBe(true);
  });

  it('says at boot which store it keeps its data in', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'store-line-'));
    for (const [env, store] of [
      [{}, 'inmemory (every write is lost when the process stops)'],
      [{ PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dataDir }, `sqlite in ${dataDir}`],
      [
        {
          PERSISTENCE_BACKEND: 'docstore',
          FIRESTORE_PROJECT_ID: 'demo-line',
          FIRESTORE_EMULATOR_HOST: '127.0.0.1:9',
        },
        'docstore (Firestore project demo-line, database (default), emulator at 127.0.0.1:9)',
      ],
    ] as const) {
      const service = start(env);
      await service.port;
      const listening = service.output
        .map((line) => JSON.parse(line) as { store?: string; msg?: string })
        .find((entry) => entry.msg?.includes('listening on'));
      expect(listening).toMatchObject({ store, msg: expect.stringContaining(`, store: ${store}`) });
      service.proc.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
  });

  it('exits 1 when the grace period runs out before the in-flight request ends', async () => {
    const service = start({ SLOW_MS: '5000', SHUTDOWN_GRACE_SECONDS: '0.3' });
    const port = await service.port;
    const inflight = fetch(`http://127.0.0.1:${port}/slow`).catch(() => 'cut');
    await service.started;
    const t0 = Date.now();
    service.proc.kill('SIGTERM');
    expect(await service.exited).toBe(1);
    // Well before the request's 5 s: the grace period ended it.
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(await inflight).toBe('cut');
  });

  it('ends on a rejected promise nobody handled with exit 1 and one structured log line', async () => {
    const service = start({});
    const port = await service.port;
    expect((await fetch(`http://127.0.0.1:${port}/lost-promise`)).status).toBe(200);
    expect(await service.exited).toBe(1);
    const crash = service.output
      .map(
        (line) =>
          JSON.parse(line) as {
            level?: number;
            service?: string;
            msg?: string;
            err?: { message?: string; stack?: string };
          },
      )
      .filter((entry) => entry.level === 60);
    expect(crash).toEqual([
      expect.objectContaining({
        service: 'commerce',
        msg: 'unhandled rejection, exiting',
        err: expect.objectContaining({
          message: 'nobody awaited this',
          stack: expect.stringContaining('slow-service.ts'),
        }),
      }),
    ]);
  });
});
