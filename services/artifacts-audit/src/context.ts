import type { ArtifactRepository } from './adapters/artifact-repository.ts';
import type { AuditLedger } from './adapters/audit-ledger.ts';
import type { ContentSigner } from './adapters/content-signer.ts';
import type { MissionDirectory } from './adapters/mission-directory.ts';

/** What the routes work with, built once in app.ts. */
export interface ArtifactsAuditContext {
  ledger: AuditLedger;
  artifacts: ArtifactRepository;
  signer: ContentSigner;
  /** Which missions exist in a household (the orchestrator's), for what members write. */
  missions: MissionDirectory;
}
