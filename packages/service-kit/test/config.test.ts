import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { REPO_ROOT } from '@hs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, envBool, envPrefix, loadConfig, SERVICES } from '../src/config.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function boot(service: string, env: Record<string, string>, options: { uid?: number; gid?: number } = {}) {
  const result = spawnSync(
    process.execPath,
    ['--conditions=@hs/source', join(REPO_ROOT, 'services', service, 'src', 'server.ts')],
    {
      env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
      encoding: 'utf8',
      // A service that boots when it should not is killed outright (its graceful stop would wait).
      timeout: 15_000,
      killSignal: 'SIGKILL',
      ...options,
    },
  );
  // A child that could not start at all says why in `error`, with no stderr.
  return { status: result.status, stderr: (result.stderr ?? String(result.error)).trim() };
}

const asRoot = process.getuid?.() === 0;

/**
 * Makes `dir` read-only for the service. File modes bind root only through a read-only mount, so
 * as root `dir` becomes a tmpfs (filled by `fill` first) remounted read-only: EROFS. Otherwise a
 * mode: EACCES. Returns why it could not (then the test is skipped, saying so).
 */
function readOnly(dir: string, fill: () => void, mode: { path: string; mode: number }[]): string | null {
  if (!asRoot) {
    fill();
    for (const m of mode) chmodSync(m.path, m.mode);
    return null;
  }
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) return `needs a read-only tmpfs as root: ${mount.stderr.trim() || mount.error}`;
  mounts.push(dir);
  fill();
  const remount = spawnSync('mount', ['-o', 'remount,ro', dir], { encoding: 'utf8' });
  return remount.status === 0 ? null : `needs a read-only tmpfs as root: ${remount.stderr.trim()}`;
}
const mounts: string[] = [];

const tmpDirs: string[] = [];
/** A directory every user may enter (the child may run as `nobody`). */
function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hs-config-'));
  chmodSync(dir, 0o755);
  tmpDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of mounts.splice(0)) spawnSync('umount', [dir]);
  for (const dir of tmpDirs.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('configuration', () => {
  it('builds handed-out URLs on PUBLIC_BASE_URL, by default the gateway on loopback, never a peer address', () => {
    const internal = { GATEWAY_BASE_URL: 'http://gateway.internal:8080' };
    expect(loadConfig('wardrobe', () => ({}), internal).publicBaseUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig('gateway', () => ({}), { PORT: '9090' }).publicBaseUrl).toBe('http://127.0.0.1:9090');
    const set = { ...internal, PUBLIC_BASE_URL: 'https://styling.example.test/' };
    for (const service of ['gateway', 'wardrobe', 'vto', 'browser-bridge', 'artifacts-audit'] as const)
      expect(loadConfig(service, () => ({}), set).publicBaseUrl).toBe('https://styling.example.test');
    expect(() => loadConfig('vto', () => ({}), { PUBLIC_BASE_URL: 'ftp://x.test' })).toThrow(ConfigError);
  });

  it('parses defaults into a typed object', () => {
    const config = loadConfig('commerce', () => ({}), {});
    expect(config.port).toBe(8083);
    expect(config.internalTimeoutMs).toBe(10_000);
    expect(config.peers.gateway).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      token: 'dev-internal-token-gateway',
    });
    expect(config.internalToken).toBe('dev-internal-token-commerce');
    expect(config.persistence.backend).toBe('inmemory');
  });

  it('names the variable of a wrong value', () => {
    expect(() => loadConfig('commerce', () => ({}), { PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig('commerce', () => ({}), { PORT: 'eighty' })).toThrow(
      /^Configuration error: PORT .*"eighty"/,
    );
    expect(() => loadConfig('commerce', () => ({}), { PERSISTENCE_BACKEND: 'mongo' })).toThrow(
      /PERSISTENCE_BACKEND/,
    );
  });

  it('hides secret values in the message', () => {
    expect(() =>
      loadConfig('commerce', () => ({}), { APP_ENV: 'production', COMMERCE_INTERNAL_TOKEN: 'short' }),
    ).toThrow(/INTERNAL_TOKEN .*\(value: (set|unset)\)/);
  });

  it('names every wrong value in one message, so one restart fixes them all', () => {
    expect(() => loadConfig('commerce', () => ({}), { PORT: 'eighty', LOG_LEVEL: 'verbose' })).toThrow(
      /^Configuration error: PORT .*"eighty".*; LOG_LEVEL .*"verbose"/,
    );
  });

  it('shows the values of settings named like secrets that are not (TTLs, REQUIRE_ switches)', () => {
    const extra = () => ({
      AUTH_TOKEN_TTL_SECONDS: z.coerce.number().min(60),
      REQUIRE_INTERNAL_EVENT_TOKEN: envBool(false),
    });
    expect(() =>
      loadConfig('gateway', extra, { AUTH_TOKEN_TTL_SECONDS: '10', REQUIRE_INTERNAL_EVENT_TOKEN: 'maybe' }),
    ).toThrow(/AUTH_TOKEN_TTL_SECONDS .*\(value: "10"\).*REQUIRE_INTERNAL_EVENT_TOKEN .*\(value: "maybe"\)/);
  });

  it('refuses a request timeout that would switch the cut off, and a negative shutdown grace', () => {
    for (const value of ['0', '-5'])
      expect(() => loadConfig('commerce', () => ({}), { REQUEST_TIMEOUT_SECONDS: value })).toThrow(
        /^Configuration error: REQUEST_TIMEOUT_SECONDS /,
      );
    expect(() => loadConfig('commerce', () => ({}), { SHUTDOWN_GRACE_SECONDS: '-1' })).toThrow(
      /^Configuration error: SHUTDOWN_GRACE_SECONDS /,
    );
    expect(loadConfig('commerce', () => ({}), { SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceMs).toBe(0);
  });

  it('takes CORS_ORIGINS as browser origins only, naming the setting otherwise', () => {
    expect(
      loadConfig('gateway', () => ({}), { CORS_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173' })
        .corsOrigins,
    ).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    for (const value of [
      'notanorigin',
      'https://app.example.com/',
      'https://app.example.com/path',
      'ftp://x',
    ])
      expect(() => loadConfig('gateway', () => ({}), { CORS_ORIGINS: value }), value).toThrow(
        /^Configuration error: CORS_ORIGINS must be comma-separated origins/,
      );
  });

  it('says what is wrong with an http URL that does not parse (a port out of range)', () => {
    expect(() => loadConfig('wardrobe', () => ({}), { GATEWAY_BASE_URL: 'http://127.0.0.1:99999' })).toThrow(
      'Configuration error: GATEWAY_BASE_URL is not a valid URL (check the host and that the port is 1-65535) (value: "http://127.0.0.1:99999")',
    );
  });

  it('accepts only http and https peer URLs, naming the variable', () => {
    for (const service of SERVICES) {
      const name = `${envPrefix(service)}_BASE_URL`;
      for (const value of ['ftp://x', 'gopher://x', 'file:///etc/passwd', 'ws://x:1'])
        expect(() => loadConfig('gateway', () => ({}), { [name]: value })).toThrow(
          `Configuration error: ${name} must be an http or https URL (value: ${JSON.stringify(value)})`,
        );
      for (const value of ['http://peer.internal:8080/', 'https://peer.example.test'])
        expect(loadConfig('wardrobe', () => ({}), { [name]: value }).peers[service].baseUrl).toBe(
          value.replace(/\/$/, ''),
        );
    }
    expect(() => loadConfig('vto', () => ({}), { PUBLIC_BASE_URL: 'ftp://x.test' })).toThrow(
      'Configuration error: PUBLIC_BASE_URL must be an http or https URL (value: "ftp://x.test")',
    );
  });

  it('creates a missing DATA_DIR tree and refuses one that cannot be created, naming DATA_DIR', () => {
    const root = tmp();
    const deep = join(root, 'a', 'b', 'c');
    loadConfig('commerce', () => ({}), { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: deep });
    expect(existsSync(deep)).toBe(true);
    writeFileSync(join(root, 'file'), '');
    expect(() =>
      loadConfig('commerce', () => ({}), {
        PERSISTENCE_BACKEND: 'sqlite',
        DATA_DIR: join(root, 'file', 'x'),
      }),
    ).toThrow(
      `Configuration error: DATA_DIR does not exist and cannot be created (ENOTDIR) (value: ${JSON.stringify(join(root, 'file', 'x'))})`,
    );
    expect(() =>
      loadConfig('commerce', () => ({}), { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: join(root, 'file') }),
    ).toThrow(/^Configuration error: DATA_DIR is not a directory \(value: /);
    // Not checked unless the sqlite backend uses it.
    expect(
      loadConfig('commerce', () => ({}), { DATA_DIR: join(root, 'file', 'x') }).persistence.dataDir,
    ).toBe(join(root, 'file', 'x'));
  });

  it('requires real internal tokens in staging and production', () => {
    expect(() => loadConfig('commerce', () => ({}), { APP_ENV: 'staging' })).toThrow(
      /_INTERNAL_TOKEN is required/,
    );
  });
});

describe('boot refusals (real processes)', () => {
  const strongTokens = Object.fromEntries(
    [
      'GATEWAY',
      'ORCHESTRATOR',
      'WARDROBE',
      'COMMERCE',
      'VTO',
      'CARTPREP',
      'BROWSER_BRIDGE',
      'ARTIFACTS_AUDIT',
    ].map((s) => [`${s}_INTERNAL_TOKEN`, `${s.toLowerCase()}-token-0123456789abcdef0123456789`]),
  );
  const production = {
    APP_ENV: 'production',
    ...strongTokens,
    AUTH_MODE: 'oidc',
    OIDC_ISSUER: 'https://issuer.example.com',
    OIDC_AUDIENCE: 'app',
    BUYFLOW_INTERNAL_TOKEN: 'buyflow-token-0123456789abcdef0123456789',
    PERSISTENCE_BACKEND: 'docstore',
    FIRESTORE_PROJECT_ID: 'test-project',
  };

  it('refuses the inmemory store (the default) in staging and production with one line', () => {
    const { PERSISTENCE_BACKEND: _durable, ...withDefaultStore } = production;
    for (const env of [withDefaultStore, { ...production, PERSISTENCE_BACKEND: 'inmemory' }]) {
      const { status, stderr } = boot('commerce', env);
      expect(status).toBe(1);
      expect(stderr).toBe(
        'commerce: Configuration error: PERSISTENCE_BACKEND=inmemory (the default; every write is lost on restart, use sqlite or docstore) is not allowed when APP_ENV=production',
      );
    }
    expect(() =>
      loadConfig('commerce', () => ({}), {
        ...strongTokens,
        APP_ENV: 'staging',
        PERSISTENCE_BACKEND: 'inmemory',
      }),
    ).toThrow(
      'PERSISTENCE_BACKEND=inmemory (the default; every write is lost on restart, use sqlite or docstore) is not allowed when APP_ENV=staging',
    );
  });

  it('stops the gateway with one line for the development JWT secret in production', () => {
    const { status, stderr } = boot('gateway', production);
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/AUTH_JWT_SECRET is the development placeholder/);
  });

  it('stops the gateway for a short secret and for AUTH_MODE=dev in production', () => {
    expect(boot('gateway', { ...production, AUTH_JWT_SECRET: 'too-short' }).stderr).toMatch(
      /AUTH_JWT_SECRET must be at least 32 bytes/,
    );
    expect(
      boot('gateway', { ...production, AUTH_JWT_SECRET: 'x'.repeat(40), AUTH_MODE: 'dev' }).stderr,
    ).toMatch(/AUTH_MODE=dev is not allowed/);
  });

  it('names every setting that is wrong given the others in one line, so one restart fixes them all', () => {
    const { status, stderr } = boot('gateway', {
      ...production,
      PERSISTENCE_BACKEND: 'inmemory',
      AUTH_JWT_SECRET: 'too-short',
      REQUIRE_BUYFLOW_INTERNAL_TOKEN: 'false',
      BUYFLOW_INTERNAL_TOKEN: 'dev-buyflow-internal-token',
      OIDC_ISSUER: '',
      ALLOW_PRIVATE_MERCHANT_HOSTS: '127.0.0.1:9999',
    });
    expect(status).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toBe(
      [
        'gateway: Configuration error: PERSISTENCE_BACKEND=inmemory (the default; every write is lost on restart, use sqlite or docstore) is not allowed when APP_ENV=production',
        'AUTH_JWT_SECRET must be at least 32 bytes in staging and production',
        'REQUIRE_BUYFLOW_INTERNAL_TOKEN=false is not allowed when APP_ENV=production',
        'BUYFLOW_INTERNAL_TOKEN must be a 32+ byte secret in staging and production',
        'OIDC_ISSUER and OIDC_AUDIENCE are required when AUTH_MODE=oidc',
        'ALLOW_PRIVATE_MERCHANT_HOSTS is not allowed when APP_ENV=production',
      ].join('; '),
    );
  });

  it('names a wrong APP_ENV with the other wrong values, and never shows a password in a URL', () => {
    const { stderr } = boot('orchestrator', {
      APP_ENV: 'prod',
      PORT: 'abc',
      ORCHESTRATOR_LLM_BASE_URL: 'https://apikey:s3cr3tPW@llm.example.com:99999/',
    });
    expect(stderr).toMatch(
      /^orchestrator: Configuration error: APP_ENV .*; PORT .*; ORCHESTRATOR_LLM_BASE_URL /,
    );
    expect(stderr).not.toContain('s3cr3tPW');
    // A password with an `@` or a `/` in it is masked whole too.
    for (const url of ['https://user:p@ss@llm.example.com:99999/', 'ftp://user:ab/cd@llm.example.com/']) {
      const masked = boot('orchestrator', { ORCHESTRATOR_LLM_BASE_URL: url }).stderr;
      expect(masked).toContain('ORCHESTRATOR_LLM_BASE_URL');
      expect(masked).not.toMatch(/ss@|ab\/cd|user/);
    }
    expect(stderr.split('\n')).toHaveLength(1);
  });

  it('stops any service with one line naming a wrong variable', () => {
    const { status, stderr } = boot('commerce', { INTERNAL_API_TIMEOUT_SECONDS: 'soon' });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^commerce: Configuration error: INTERNAL_API_TIMEOUT_SECONDS/);
    expect(stderr.split('\n')).toHaveLength(1);
  });
});

describe('boot refusals for the process environment (real processes)', () => {
  it('stops the gateway and wardrobe with one line for a peer URL that is not http(s)', () => {
    const gateway = boot('gateway', { WARDROBE_BASE_URL: 'ftp://x' });
    expect(gateway.status).toBe(1);
    expect(gateway.stderr).toBe(
      'gateway: Configuration error: WARDROBE_BASE_URL must be an http or https URL (value: "ftp://x")',
    );
    const wardrobe = boot('wardrobe', { GATEWAY_BASE_URL: 'gopher://x' });
    expect(wardrobe.status).toBe(1);
    expect(wardrobe.stderr).toBe(
      'wardrobe: Configuration error: GATEWAY_BASE_URL must be an http or https URL (value: "gopher://x")',
    );
  });

  it('stops browser-bridge with one line for a BROWSER_API_BASE_URL that is not http(s)', () => {
    const { status, stderr } = boot('browser-bridge', { BROWSER_API_BASE_URL: 'file:///etc/passwd' });
    expect(status).toBe(1);
    expect(stderr).toBe(
      'browser-bridge: Configuration error: BROWSER_API_BASE_URL must be an http or https URL (value: "file:///etc/passwd")',
    );
  });

  it('stops with one line when it cannot listen on HOST and PORT', async () => {
    const unresolvable = boot('commerce', { HOST: '999.1.1.1', PORT: '8083' });
    expect(unresolvable.status).toBe(1);
    expect(unresolvable.stderr).toMatch(
      /^commerce: cannot listen on HOST=999\.1\.1\.1 PORT=8083: getaddrinfo (ENOTFOUND|EAI_AGAIN) 999\.1\.1\.1$/,
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const inUse = boot('commerce', { PORT: String(port) });
      expect(inUse.status).toBe(1);
      expect(inUse.stderr).toBe(
        `commerce: cannot listen on HOST=127.0.0.1 PORT=${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'stops with one line naming DATA_DIR when it cannot be created (under /proc: no endless mkdir)',
    () => {
      const { status, stderr } = boot('commerce', {
        PERSISTENCE_BACKEND: 'sqlite',
        DATA_DIR: '/proc/hs-no-such-dir/x/y',
      });
      expect(status).toBe(1);
      expect(stderr).toBe(
        'commerce: Configuration error: DATA_DIR does not exist and cannot be created (ENOENT) (value: "/proc/hs-no-such-dir/x/y")',
      );
    },
  );

  it('stops with one line naming DATA_DIR when it is read-only, not a corruption report', (ctx) => {
    const dir = join(tmp(), 'data');
    mkdirSync(dir);
    const skip = readOnly(dir, () => {}, [{ path: dir, mode: 0o555 }]);
    if (skip) ctx.skip(skip);
    const { status, stderr } = boot('commerce', { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dir });
    expect(status).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^commerce: Configuration error: DATA_DIR is not writable \\((EACCES|EROFS)\\) \\(value: ${escapeRegExp(JSON.stringify(dir))}\\)$`,
      ),
    );
  });

  it('stops with one line naming a read-only database file and the cause', (ctx) => {
    const dir = join(tmp(), 'data');
    mkdirSync(dir);
    const env = { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dir };
    const file = join(dir, 'commerce.sqlite');
    const create = () => {
      const db = new DatabaseSync(file);
      db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)');
      db.close();
    };
    // Not as root: the file read-only in a directory the service may write (root: the whole mount).
    const skip = readOnly(dir, create, [{ path: file, mode: 0o444 }]);
    if (skip) ctx.skip(skip);
    const { status, stderr } = boot('commerce', env);
    expect(status).toBe(1);
    // As root the read-only mount refuses the directory first; otherwise the file is named.
    expect(stderr).toBe(
      asRoot
        ? `commerce: Configuration error: DATA_DIR is not writable (EROFS) (value: ${JSON.stringify(dir)})`
        : `commerce: Configuration error: DATA_DIR holds the database file ${file}, which the service cannot write (EACCES) (value: ${JSON.stringify(dir)})`,
    );
  });

  it('says a database file that cannot be opened cannot be opened, not that it failed its check', () => {
    const dir = tmp();
    // A directory where the file should be: DATA_DIR itself is fine.
    mkdirSync(join(dir, 'commerce.sqlite'));
    const { status, stderr } = boot('commerce', { PERSISTENCE_BACKEND: 'sqlite', DATA_DIR: dir });
    expect(status).toBe(1);
    expect(stderr).toBe(
      `commerce: the database file ${join(dir, 'commerce.sqlite')} cannot be opened or created (SQLITE_CANTOPEN); DATA_DIR must be a writable directory holding a readable and writable file`,
    );
  });
});
