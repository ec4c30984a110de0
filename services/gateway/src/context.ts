import type { AuditWriter } from '@hs/audit-client';
import type { ServiceName } from '@hs/contracts';
import type { PeerClient } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { AccessTokens } from './adapters/access-tokens.ts';
import type { AccessWatch } from './adapters/access-watch.ts';
import type { Buyflow } from './adapters/buyflow.ts';
import type { HouseholdRepository } from './adapters/household-repository.ts';
import type { IdentityProvider } from './adapters/identity-provider.ts';
import type { RefusalBudget } from './adapters/refusal-budget.ts';
import type { UserDirectory } from './adapters/user-directory.ts';
import type { GatewayConfig } from './config.ts';

/** Everything the gateway's routes depend on, built once in app.ts. */
export interface GatewayContext {
  config: GatewayConfig;
  store: Store;
  tokens: AccessTokens;
  identity: IdentityProvider;
  households: HouseholdRepository;
  /** Ends streams and voice sockets of users who leave a household. */
  access: AccessWatch;
  /** Users who have signed in at least once. */
  users: UserDirectory;
  audit: AuditWriter;
  /** How many of one caller's refusals each household's audit log records (adapters/refusal-budget.ts). */
  refusals: RefusalBudget;
  peers: Record<ServiceName, PeerClient>;
  buyflow: Buyflow;
  logger: Logger | undefined;
}
