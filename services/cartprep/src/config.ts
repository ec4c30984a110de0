import { DEFAULT_CHROMIUM_PATH, privateMerchantHosts } from '@hs/browser';
import {
  type BaseConfig,
  configProblem,
  envBool,
  envDomainList,
  envList,
  envNumber,
  isProductionLike,
  loadConfig,
} from '@hs/service-kit';
import { storageEnvShape, storageSettingsFrom } from '@hs/storage';
import { z } from 'zod';

/** Settings of the cartprep service on top of the shared ones (see README, configuration table). */
export function loadCartprepConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'cartprep',
    () => ({
      CARTPREP_EXECUTOR: z.enum(['simulated', 'browser']).default('simulated'),
      CARTPREP_CONCURRENCY: envNumber(z.number().int().min(1).max(32)).default(2),
      CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD: envNumber(z.number().int().min(1).max(1000)).default(5),
      CARTPREP_MAX_ACTIVE_JOBS_PER_USER: envNumber(z.number().int().min(1).max(1000)).default(5),
      CARTPREP_MAX_ATTEMPTS: envNumber(z.number().int().min(1).max(10)).default(3),
      CARTPREP_LEASE_SECONDS: envNumber(z.number().positive().max(3600)).default(120),
      CARTPREP_JOB_TIMEOUT_SECONDS: envNumber(z.number().positive().max(3600)).default(90),
      CARTPREP_POLL_MS: envNumber(z.number().int().min(10).max(60_000)).default(250),
      CARTPREP_ENFORCE_DOMAIN_ALLOWLIST: envBool(false),
      CARTPREP_ALLOWED_DOMAINS: envDomainList(),
      CARTPREP_CALLBACK_RETRY_MAX_SECONDS: envNumber(z.number().positive()).default(60),
      BUYFLOW_INTERNAL_TOKEN: z.string().min(1).default('dev-buyflow-internal-token'),
      ALLOW_PRIVATE_MERCHANT_HOSTS: envList(),
      BROWSER_CHROMIUM_PATH: z.string().min(1).default(DEFAULT_CHROMIUM_PATH),
      ...storageEnvShape(),
    }),
    env,
  );
  const raw = base.raw;
  const allowPrivateHosts = privateMerchantHosts(raw.ALLOW_PRIVATE_MERCHANT_HOSTS, base.appEnv);
  if (
    isProductionLike(base.appEnv) &&
    (raw.BUYFLOW_INTERNAL_TOKEN.startsWith('dev-') || Buffer.byteLength(raw.BUYFLOW_INTERNAL_TOKEN) < 32)
  )
    configProblem('BUYFLOW_INTERNAL_TOKEN must be a 32+ byte secret in staging and production');
  if (raw.CARTPREP_ENFORCE_DOMAIN_ALLOWLIST && raw.CARTPREP_ALLOWED_DOMAINS.length === 0)
    configProblem('CARTPREP_ALLOWED_DOMAINS must list domains when CARTPREP_ENFORCE_DOMAIN_ALLOWLIST=true');
  return {
    ...base,
    cartprep: {
      executor: raw.CARTPREP_EXECUTOR,
      concurrency: raw.CARTPREP_CONCURRENCY,
      maxActiveJobsPerHousehold: raw.CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD,
      /** Across all the households of the intent's actor: one account may guard many households. */
      maxActiveJobsPerUser: raw.CARTPREP_MAX_ACTIVE_JOBS_PER_USER,
      /** simulate= and simulateDelayMs= in job urls steer the simulated executor in dev and test only. */
      simulationParams: !isProductionLike(base.appEnv),
      maxAttempts: raw.CARTPREP_MAX_ATTEMPTS,
      leaseMs: raw.CARTPREP_LEASE_SECONDS * 1000,
      jobTimeoutMs: raw.CARTPREP_JOB_TIMEOUT_SECONDS * 1000,
      pollMs: raw.CARTPREP_POLL_MS,
      allowlist: raw.CARTPREP_ENFORCE_DOMAIN_ALLOWLIST
        ? raw.CARTPREP_ALLOWED_DOMAINS.map((d) => d.toLowerCase())
        : null,
      callbackRetryMaxMs: raw.CARTPREP_CALLBACK_RETRY_MAX_SECONDS * 1000,
      buyflowToken: raw.BUYFLOW_INTERNAL_TOKEN,
      allowPrivateHosts,
      chromiumPath: raw.BROWSER_CHROMIUM_PATH,
    },
    /** Where evidence screenshots of failed browser jobs are kept (ARTIFACT_* settings). */
    storage: storageSettingsFrom(raw, base.appEnv),
  };
}

export type CartprepConfig = ReturnType<typeof loadCartprepConfig> & BaseConfig;
