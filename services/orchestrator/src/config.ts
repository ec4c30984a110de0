import {
  type BaseConfig,
  configProblem,
  envBool,
  envNumber,
  httpUrl,
  isProductionLike,
  loadConfig,
} from '@hs/service-kit';
import { z } from 'zod';

/** Settings of the orchestrator service on top of the shared ones (see README, configuration table). */
export function loadOrchestratorConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'orchestrator',
    () => ({
      ORCHESTRATOR_REQUIRE_LLM_AGENT: envBool(false),
      ORCHESTRATOR_LLM_MODEL: z.string().min(1).default('gemini-2.5-flash'),
      ORCHESTRATOR_GCP_PROJECT: z.string().min(1).optional(),
      ORCHESTRATOR_GCP_LOCATION: z.string().min(1).default('us-central1'),
      ORCHESTRATOR_LLM_BASE_URL: httpUrl().optional(),
      ORCHESTRATOR_LLM_TIMEOUT_SECONDS: envNumber(z.number().positive().max(600)).default(30),
      ORCHESTRATOR_LLM_STREAM: envBool(true),
      ORCHESTRATOR_MAX_STEPS: envNumber(z.number().int().min(1).max(50)).default(6),
      ORCHESTRATOR_TURN_LEASE_SECONDS: envNumber(z.number().positive().max(300)).default(6),
      ORCHESTRATOR_SSE_HEARTBEAT_SECONDS: envNumber(z.number().positive().max(15)).default(15),
      ORCHESTRATOR_STREAM_POLL_MS: envNumber(z.number().int().min(10).max(5000)).default(200),
      ORCHESTRATOR_SSE_RETRY_MS: envNumber(z.number().int().min(100).max(60_000)).default(2000),
      // On everywhere unless switched off explicitly (dev/test only): an unauthenticated route
      // that writes into a mission's stream is never a good default.
      REQUIRE_INTERNAL_EVENT_TOKEN: envBool(true),
      ARTIFACTS_AUDIT_ENABLED: envBool(true),
      OUTBOX_RETRY_MAX_SECONDS: envNumber(z.number().positive()).default(60),
    }),
    env,
  );
  const raw = base.raw;
  if (isProductionLike(base.appEnv) && !raw.REQUIRE_INTERNAL_EVENT_TOKEN)
    configProblem(`REQUIRE_INTERNAL_EVENT_TOKEN=false is not allowed when APP_ENV=${base.appEnv}`);
  if (raw.ORCHESTRATOR_REQUIRE_LLM_AGENT && !raw.ORCHESTRATOR_GCP_PROJECT)
    configProblem(
      'ORCHESTRATOR_GCP_PROJECT is required when ORCHESTRATOR_REQUIRE_LLM_AGENT=true (value: unset)',
    );
  return {
    ...base,
    agent: {
      backend: raw.ORCHESTRATOR_REQUIRE_LLM_AGENT ? ('gemini' as const) : ('stub' as const),
      model: raw.ORCHESTRATOR_LLM_MODEL,
      project: raw.ORCHESTRATOR_GCP_PROJECT,
      location: raw.ORCHESTRATOR_GCP_LOCATION,
      baseUrl: raw.ORCHESTRATOR_LLM_BASE_URL,
      timeoutMs: raw.ORCHESTRATOR_LLM_TIMEOUT_SECONDS * 1000,
      stream: raw.ORCHESTRATOR_LLM_STREAM,
      maxSteps: raw.ORCHESTRATOR_MAX_STEPS,
    },
    turnLeaseMs: raw.ORCHESTRATOR_TURN_LEASE_SECONDS * 1000,
    stream: {
      heartbeatMs: raw.ORCHESTRATOR_SSE_HEARTBEAT_SECONDS * 1000,
      pollMs: raw.ORCHESTRATOR_STREAM_POLL_MS,
      retryMs: raw.ORCHESTRATOR_SSE_RETRY_MS,
    },
    requireInternalEventToken: raw.REQUIRE_INTERNAL_EVENT_TOKEN,
    artifactsAuditEnabled: raw.ARTIFACTS_AUDIT_ENABLED,
    outboxMaxBackoffMs: raw.OUTBOX_RETRY_MAX_SECONDS * 1000,
  };
}

export type OrchestratorConfig = ReturnType<typeof loadOrchestratorConfig> & BaseConfig;
