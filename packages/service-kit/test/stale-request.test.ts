// A request read only after its caller gave up (the service's process was paused, or its event
// loop stalled, while the request sat in the socket) is refused unrun: the caller already answered
// 504, and doing the work then made the family's retry do it twice. Real processes, real SIGSTOP.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPeerClient } from '../src/peer-client.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'slow-service.ts');
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

async function start(env: Record<string, string> = {}) {
  const proc = spawn(process.execPath, ['--conditions=@hs/source', FIXTURE], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  const lines: Array<{ msg?: string; port?: number; statusCode?: number; url?: string }> = [];
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const parsed = JSON.parse(line);
        lines.push(parsed);
        if (parsed.port) resolve(parsed.port);
      }
    });
    proc.on('exit', () => reject(new Error('exited before listening')));
  });
  const peer = createPeerClient({
    service: 'commerce',
    baseUrl: `http://127.0.0.1:${port}`,
    token: 't',
    timeoutMs: 800,
  });
  return { proc, lines, peer };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const worked = (lines: Array<{ msg?: string }>) => lines.filter((l) => l.msg === 'work done').length;

describe('a request read after its caller gave up', () => {
  it('is not run once the paused service resumes; one sent after it is', async () => {
    const { proc, lines, peer } = await start();
    proc.kill('SIGSTOP');
    const call = peer.call({ method: 'POST', path: '/work', body: {} });
    await expect(call).rejects.toMatchObject({ status: 504, code: 'UPSTREAM_TIMEOUT' });
    // Paused a little past the caller's 800 ms (it has answered 504), then resumed.
    await sleep(800 + 300);
    proc.kill('SIGCONT');
    await sleep(500);
    expect(worked(lines)).toBe(0);
    // Refused with a request line of its own.
    await expect.poll(() => lines.some((l) => l.url === '/work' && l.statusCode === 504)).toBe(true);

    // The service itself is fine: a request sent now runs.
    expect((await peer.call({ method: 'POST', path: '/work', body: {} })).body).toEqual({ done: true });
    expect(worked(lines)).toBe(1);
  });

  it('runs within CLOCK_SKEW_ALLOWANCE_MS past the deadline, for a host whose clock runs behind', async () => {
    const { proc, lines, peer } = await start({ CLOCK_SKEW_ALLOWANCE_MS: '2000' });
    proc.kill('SIGSTOP');
    const call = peer.call({ method: 'POST', path: '/work', body: {} });
    await expect(call).rejects.toMatchObject({ status: 504, code: 'UPSTREAM_TIMEOUT' });
    await sleep(300);
    proc.kill('SIGCONT');
    await expect.poll(() => worked(lines)).toBe(1);
  });

  it('still runs when the pause was shorter than what the caller waits', async () => {
    const { proc, lines, peer } = await start();
    // Paused a moment only: read late but well within what the caller still waits.
    proc.kill('SIGSTOP');
    const call = peer.call({ method: 'POST', path: '/work', body: {}, timeoutMs: 5000 });
    await sleep(300);
    proc.kill('SIGCONT');
    expect((await call).body).toEqual({ done: true });
    expect(worked(lines)).toBe(1);
  });
});
