import { ErrorEnvelope, VtoJobParams } from '@hs/contracts';
import { conflict, notFound, requireCaller, type ServiceApp } from '@hs/service-kit';
import { z } from 'zod';
import type { VtoContext } from '../context.ts';
import { resultKey } from '../jobs/process-job.ts';
import { JOB_NOT_FOUND } from './vto-jobs.ts';

export function registerVtoResultRoutes(app: ServiceApp, ctx: VtoContext): void {
  app.get(
    '/api/v1/households/:id/vto/jobs/:jobId/result',
    {
      config: {
        openapi: {
          responses: {
            200: {
              description: 'The preview picture',
              content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
            },
          },
        },
      },
      schema: {
        tags: ['vto'],
        security: [{ internalToken: [] }],
        description:
          'The result picture of a SUCCEEDED job as image/png, for the app to show. 404 when the job does not ' +
          'exist in this household; 409 CONFLICT while the job has no result (QUEUED, RUNNING or FAILED).',
        params: VtoJobParams,
        response: {
          200: z.any().describe('PNG bytes (Content-Type: image/png)'),
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      requireCaller(request);
      const { id, jobId } = request.params;
      const job = await ctx.jobs.get(id, jobId);
      if (!job) throw notFound(JOB_NOT_FOUND);
      if (job.status !== 'SUCCEEDED')
        throw conflict(`Try-on job is ${job.status}; only a SUCCEEDED job has a result`);
      const object = await ctx.storage.get(resultKey(id, jobId));
      if (!object) throw notFound('Try-on result not found');
      const bytes = object.bytes;
      return reply
        .type('image/png')
        .header('cache-control', 'private, max-age=86400')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
