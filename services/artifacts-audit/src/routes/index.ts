import type { ServiceApp } from '@hs/service-kit';
import type { ArtifactsAuditContext } from '../context.ts';
import { registerArtifactContentRoutes } from './artifact-content.ts';
import { registerArtifactRoutes } from './artifacts.ts';
import { registerAuditRoutes } from './audit.ts';
import { registerAuditLogExportRoutes } from './audit-log-export.ts';

/** Every route group of the service, in one list. */
export const ROUTE_GROUPS: Array<(app: ServiceApp, ctx: ArtifactsAuditContext) => void> = [
  registerAuditRoutes,
  registerArtifactRoutes,
  registerArtifactContentRoutes,
  registerAuditLogExportRoutes,
];
