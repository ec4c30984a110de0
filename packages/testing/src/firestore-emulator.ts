import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** host:port of the Firestore emulator the global setup found or started; null if none. */
    firestoreEmulatorHost: string | null;
  }
}

export const FIRESTORE_EMULATOR_JAR =
  '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar';

export interface FirestoreEmulator {
  /** `127.0.0.1:<port>`, the form FIRESTORE_EMULATOR_HOST takes. */
  host: string;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3000;

/** Why the emulator cannot be started here, or null when it can. */
export function firestoreEmulatorUnavailableReason(jar = FIRESTORE_EMULATOR_JAR): string | null {
  if (!existsSync(jar)) return `emulator jar not found at ${jar}`;
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error || java.status !== 0) return 'java is not on PATH';
  return null;
}

/** A port nobody listens on right now: bind port 0, read what the kernel picked, release it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not pick a free port');
  return address.port;
}

/**
 * Starts the emulator jar directly with java (through gcloud, killing gcloud would leave java
 * running) in its own process group, and resolves once it answers HTTP on a free port.
 */
export async function startFirestoreEmulator(jar = FIRESTORE_EMULATOR_JAR): Promise<FirestoreEmulator> {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const child = spawn(
    'java',
    [
      '-cp',
      jar,
      'com.google.cloud.datastore.emulator.firestore.CloudFirestore',
      'start',
      '--host=127.0.0.1',
      `--port=${port}`,
      '--database-mode=firestore-native',
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Only the tail is kept, for the error message; reading on also keeps java's pipes from filling.
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let dead = false;
  const exited = new Promise<void>((resolve) => {
    const done = (): void => {
      dead = true;
      resolve();
    };
    child.once('exit', done);
    child.once('error', done); // spawn failure, e.g. java vanished since the availability check
  });
  // If vitest exits without running teardown (Ctrl-C, crash), don't leave java behind.
  const killOnExit = (): void => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  const emulator: FirestoreEmulator = {
    host,
    stop: async () => {
      process.off('exit', killOnExit);
      await stopProcessGroup(child, exited);
    },
  };
  try {
    await waitUntilAnswering(host, () => dead);
  } catch (err) {
    await emulator.stop();
    throw new Error(`Firestore emulator did not start: ${(err as Error).message}\n${output}`);
  }
  return emulator;
}

async function waitUntilAnswering(host: string, isDead: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('java exited');
    try {
      const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer within ${READY_TIMEOUT_MS} ms`);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function stopProcessGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * The emulator host for tests, or undefined when none is available (tests should skip then).
 * Also puts it into FIRESTORE_EMULATOR_HOST, which is what the Firestore client reads.
 */
export function firestoreEmulatorHost(): string | undefined {
  let host = process.env.FIRESTORE_EMULATOR_HOST || undefined;
  if (!host) {
    try {
      host = inject('firestoreEmulatorHost') ?? undefined;
    } catch {
      // Not inside a vitest worker.
    }
  }
  if (host) process.env.FIRESTORE_EMULATOR_HOST = host;
  return host;
}
