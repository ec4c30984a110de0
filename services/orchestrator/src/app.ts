import { createAuditWriter } from '@hs/audit-client';
import { createReceiverState } from '@hs/outbox';
import { createServiceApp, nowIso, peerChecks, registerInternalAuth, type ServiceApp } from '@hs/service-kit';
import type { Store } from '@hs/store';
import type { Logger } from 'pino';
import { createArtifactWriter } from './adapters/artifact-writer.ts';
import { createBrowserCloser } from './adapters/browser-closer.ts';
import { createEventLog } from './adapters/event-log.ts';
import { createMissionRepository } from './adapters/mission-repository.ts';
import { meteredModel } from './adapters/models/metered-model.ts';
import { createPeers } from './adapters/peers.ts';
import { TOOLS } from './adapters/tools/tool-registry.ts';
import type { OrchestratorConfig } from './config.ts';
import type { OrchestratorContext } from './context.ts';
import type { AgentModel } from './domain/agent-model.ts';
import { createStubModel } from './domain/stub-model.ts';
import { startExpiredTurnSweep } from './flows/expired-turns.ts';
import { startMissionEndSweep } from './flows/mission-end.ts';
import { closeRunningTurns } from './flows/run-turn.ts';
import { createRunningTurns } from './flows/running-turns.ts';
import { ROUTE_GROUPS } from './routes/index.ts';

const REQUIRED_PEERS = ['wardrobe', 'commerce'] as const;

export interface OrchestratorDeps {
  config: OrchestratorConfig;
  store: Store;
  logger?: Logger | false;
  /** Tests may inject a model; otherwise ORCHESTRATOR_REQUIRE_LLM_AGENT picks stub or Gemini. */
  model?: AgentModel;
  /** google-auth-library client for Gemini (tests inject a fake); default: Application Default Credentials. */
  geminiAuthClient?: unknown;
  /** Start the outbox retry loops (audit, artifacts); off in tests that drain them by hand. */
  background?: boolean;
}

async function modelFor(deps: OrchestratorDeps): Promise<AgentModel> {
  if (deps.model) return deps.model;
  const agent = deps.config.agent;
  if (agent.backend === 'stub') return createStubModel();
  // The Gemini SDK loads only when the Gemini agent is configured.
  const { createGeminiModel } = await import('./adapters/models/gemini-model.ts');
  return createGeminiModel({
    project: agent.project!,
    location: agent.location,
    model: agent.model,
    timeoutMs: agent.timeoutMs,
    stream: agent.stream,
    baseUrl: agent.baseUrl,
    tools: TOOLS,
    authClient: deps.geminiAuthClient,
  });
}

export async function buildApp(deps: OrchestratorDeps): Promise<ServiceApp & { ctx: OrchestratorContext }> {
  const { config, store } = deps;
  const logger = deps.logger || undefined;
  const app = await createServiceApp({
    service: 'orchestrator',
    description:
      'Missions: the stateful AI stylist (STYLE, POLL, CARTPREP, INTERACTIVE), its tools, replayable SSE streams and client events.',
    logger: deps.logger ?? false,
    config,
    // The agent's everyday tools; browser sessions and cart preparation degrade per mission type.
    readiness: { store: () => store.ping(), ...peerChecks(config.peers, REQUIRED_PEERS) },
  });
  registerInternalAuth(app, { token: config.internalToken });
  const peers = createPeers(config);
  const missions = createMissionRepository(store);
  // The audit entries and the artifacts both go to artifacts-audit: one of them finding it hung
  // is enough for neither to wait on it (see @hs/outbox `receiver`).
  const outboxOptions = {
    store,
    enabled: config.artifactsAuditEnabled,
    maxBackoffMs: config.outboxMaxBackoffMs,
    logger,
    receiver: createReceiverState(),
  };
  const audit = createAuditWriter({
    ...outboxOptions,
    ledger: peers.artifacts,
    sourceService: 'orchestrator',
  });
  const ctx: OrchestratorContext = {
    config,
    store,
    missions,
    events: createEventLog(store),
    model: meteredModel(await modelFor(deps)),
    peers,
    audit,
    artifacts: createArtifactWriter({
      ...outboxOptions,
      audit,
      artifacts: peers.artifacts,
      onWritten: async (_householdId, missionId, ref) => {
        await missions.update(missionId, (m) =>
          m.artifacts.some((a) => a.type === ref.type)
            ? m
            : { ...m, artifacts: [...m.artifacts, ref], updated_at: nowIso() },
        );
      },
    }),
    browsers: createBrowserCloser({
      store,
      bridge: peers.bridge,
      maxBackoffMs: config.outboxMaxBackoffMs,
      audit,
      logger,
    }),
    logger,
    turns: createRunningTurns(),
  };
  for (const register of ROUTE_GROUPS) register(app, ctx);
  // Before the store and the outboxes close: running turns finish, or are closed as interrupted.
  app.addHook('preClose', async () => {
    await closeRunningTurns(ctx, config.shutdownGraceMs / 3);
  });
  if (deps.background !== false) {
    let stopSweep = () => {};
    let stopEndSweep = async () => {};
    app.addHook('onReady', async () => {
      ctx.audit.outbox?.start();
      ctx.artifacts.outbox?.start();
      ctx.browsers.outbox.start();
      stopSweep = startExpiredTurnSweep(ctx, Math.max(1000, config.turnLeaseMs / 2));
      // Ends whose follow-up a dead process left owed: at boot, then every minute.
      stopEndSweep = startMissionEndSweep(ctx);
    });
    app.addHook('onClose', async () => {
      stopSweep();
      // Before the outboxes it queues into stop.
      await stopEndSweep();
      await ctx.audit.outbox?.stop();
      await ctx.artifacts.outbox?.stop();
      await ctx.browsers.outbox.stop();
    });
  }
  return Object.assign(app, { ctx });
}
