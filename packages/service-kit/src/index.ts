export { checkBeforeBody, type ResourceCheck } from './before-body.ts';
export * from './config.ts';
export * from './cors.ts';
export * from './create-app.ts';
export { locationOf } from './created-location.ts';
export * from './deadline.ts';
export * from './error-handler.ts';
export * from './error-responses.ts';
export * from './errors.ts';
export * from './flow.ts';
export * from './household-members.ts';
export { loadAgentParts, request as httpRequest } from './http-request.ts';
export * from './ids.ts';
export * from './internal-auth.ts';
export * from './json-depth.ts';
export { keptJsonHandler } from './kept-json.ts';
export * from './keyed-id.ts';
export * from './logger.ts';
export * from './metrics.ts';
export { createMissionLookup, type MissionLookup } from './mission-lookup.ts';
export { nodeHttp } from './node-http.ts';
export * from './node-options.ts';
export * from './open-streams.ts';
export * from './openapi-components.ts';
export * from './openapi-extra.ts';
export * from './operation-ids.ts';
export * from './peer-client.ts';
export * from './peer-health.ts';
export * from './periodic.ts';
export { BODY_OVER_LIMIT_HEADER, discardRest, refusedBodyDrainLimit } from './refused-body.ts';
export {
  CLIENT_CLOSED_STATUS,
  endClientClosed,
  endRequestLine,
  holdRequestLine,
  onRequestEnd,
  type RequestEnd,
} from './request-line.ts';
export * from './role-guard.ts';
export * from './route-access.ts';
export * from './run-service.ts';
export * from './run-services.ts';
export * from './service-scope.ts';
export * from './trace-context.ts';
export * from './tracing.ts';
export { ensureDir, ensureDirSync, writableDirProblem } from './writable-dir.ts';
