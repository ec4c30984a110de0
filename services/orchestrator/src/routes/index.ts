import type { ServiceApp } from '@hs/service-kit';
import type { OrchestratorContext } from '../context.ts';
import { registerBriefRoutes } from './brief.ts';
import { registerChatRoutes } from './chat.ts';
import { registerEventRoutes } from './events.ts';
import { registerMissionRoutes } from './missions.ts';
import { registerStreamRoutes } from './stream.ts';

/** Every route group of the orchestrator, in one list. */
export const ROUTE_GROUPS: Array<(app: ServiceApp, ctx: OrchestratorContext) => void> = [
  registerMissionRoutes,
  registerChatRoutes,
  registerStreamRoutes,
  registerEventRoutes,
  registerBriefRoutes,
];
