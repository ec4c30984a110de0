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
import { errorResponses, notFound, type ServiceApp, validationError } from '@hs/service-kit';
import { z } from 'zod';
import type { ArtifactsAuditContext } from '../context.ts';
import { defaultRecordingPath, isHouseholdPath } from '../domain/artifact-keys.ts';
import { buildMissionPlan } from '../domain/mission-plan.ts';
import { aggregateTranscript } from '../domain/transcript.ts';

const tags = ['artifacts'];
const security = [{ internalToken: [] }];
const createErrors = errorResponses(403, 409, 422, 502);
const readErrors = errorResponses(403, 404, 422);
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
          'Generates the mission plan deterministically from the request (same request, same data). One per mission.',
        ),
        params: ArtifactsAuditHouseholdParams,
        body: MissionPlanRequest,
        response: { 201: Artifact, ...createErrors },
      },
    },
    async (request, reply) => {
      const data = buildMissionPlan(request.body);
      const { missionId } = request.body;
      const artifact = await ctx.artifacts.create({
        householdId: request.params.id,
        missionId,
        type: 'MissionPlan',
        data,
      });
      return reply.code(201).send(artifact);
    },
  );

  app.post(
    '/api/v1/households/:id/artifacts/outcome-summary',
    {
      schema: {
        ...created('Stores the outcome of a finished mission. One per mission.'),
        params: ArtifactsAuditHouseholdParams,
        body: OutcomeSummaryRequest,
        response: { 201: Artifact, ...createErrors },
      },
    },
    async (request, reply) => {
      const { missionId, ...data } = request.body;
      const artifact = await ctx.artifacts.create({
        householdId: request.params.id,
        missionId,
        type: 'OutcomeSummary',
        data,
      });
      return reply.code(201).send(artifact);
    },
  );

  app.post(
    '/api/v1/households/:id/artifacts/recording',
    {
      schema: {
        ...created(
          'Registers a browser-session recording. storagePath must lie under households/{id}/ (default households/{id}/missions/{mId}/recordings/{sessionId}.webm); signedUrl is a time-limited link to the content. One per sessionId.',
        ),
        params: ArtifactsAuditHouseholdParams,
        body: RecordingRequest,
        response: { 201: Artifact, ...createErrors },
      },
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
      const artifact = await ctx.artifacts.create({
        householdId,
        missionId,
        type: 'BrowserRecording',
        data,
        sessionId,
      });
      return reply.code(201).send(present(artifact));
    },
  );

  app.post(
    '/api/v1/households/:id/artifacts/transcript',
    {
      schema: {
        ...created(
          'Aggregates the text and voice history in time order; hasVoice is true when any entry came by voice. One per mission.',
        ),
        params: ArtifactsAuditHouseholdParams,
        body: TranscriptRequest,
        response: { 201: Artifact, ...createErrors },
      },
    },
    async (request, reply) => {
      const { missionId, entries } = request.body;
      const data = aggregateTranscript(missionId, entries);
      const artifact = await ctx.artifacts.create({
        householdId: request.params.id,
        missionId,
        type: 'Transcript',
        data,
      });
      return reply.code(201).send(artifact);
    },
  );

  app.get(
    '/api/v1/households/:id/artifacts/:artifactId',
    {
      schema: {
        tags,
        security,
        description: "One artifact. 404 NOT_FOUND when missing or another household's.",
        params: ArtifactParams,
        response: { 200: Artifact, ...readErrors },
      },
    },
    async (request) => {
      const artifact = await ctx.artifacts.get(request.params.id, request.params.artifactId);
      if (!artifact) throw notFound('Artifact not found');
      return present(artifact);
    },
  );

  app.get(
    '/api/v1/households/:id/missions/:mId/artifacts',
    {
      schema: {
        tags,
        security,
        description:
          "A mission's artifacts as an array, oldest first; optional filter artifact_type. An unknown mission gives an empty array.",
        params: ArtifactMissionParams,
        querystring: MissionArtifactsQuery,
        response: { 200: z.array(Artifact), ...readErrors },
      },
    },
    async (request) => {
      const list = await ctx.artifacts.listForMission(
        request.params.id,
        request.params.mId,
        request.query.artifact_type,
      );
      return list.map(present);
    },
  );
}
