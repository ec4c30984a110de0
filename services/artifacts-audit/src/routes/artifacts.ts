import {
  Artifact,
  ArtifactMissionParams,
  ArtifactParams,
  ArtifactsAuditHouseholdParams,
  MissionArtifactsQuery,
  MissionPlanRequest,
  OutcomeSummaryRequest,
  RecordingRequest,
  TranscriptRequest,
} from '@hs/contracts';
import {
  errorResponses,
  idempotencyKeyOf,
  notFound,
  type ServiceApp,
  validationError,
} from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ArtifactsAuditContext } from '../context.ts';
import { defaultRecordingPath, isHouseholdPath } from '../domain/artifact-keys.ts';
import { buildMissionPlan } from '../domain/mission-plan.ts';
import { aggregateTranscript } from '../domain/transcript.ts';
import { assertMayPlanMission, followsMissionOfHousehold, writtenByService } from './access.ts';
import { assertMayReadArtifact, listableTypes, listReadableArtifacts } from './artifact-read-access.ts';
import { recordDataAccess } from './data-access.ts';

const tags = ['artifacts'];
const security = [{ internalToken: [] }];
// 502: blob storage unreachable; 503: its local disk full or unwritable (named in the message).
const createErrors = errorResponses(403, 409, 422, 502, 503);
const SERVICE_WRITE =
  ' Written only by a service (internal token, no caller identity): a member forwarded by the gateway gets 403 FORBIDDEN. The writer may send its own Idempotency-Key: a retry with the same key answers 200 with the stored artifact; an artifact stored under another key is 409 CONFLICT.';
/** The writing service's key for its artifact (see SERVICE_WRITE). */
const writerKeyOf = (request: FastifyRequest): { writerKey?: string } => {
  const key = idempotencyKeyOf(request.headers);
  return key ? { writerKey: key } : {};
};
const readErrors = errorResponses(403, 404, 422, 502);
/** Who reads what (artifact-read-access.ts); a service's own call (no caller) reads every artifact. */
const MEMBER_READ =
  " A member (forwarded by the gateway) reads an AuditLog artifact only as a PARENT_GUARDIAN (403 FORBIDDEN otherwise, like the audit log), and any other artifact of a mission only when they may follow the mission: its owner, or any member for a POLL mission (403 FORBIDDEN otherwise, a PARENT_GUARDIAN included, like the mission itself). Who owns a mission and its type come from the mission's MISSION_CREATED audit entry, else from the orchestrator (502 UPSTREAM_ERROR when it cannot be reached).";
const created = (summary: string) => ({
  tags,
  security,
  description: `${summary} 409 CONFLICT when the key already exists.`,
});

export function registerArtifactRoutes(app: ServiceApp, ctx: ArtifactsAuditContext): void {
  /** A recording's link is signed at read time, so it is always fresh. */
  const present = (artifact: Artifact): Artifact =>
    artifact.type === 'BrowserRecording'
      ? {
          ...artifact,
          data: { ...artifact.data, signedUrl: ctx.signer.urlFor(artifact.householdId, artifact.artifactId) },
        }
      : artifact;

  app.post(
    '/api/v1/households/:id/artifacts/mission-plan',
    {
      schema: {
        ...created(
          "Generates the mission plan deterministically from the request (same request, same data) and stores it. One per mission: the orchestrator stores one when a mission starts, so a second (a member's, for a running mission) is 409 CONFLICT, and the mission's plan is read with GET .../missions/{mId}/artifacts. A member may plan any mission id of this household they may follow, or one that does not exist yet (at most 200 such plans per household: 409 CONFLICT past it); another household's mission is 404 NOT_FOUND, another member's (non-POLL) mission 403 FORBIDDEN. A service's call (internal token, no caller) may send its own Idempotency-Key: a retry with the same key answers 200 with the stored plan.",
        ),
        params: ArtifactsAuditHouseholdParams,
        body: MissionPlanRequest,
        response: { 200: Artifact, 201: Artifact, ...errorResponses(403, 404, 409, 422, 502, 503) },
      },
    },
    async (request, reply) => {
      const { missionId } = request.body;
      const mission = await assertMayPlanMission(ctx, request, request.params.id, missionId);
      const data = buildMissionPlan(request.body);
      const { artifact, created } = await ctx.artifacts.create({
        householdId: request.params.id,
        missionId,
        type: 'MissionPlan',
        data,
        ...(mission === 'ahead' ? { plannedAhead: true } : {}),
        // The orchestrator's outbox resends the plan after a crash under its own key: its retry.
        ...(request.caller ? {} : writerKeyOf(request)),
      });
      return reply.code(created ? 201 : 200).send(artifact);
    },
  );

  app.post(
    '/api/v1/households/:id/artifacts/outcome-summary',
    {
      schema: {
        ...created(`Stores the outcome of a finished mission. One per mission.${SERVICE_WRITE}`),
        params: ArtifactsAuditHouseholdParams,
        body: OutcomeSummaryRequest,
        response: { 200: Artifact, 201: Artifact, ...createErrors },
      },
      config: writtenByService('OutcomeSummary'),
    },
    async (request, reply) => {
      const { missionId, ...data } = request.body;
      const { artifact, created } = await ctx.artifacts.create({
        householdId: request.params.id,
        missionId,
        type: 'OutcomeSummary',
        data,
        ...writerKeyOf(request),
      });
      return reply.code(created ? 201 : 200).send(artifact);
    },
  );

  app.post(
    '/api/v1/households/:id/artifacts/recording',
    {
      schema: {
        ...created(
          `Registers a browser-session recording. storagePath must lie under households/{id}/ (default households/{id}/missions/{mId}/recordings/{sessionId}.webm); signedUrl is a time-limited link to the content. One per sessionId.${SERVICE_WRITE}`,
        ),
        params: ArtifactsAuditHouseholdParams,
        body: RecordingRequest,
        response: { 200: Artifact, 201: Artifact, ...createErrors },
      },
      config: writtenByService('BrowserRecording'),
    },
    async (request, reply) => {
      const householdId = request.params.id;
      const { missionId, sessionId, durationSeconds, actionLog } = request.body;
      const storagePath = request.body.storagePath ?? defaultRecordingPath(householdId, missionId, sessionId);
      if (!isHouseholdPath(householdId, storagePath)) {
        throw validationError([
          {
            loc: ['body', 'storagePath'],
            msg: `Must be a relative key under households/${householdId}/`,
            type: 'custom',
          },
        ]);
      }
      // The stored copy carries no link (it would expire); every read signs a fresh one.
      const data = { sessionId, storagePath, signedUrl: '', durationSeconds, actionLog };
      const { artifact, created } = await ctx.artifacts.create({
        householdId,
        missionId,
        type: 'BrowserRecording',
        data,
        sessionId,
        ...writerKeyOf(request),
      });
      return reply.code(created ? 201 : 200).send(present(artifact));
    },
  );

  app.post(
    '/api/v1/households/:id/artifacts/transcript',
    {
      schema: {
        ...created(
          `Aggregates the text and voice history in time order; hasVoice is true when any entry came by voice. One per mission.${SERVICE_WRITE}`,
        ),
        params: ArtifactsAuditHouseholdParams,
        body: TranscriptRequest,
        response: { 200: Artifact, 201: Artifact, ...createErrors },
      },
      config: writtenByService('Transcript'),
    },
    async (request, reply) => {
      const { missionId, entries } = request.body;
      const data = aggregateTranscript(missionId, entries);
      const { artifact, created } = await ctx.artifacts.create({
        householdId: request.params.id,
        missionId,
        type: 'Transcript',
        data,
        ...writerKeyOf(request),
      });
      return reply.code(created ? 201 : 200).send(artifact);
    },
  );

  app.get(
    '/api/v1/households/:id/artifacts/:artifactId',
    {
      schema: {
        tags,
        security,
        description: `One artifact. 404 NOT_FOUND when missing or another household's.${MEMBER_READ} A member's read is recorded in the audit log (DATA_ACCESS); a refused one is not.`,
        params: ArtifactParams,
        response: { 200: Artifact, ...readErrors },
      },
    },
    async (request) => {
      const artifact = await ctx.artifacts.get(request.params.id, request.params.artifactId);
      if (!artifact) throw notFound('Artifact not found');
      await assertMayReadArtifact(ctx, request, artifact);
      await recordDataAccess(ctx, request, request.params.id, {
        action: 'ARTIFACT_READ',
        missionId: artifact.missionId,
        targetType: 'artifact',
        targetId: artifact.artifactId,
        detail: { type: artifact.type },
      });
      return present(artifact);
    },
  );

  app.get(
    '/api/v1/households/:id/missions/:mId/artifacts',
    {
      schema: {
        tags,
        security,
        description: `A mission's artifacts as an array, oldest first; optional filter artifact_type. A mission that does not exist, or is another household's, is 404 NOT_FOUND.${MEMBER_READ} Here: a member who may not follow the mission gets 403 FORBIDDEN, except a PARENT_GUARDIAN, who then sees only the mission's AuditLog artifacts (their exports); a member other than a PARENT_GUARDIAN never sees AuditLog artifacts in the list (artifact_type=AuditLog gives them []). A member's read is recorded in the audit log (DATA_ACCESS); a refused one is not.`,
        params: ArtifactMissionParams,
        querystring: MissionArtifactsQuery,
        response: { 200: z.array(Artifact), ...readErrors },
      },
    },
    async (request) => {
      const { id, mId } = request.params;
      // A member's read names a mission of this household (404 otherwise, nothing recorded).
      const follows = await followsMissionOfHousehold(ctx, request, id, mId);
      const scope = listableTypes(request.caller, follows);
      const list = await listReadableArtifacts(ctx, scope, id, mId, request.query.artifact_type);
      await recordDataAccess(ctx, request, id, {
        action: 'MISSION_ARTIFACTS_READ',
        missionId: mId,
        targetType: 'mission',
        targetId: mId,
        detail: {
          count: list.length,
          ...(request.query.artifact_type ? { type: request.query.artifact_type } : {}),
        },
      });
      return list.map(present);
    },
  );
}
