import type { AuditWriter } from '@hs/audit-client';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import type { ArtifactWriter } from './adapters/artifact-writer.ts';
import type { BrowserCloser } from './adapters/browser-closer.ts';
import type { EventLog } from './adapters/event-log.ts';
import type { MissionRepository } from './adapters/mission-repository.ts';
import type { OrchestratorPeers } from './adapters/peers.ts';
import type { OrchestratorConfig } from './config.ts';
import type { AgentModel } from './domain/agent-model.ts';
import type { RunningTurns } from './flows/running-turns.ts';

/** Everything the orchestrator's routes and flows depend on, built once in app.ts. */
export interface OrchestratorContext {
  config: OrchestratorConfig;
  store: Store;
  missions: MissionRepository;
  events: EventLog;
  model: AgentModel;
  peers: OrchestratorPeers;
  audit: AuditWriter;
  artifacts: ArtifactWriter;
  /** Ends an ended INTERACTIVE mission's browser sessions on the bridge. */
  browsers: BrowserCloser;
  logger: Logger | undefined;
  /** Turns running in this process (closed at shutdown if they do not finish in time). */
  turns: RunningTurns;
}
