import { ArtifactParams, ErrorEnvelope } from '@hs/contracts';
import { forbidden, notFound, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { ArtifactsAuditContext } from '../context.ts';
import { recordDataAccess } from './data-access.ts';

const SignedQuery = z.object({
  expires: z.coerce.number().int(),
  signature: z.string().min(1).max(128),
});

/**
 * The content behind a recording's signedUrl. Public (no internal token): the signature is
 * the authorisation, so a video player can load the link as it is.
 */
export function registerArtifactContentRoutes(app: ServiceApp, ctx: ArtifactsAuditContext): void {
  app.get(
    '/api/v1/households/:id/artifacts/:artifactId/content',
    {
      config: { public: true },
      schema: {
        tags: ['artifacts'],
        description:
          "The recording's bytes through the time-limited link in a BrowserRecording's signedUrl. 403 FORBIDDEN for a bad or expired signature; 404 when the artifact or its content is missing.",
        params: ArtifactParams,
        querystring: SignedQuery,
        response: {
          200: z.any().describe('The recording bytes'),
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          422: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, artifactId } = request.params;
      if (!ctx.signer.verify(id, artifactId, request.query.expires, request.query.signature))
        throw forbidden('Invalid or expired signature');
      const artifact = await ctx.artifacts.get(id, artifactId);
      if (artifact?.type !== 'BrowserRecording') throw notFound('Artifact not found');
      const blob = await ctx.artifacts.content(artifact.data.storagePath);
      if (!blob) throw notFound('Recording content not found');
      await recordDataAccess(
        ctx,
        request,
        id,
        {
          action: 'ARTIFACT_CONTENT_READ',
          missionId: artifact.missionId,
          targetType: 'artifact',
          targetId: artifactId,
        },
        true,
      );
      return reply
        .type(blob.info.contentType)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(blob.bytes));
    },
  );
}
