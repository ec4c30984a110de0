// Stands in for the image (no Docker engine here): the Dockerfile's build stage (`pnpm build`)
// and install step (one service, production dependencies only) in a fresh directory with the
// service's compiled build, started the image's way (scripts/serve.mjs runs dist/server.js) as an
// unprivileged user whose only writable directory is its data dir.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT, signalAndWait, withRepoBuild } from '@hs/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';

const hasPnpm = spawnSync('pnpm', ['--version']).status === 0;
if (!hasPnpm) console.warn('pnpm not on PATH: the production install check is SKIPPED');
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

const dir = mkdtempSync(join(tmpdir(), 'hs-prod-'));
chmodSync(dir, 0o755); // readable by the unprivileged user, writable only by its owner
// Retried: after a timed-out test the service may still be writing its data dir for a moment.
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

describe.skipIf(!hasPnpm)('a production install of one service', () => {
  // Long: it may wait for the bench test, which runs the same builds (withRepoBuild).
  it('holds no dev dependencies, runs as a non-root user on a read-only tree and shuts down with 0', async () => {
    const files = spawnSync(
      'git',
      [
        'ls-files',
        'package.json',
        'pnpm-lock.yaml',
        'pnpm-workspace.yaml',
        'patches',
        'packages',
        'services',
        'scripts/serve.mjs',
      ],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    )
      .stdout.split('\n')
      .filter((f) => f && !f.includes('/test/'));
    expect(spawnSync('cp', ['--parents', '-t', dir, ...files], { cwd: REPO_ROOT }).status).toBe(0);
    const install = spawnSync(
      'pnpm',
      ['install', '--frozen-lockfile', '--prod', '--prefer-offline', '--filter', '@hs/commerce...'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(install.status, install.stderr).toBe(0);
    // The build stage: the compiled service, beside a production install of the same lockfile.
    const { build, copy } = await withRepoBuild(() => {
      const build = spawnSync('pnpm', ['build'], { cwd: REPO_ROOT, encoding: 'utf8' });
      const copy = spawnSync('cp', [
        '-r',
        join(REPO_ROOT, 'services/commerce/dist'),
        join(dir, 'services/commerce/dist'),
      ]);
      return { build, copy };
    });
    expect(build.status, build.stderr).toBe(0);
    expect(copy.status).toBe(0);
    const installed = readdirSync(join(dir, 'node_modules', '.pnpm'));
    expect(
      installed.filter((p) => /^(vitest|typescript|@biomejs|autocannon|oidc-provider)@/.test(p)),
    ).toEqual([]);
    expect(installed.some((p) => p.startsWith('fastify@'))).toBe(true);
    // What keeps a boot small (README, "What a boot costs"): the bundle never imports node:http as
    // an ES module (its facade loads Node's bundled undici) nor undici's index, and holds Fastify.
    const bundle = readFileSync(join(dir, 'services/commerce/dist/server.js'), 'utf8');
    expect(bundle).not.toMatch(/from "node:http"/);
    expect(bundle).not.toMatch(/undici\/index\.js/);
    expect(bundle).not.toMatch(/node_modules\/\.pnpm\/fastify@/);

    const data = join(dir, 'data');
    mkdirSync(data);
    if (isRoot) chownSync(data, NOBODY, NOBODY); // the tree itself stays root's: read-only to the service
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      SERVICE: 'commerce',
      NODE_ENV: 'production',
      APP_ENV: 'dev',
      PORT: String(port),
      PERSISTENCE_BACKEND: 'sqlite',
      DATA_DIR: data,
      LOG_FORMAT: 'json',
    };
    // No --conditions flag: the image runs compiled JavaScript, not the sources.
    const command = [process.execPath, 'scripts/serve.mjs'];
    const child: ChildProcess = isRoot
      ? spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command], {
          cwd: dir,
          env,
        })
      : spawn(command[0]!, command.slice(1), { cwd: dir, env });
    let logs = '';
    child.stdout?.on('data', (c) => (logs += c));
    child.stderr?.on('data', (c) => (logs += c));
    const exited = once(child, 'exit');
    try {
      const url = `http://127.0.0.1:${port}`;
      await vi.waitFor(
        async () => expect((await fetch(`${url}/ready`).catch(() => null))?.status, logs).toBe(200),
        { timeout: 20_000, interval: 200 },
      );
      const created = await fetch(`${url}/api/v1/households/h_1/offers`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-internal-token': 'dev-internal-token-commerce',
          'x-user-id': 'usr_1',
          'x-member-role': 'PARENT_GUARDIAN',
        },
        body: JSON.stringify({
          title: 'Coat',
          url: 'https://shop.example.com/p/1',
          price: 90,
          currency: 'EUR',
        }),
      });
      expect(created.status, logs).toBe(201);
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, logs).toBe(0);
    } finally {
      await signalAndWait(child, 'SIGKILL');
    }
  }, 300_000);
});
