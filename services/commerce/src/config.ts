import {
  type BaseConfig,
  configProblem,
  envBool,
  envDomainList,
  envNumber,
  loadConfig,
} from '@hs/service-kit';
import { z } from 'zod';
import { DEFAULT_MAX_OFFERS_PER_HOUSEHOLD } from './adapters/offer-repository.ts';

/** Settings of the commerce service on top of the shared ones (see README, configuration table). */
export function loadCommerceConfig(env: NodeJS.ProcessEnv = process.env) {
  const base = loadConfig(
    'commerce',
    () => ({
      COMMERCE_ENFORCE_DOMAIN_ALLOWLIST: envBool(false),
      COMMERCE_ALLOWED_DOMAINS: envDomainList(),
      // What one household may hold: one member must not fill the disk every household shares.
      COMMERCE_MAX_OFFERS_PER_HOUSEHOLD: envNumber(z.number().int().min(1).max(10_000_000)).default(
        DEFAULT_MAX_OFFERS_PER_HOUSEHOLD,
      ),
    }),
    env,
  );
  const raw = base.raw;
  // An enforced but empty allowlist would refuse every offer: almost certainly a deployment mistake.
  if (raw.COMMERCE_ENFORCE_DOMAIN_ALLOWLIST && raw.COMMERCE_ALLOWED_DOMAINS.length === 0)
    configProblem('COMMERCE_ALLOWED_DOMAINS must list domains when COMMERCE_ENFORCE_DOMAIN_ALLOWLIST=true');
  return {
    ...base,
    commerce: {
      allowedDomains: raw.COMMERCE_ENFORCE_DOMAIN_ALLOWLIST ? raw.COMMERCE_ALLOWED_DOMAINS : null,
      maxOffersPerHousehold: raw.COMMERCE_MAX_OFFERS_PER_HOUSEHOLD,
    },
  };
}

export type CommerceConfig = ReturnType<typeof loadCommerceConfig> & BaseConfig;
