import { createHash } from 'node:crypto';
import { ArtifactParams, ErrorEnvelope } from '@hs/contracts';
import { forbidden, notFound, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { ArtifactsAuditContext } from '../context.ts';
import { recordDataAccess } from './data-access.ts';

/**
 * The link's credential. Missing, repeated or malformed (too long, not a number) it is a bad
 * credential (403, checked first, as every credential is), not a malformed query (422).
 */
const QueryValue = z.union([z.string(), z.array(z.string())]).optional();
const SignedQuery = z.object({ expires: QueryValue, signature: QueryValue });
/** One value of the parameter, or '' (missing, repeated). */
const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/**
 * The audit entry of a fetch through one link: the link's own id, so the ledger records a link's
 * first fetch and dedupes the rest. Anyone holding a link may fetch it, as often as they like,
 * without an account: one entry per fetch let a passed-around link fill the family's log (and
 * the ledger's disk, shared by every household) without bound. A new link needs a member's read
 * of the artifact, which is recorded itself.
 */
const linkFetchEventId = (householdId: string, artifactId: string, expires: number, signature: string) =>
  `aud_${createHash('sha256').update(`${householdId}\n${artifactId}\n${expires}\n${signature}`).digest('base64url')}`;

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
          "The recording's bytes through the time-limited link in a BrowserRecording's signedUrl. 403 FORBIDDEN for a bad, missing or expired signature (or expires); 404 when the artifact or its content is missing. A link's fetches are recorded in the audit log once, on the first (DATA_ACCESS ARTIFACT_CONTENT_READ, detail.via signed-link), so a link passed around cannot fill the family's log.",
        params: ArtifactParams,
        querystring: SignedQuery,
        response: {
          200: z.any().describe('The recording bytes'),
          403: ErrorEnvelope,
          404: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { id, artifactId } = request.params;
      const expires = Number(single(request.query.expires) || Number.NaN);
      const signature = single(request.query.signature);
      if (!ctx.signer.verify(id, artifactId, expires, signature))
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
          eventId: linkFetchEventId(id, artifactId, expires, signature),
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
