import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER = join(import.meta.dirname, '..', 'src', 'server.ts');
const home = mkdtempSync(join(tmpdir(), 'orch-boot-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/**
 * Nothing may leave loopback: no metadata server probe, no gcloud well-known file (HOME is an
 * empty temp dir), the model never called (the process is stopped once it listens).
 */
const env = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HOME: home,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_FORMAT: 'json',
  METADATA_SERVER_DETECTION: 'none',
  NO_GCE_CHECK: 'true',
  ORCHESTRATOR_REQUIRE_LLM_AGENT: 'true',
  ORCHESTRATOR_GCP_PROJECT: 'test-project',
  ...extra,
});

describe('ORCHESTRATOR_REQUIRE_LLM_AGENT=true at boot', () => {
  it('refuses to start, with one line, when no credentials can be found', () => {
    const result = spawnSync(process.execPath, ['--conditions=@hs/source', SERVER], {
      env: env({ GOOGLE_APPLICATION_CREDENTIALS: join(home, 'missing-key.json') }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^orchestrator: Configuration error: ORCHESTRATOR_REQUIRE_LLM_AGENT=true but no Google credentials could be loaded/,
    );
  });

  it('starts when the credentials resolve (a service-account key file)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(home, 'key.json');
    writeFileSync(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'test-project',
        private_key_id: 'k1',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        client_email: 'agent@test-project.iam.gserviceaccount.com',
        client_id: '1',
      }),
    );
    const proc = spawn(process.execPath, ['--conditions=@hs/source', SERVER], {
      env: env({ GOOGLE_APPLICATION_CREDENTIALS: keyFile }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    const listening = await new Promise<boolean>((resolve) => {
      proc.stdout.on('data', (chunk) => {
        if (String(chunk).includes('listening on')) resolve(true);
      });
      proc.on('exit', () => resolve(false));
    });
    proc.kill('SIGTERM');
    await exited;
    expect(listening).toBe(true);
  });
});
