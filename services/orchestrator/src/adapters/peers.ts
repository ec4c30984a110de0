import { createPeerClient, type PeerClient } from '@hs/service-kit';
import type { OrchestratorConfig } from '../config.ts';

/** The services the orchestrator calls, each with that service's own internal token. */
export type OrchestratorPeers = {
  wardrobe: PeerClient;
  commerce: PeerClient;
  bridge: PeerClient;
  gateway: PeerClient;
  artifacts: PeerClient;
};

export function createPeers(config: OrchestratorConfig): OrchestratorPeers {
  const client = (service: 'wardrobe' | 'commerce' | 'browser-bridge' | 'gateway' | 'artifacts-audit') =>
    createPeerClient({ service, ...config.peers[service], timeoutMs: config.internalTimeoutMs });
  return {
    wardrobe: client('wardrobe'),
    commerce: client('commerce'),
    bridge: client('browser-bridge'),
    gateway: client('gateway'),
    artifacts: client('artifacts-audit'),
  };
}
