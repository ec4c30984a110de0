import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@hs/testing';
import { describe, expect, it } from 'vitest';
import { stackLayout } from '../scripts/stack-layout.ts';
import { loadArtifactsAuditConfig } from '../services/artifacts-audit/src/config.ts';
import { loadBrowserBridgeConfig } from '../services/browser-bridge/src/config.ts';
import { loadCartprepConfig } from '../services/cartprep/src/config.ts';
import { loadCommerceConfig } from '../services/commerce/src/config.ts';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';
import { loadOrchestratorConfig } from '../services/orchestrator/src/config.ts';
import { loadVtoConfig } from '../services/vto/src/config.ts';
import { loadWardrobeConfig } from '../services/wardrobe/src/config.ts';
import { configProblemOf } from './config-problem.ts';

const SHARED = [
  'PORT',
  'BODY_LIMIT_BYTES',
  'REQUEST_TIMEOUT_SECONDS',
  'SHUTDOWN_GRACE_SECONDS',
  'INTERNAL_API_TIMEOUT_SECONDS',
  'SQLITE_MAX_SIZE_MB',
];

/** Every numeric setting of every service, with a plain value in its range. */
const NUMERIC: Array<[string, (env: NodeJS.ProcessEnv) => unknown, Record<string, string>]> = [
  [
    'gateway',
    loadGatewayConfig,
    {
      AUTH_TOKEN_TTL_SECONDS: '600',
      CHECKOUT_TOKEN_TTL_SECONDS: '600',
      AUDIT_RETRY_MAX_SECONDS: '60',
      RATE_LIMIT_LOGIN_PER_MINUTE: '60',
      RATE_LIMIT_CHAT_PER_MINUTE: '60',
      RATE_LIMIT_CONFIRM_PER_MINUTE: '60',
      RATE_LIMIT_EVENTS_PER_MINUTE: '60',
      RATE_LIMIT_HOUSEHOLDS_PER_DAY: '60',
      MAX_STREAMS_PER_USER: '60',
      MAX_CONNECTIONS_PER_CLIENT: '60',
      UPSTREAM_STREAM_SILENCE_SECONDS: '60',
      STREAM_TOKEN_TTL_SECONDS: '60',
      VOICE_SESSION_TTL_SECONDS: '60',
      VOICE_RATE_LIMIT_PER_MINUTE: '60',
    },
  ],
  [
    'orchestrator',
    loadOrchestratorConfig,
    {
      ORCHESTRATOR_LLM_TIMEOUT_SECONDS: '10',
      ORCHESTRATOR_MAX_STEPS: '10',
      ORCHESTRATOR_TURN_LEASE_SECONDS: '10',
      ORCHESTRATOR_SSE_HEARTBEAT_SECONDS: '10',
      ORCHESTRATOR_STREAM_POLL_MS: '100',
      ORCHESTRATOR_SSE_RETRY_MS: '1000',
      OUTBOX_RETRY_MAX_SECONDS: '10',
    },
  ],
  [
    'wardrobe',
    loadWardrobeConfig,
    {
      UPLOAD_MAX_BYTES: '1048576',
      WARDROBE_MAX_UPLOAD_BYTES_PER_HOUSEHOLD: '1048576',
      WARDROBE_MAX_PENDING_UPLOADS_PER_MEMBER: '10',
      UPLOAD_URL_TTL_SECONDS: '60',
      WARDROBE_MAX_ITEMS_PER_HOUSEHOLD: '10',
      WARDROBE_MAX_OUTFITS_PER_HOUSEHOLD: '10',
    },
  ],
  ['commerce', loadCommerceConfig, { COMMERCE_MAX_OFFERS_PER_HOUSEHOLD: '10' }],
  [
    'vto',
    loadVtoConfig,
    {
      VTO_HTTP_TIMEOUT_SECONDS: '10',
      VTO_FETCH_TIMEOUT_SECONDS: '10',
      VTO_MAX_IMAGE_BYTES: '1048576',
      VTO_WORKER_CONCURRENCY: '10',
      VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '10',
      VTO_MAX_ACTIVE_JOBS_PER_USER: '10',
      VTO_WORKER_POLL_MS: '100',
    },
  ],
  [
    'cartprep',
    loadCartprepConfig,
    {
      CARTPREP_CONCURRENCY: '10',
      CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: '10',
      CARTPREP_MAX_ACTIVE_JOBS_PER_USER: '10',
      CARTPREP_MAX_ATTEMPTS: '10',
      CARTPREP_LEASE_SECONDS: '10',
      CARTPREP_JOB_TIMEOUT_SECONDS: '10',
      CARTPREP_POLL_MS: '100',
      CARTPREP_CALLBACK_RETRY_MAX_SECONDS: '10',
    },
  ],
  [
    'browser-bridge',
    loadBrowserBridgeConfig,
    {
      BROWSER_MAX_SESSIONS: '10',
      BROWSER_MAX_SESSIONS_PER_HOUSEHOLD: '10',
      BROWSER_MAX_SESSIONS_PER_USER: '10',
      BROWSER_IDLE_TIMEOUT_SECONDS: '10',
    },
  ],
  ['artifacts-audit', loadArtifactsAuditConfig, { ARTIFACT_SIGNED_URL_TTL_SECONDS: '600' }],
];

const SHARED_VALUES: Record<string, string> = {
  PORT: '9901',
  BODY_LIMIT_BYTES: '1000',
  REQUEST_TIMEOUT_SECONDS: '10',
  SHUTDOWN_GRACE_SECONDS: '10',
  INTERNAL_API_TIMEOUT_SECONDS: '10',
  SQLITE_MAX_SIZE_MB: '10',
};

/** What Number() reads as a number although an operator never meant it: hex, exponent, spaces, '+'. */
const notDecimal = (plain: string) => [
  `0x${Number(plain).toString(16)}`,
  `${Number(plain) / 10}e1`,
  ` ${plain}`,
  `${plain} `,
  `+${plain}`,
  `${plain}_0`,
  '0b1',
  'Infinity',
];

describe('numeric settings take plain decimal text only', () => {
  for (const [service, load, own] of NUMERIC) {
    const settings: Record<string, string> = { ...SHARED_VALUES, ...own };
    it(`${service}: every numeric setting refuses hex, exponents, spaces and '+', naming itself`, () => {
      for (const name of SHARED) expect(settings).toHaveProperty(name);
      for (const [name, plain] of Object.entries(settings)) {
        // The plain value boots, and means what it says.
        expect(
          configProblemOf(() => load({ APP_ENV: 'test', [name]: plain })),
          `${name}=${plain}`,
        ).toBe('booted');
        for (const value of notDecimal(plain)) {
          const message = configProblemOf(() => load({ APP_ENV: 'test', [name]: value }));
          expect(message, `${name}=${JSON.stringify(value)}`).toMatch(
            new RegExp(`^Configuration error: ${name} must be a (whole )?number in plain decimal`),
          );
          expect(message).toContain(`(value: ${JSON.stringify(value)})`);
          // One line.
          expect(message).not.toContain('\n');
        }
      }
    });
  }

  it('the shared settings read what the text says; fractions only where the setting takes them', () => {
    const gateway = loadGatewayConfig({
      APP_ENV: 'test',
      PORT: '9530',
      REQUEST_TIMEOUT_SECONDS: '2.5',
      SHUTDOWN_GRACE_SECONDS: '0',
    });
    expect(gateway.port).toBe(9530);
    expect(gateway.requestTimeoutMs).toBe(2500);
    expect(gateway.shutdownGraceMs).toBe(0);
    expect(configProblemOf(() => loadGatewayConfig({ PORT: '9530.5' }))).toMatch(
      /^Configuration error: PORT must be a whole number in plain decimal digits .* \(value: "9530.5"\)$/,
    );
    expect(configProblemOf(() => loadGatewayConfig({ PORT: '9.52e3' }))).toContain(
      'PORT must be a whole number',
    );
    // Ranges are unchanged: a negative timeout is still refused by its range.
    expect(configProblemOf(() => loadGatewayConfig({ REQUEST_TIMEOUT_SECONDS: '-1' }))).toMatch(
      /^Configuration error: REQUEST_TIMEOUT_SECONDS Too small/,
    );
  });

  it('a hex PORT stops the real boot with one line naming PORT (it listened on 0x26ed = 9965)', () => {
    const result = spawnSync(
      process.execPath,
      ['--conditions=@hs/source', join(REPO_ROOT, 'services', 'commerce', 'src', 'server.ts')],
      {
        env: { PATH: process.env.PATH ?? '', APP_ENV: 'test', PORT: '0x26ed' },
        encoding: 'utf8',
        // Booted (the fault): killed outright, the test then fails on the exit status.
        timeout: 15_000,
        killSignal: 'SIGKILL',
      },
    );
    expect(result.stderr.trim()).toBe(
      'commerce: Configuration error: PORT must be a whole number in plain decimal digits ' +
        '(no "+", hex, exponent or spaces) (value: "0x26ed")',
    );
    expect(result.status).toBe(1);
  });

  it('PORT=0 (any free port) stays allowed: the tests boot services on it', () => {
    expect(loadGatewayConfig({ APP_ENV: 'test', PORT: '0' }).port).toBe(0);
  });

  it('an empty value counts as unset (the default), as compose files rely on', () => {
    const config = loadGatewayConfig({ APP_ENV: 'test', REQUEST_TIMEOUT_SECONDS: '', PORT: '' });
    expect(config.requestTimeoutMs).toBe(30_000);
    expect(config.port).toBe(8080);
  });
});

describe('numeric settings are read in one place', () => {
  it('no configuration reads a number with Number() (z.coerce.number)', () => {
    const files = [
      'packages/service-kit/src/config.ts',
      ...readdirSync(join(REPO_ROOT, 'services')).map((s) => `services/${s}/src/config.ts`),
    ];
    for (const file of files)
      expect(readFileSync(join(REPO_ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''), file).not.toMatch(
        /z\s*\.coerce\s*\.number/,
      );
  });
});

describe('PORT_BASE (npm start)', () => {
  it('takes plain decimal digits only', () => {
    expect(stackLayout('/tmp/root', '9900').services[0]).toEqual(['gateway', 9900]);
    for (const value of ['0x2500', '9.52e3', ' 9530', '+9530', '9530.0', '0'])
      expect(() => stackLayout('/tmp/root', value), value).toThrow(
        `PORT_BASE must be a port number (1–65528), got ${JSON.stringify(value)}`,
      );
  });

  it('unset or empty: 8080', () => {
    expect(stackLayout('/tmp/root', '').services[0]).toEqual(['gateway', 8080]);
    expect(stackLayout('/tmp/root', undefined).services[0]).toEqual(['gateway', 8080]);
  });
});
