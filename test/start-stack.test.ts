// `npm start` on ports another stack (or program) holds: it must say so and start nothing,
// not report "All eight services are up" because the other stack answered its health checks.
// And a stack whose package manager is killed (`kill <pnpm pid>` after `pnpm stack`) stops.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortRange, REPO_ROOT, waitUntil } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let holder: Server;
let port: number;
const dataDir = mkdtempSync(join(tmpdir(), 'start-stack-'));

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on a port already in use', () => {
  it('names the port and its service, starts nothing and exits 2', () => {
    // The held port is the third of the stack: wardrobe's.
    const result = spawnSync(
      process.execPath,
      ['--conditions=@hs/source', join(REPO_ROOT, 'scripts', 'start-stack.ts')],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', PORT_BASE: String(port - 2), DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(2);
    // (Another port of the range may be taken by chance too: it would be named as well.)
    expect(result.stderr.trim()).toMatch(
      /^cannot start: port .*already in use \(another stack or program\); stop it, or move this stack with PORT_BASE=<port>$/,
    );
    expect(result.stderr).toContain(`${port} (wardrobe)`);
    expect(result.stdout).not.toContain('All eight services are up');
  });
});

describe('a stack run by a package manager that goes away', () => {
  it('stops all eight once the package manager is gone, as if signalled', { timeout: 120_000 }, async () => {
    const base = await freePortRange(8);
    // A stand-in for pnpm (a script named pnpm.cjs) runs the stack through a shell that stays
    // between them, as npm's `sh -c` and the workspace's node wrapper do, and is then killed
    // without passing anything on, as pnpm is by a SIGTERM.
    const fakePnpm = join(dataDir, 'pnpm.cjs');
    const stack = `"${process.execPath}" --conditions=@hs/source "${join(REPO_ROOT, 'scripts', 'start-stack.ts')}"; true`;
    writeFileSync(
      fakePnpm,
      `require('node:child_process').spawn('sh', ['-c', ${JSON.stringify(stack)}], { stdio: 'ignore' });\nsetInterval(() => {}, 1000);\n`,
    );
    const parent = spawn(process.execPath, [fakePnpm], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT_BASE: String(base),
        DATA_DIR: join(dataDir, 'orphan'),
        npm_lifecycle_event: 'stack',
      },
      stdio: 'ignore',
      // Its own process group, so that a failed test can still clean up what it started.
      detached: true,
    });
    const up = (port: number) =>
      fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
    try {
      await waitUntil(
        'the stack is up',
        async () => (await Promise.all([0, 7].map((i) => up(base + i)))).every(Boolean),
        {
          timeoutMs: 90_000,
          intervalMs: 250,
        },
      );
      parent.kill('SIGKILL');
      await waitUntil(
        'every service has stopped',
        async () => !(await Promise.all(Array.from({ length: 8 }, (_, i) => up(base + i)))).some(Boolean),
        { timeoutMs: 20_000, intervalMs: 250 },
      );
    } finally {
      try {
        process.kill(-parent.pid!, 'SIGKILL');
      } catch {
        // nothing left
      }
    }
  });
});
