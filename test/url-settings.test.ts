// Every URL a service calls or hands out is http or https: another scheme stops the boot with one
// line naming the setting, instead of booting and failing each request at run time.
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../services/gateway/src/config.ts';
import { loadOrchestratorConfig } from '../services/orchestrator/src/config.ts';
import { loadVtoConfig } from '../services/vto/src/config.ts';
import { loadWardrobeConfig } from '../services/wardrobe/src/config.ts';

const cases: Array<[string, (env: NodeJS.ProcessEnv) => unknown, Record<string, string>]> = [
  ['OIDC_ISSUER', loadGatewayConfig, { AUTH_MODE: 'oidc', OIDC_AUDIENCE: 'app' }],
  [
    'OIDC_JWKS_URL',
    loadGatewayConfig,
    { AUTH_MODE: 'oidc', OIDC_ISSUER: 'https://id.test', OIDC_AUDIENCE: 'app' },
  ],
  ['ORCHESTRATOR_LLM_BASE_URL', loadOrchestratorConfig, {}],
  ['VTO_HTTP_ENDPOINT', loadVtoConfig, {}],
  ['ARTIFACT_STORAGE_API_ENDPOINT', loadWardrobeConfig, {}],
];

describe('URL settings', () => {
  it.each(cases)('%s must be http or https', (name, load, env) => {
    for (const bad of ['file:///etc/passwd', 'ftp://x.test/', 'gopher://x.test/'])
      expect(() => load({ APP_ENV: 'dev', ...env, [name]: bad })).toThrow(
        `Configuration error: ${name} must be an http or https URL (value: "${bad}")`,
      );
    expect(() => load({ APP_ENV: 'dev', ...env, [name]: 'https://service.example.test/' })).not.toThrow();
  });
});
