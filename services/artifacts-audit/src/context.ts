import type { ArtifactRepository } from './adapters/artifact-repository.ts';
import type { AuditLedger } from './adapters/audit-ledger.ts';
import type { ContentSigner } from './adapters/content-signer.ts';

/** What the routes work with, built once in app.ts. */
export interface ArtifactsAuditContext {
  ledger: AuditLedger;
  artifacts: ArtifactRepository;
  signer: ContentSigner;
}
