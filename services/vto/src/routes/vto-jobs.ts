import {
  CreateVtoJobRequest,
  ErrorEnvelope,
  HouseholdParams,
  optionalBody,
  VtoJob,
  VtoJobList,
  VtoJobListQuery,
  VtoJobParams,
} from '@hs/contracts';
import { refusal } from '@hs/jobs';
import {
  badRequest,
  errorResponses,
  idempotencyKeyOf,
  keyedId,
  locationOf,
  MEMBERSHIP_REQUIRED,
  newId,
  notFound,
  nowIso,
  requireCaller,
  type ServiceApp,
} from '@hs/service-kit';
import { StoreConflictError } from '@hs/store';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storageRefPrefix } from '../adapters/image-loader.ts';
import type { VtoContext } from '../context.ts';
import { parseImageRef } from '../domain/image-ref.ts';
import { newJob, publicJob, type StoredVtoJob } from '../domain/vto-job-machine.ts';

const tags = ['vto'];
const security = [{ internalToken: [] }];
const errors = errorResponses(400, 401, 403, 404);
export const JOB_NOT_FOUND = 'Try-on job not found';

const accepted = (request: FastifyRequest, reply: FastifyReply, job: StoredVtoJob) =>
  reply.code(202).header('location', locationOf(request, job.jobId)).send(publicJob(job));

export function registerVtoJobRoutes(app: ServiceApp, ctx: VtoContext): void {
  const prefix = storageRefPrefix(ctx.storage);

  /** A required image ref, checked for shape now so a bad one is a 400 rather than a FAILED job later. */
  const requireRef = (
    name: 'personImageRef' | 'garmentImageRef',
    value: string | undefined,
    householdId: string,
  ) => {
    if (value === undefined || value.trim() === '') throw badRequest(`${name} is required`);
    const parsed = parseImageRef(value, householdId, prefix);
    if (!parsed.ok) throw badRequest(`${name} ${parsed.reason}`);
    return value.trim();
  };

  app.post(
    '/api/v1/households/:id/vto/jobs',
    {
      config: { validationStatus: 400 },
      schema: {
        tags,
        security,
        description:
          'Queues a try-on job (202). 400 BAD_REQUEST when personImageRef or garmentImageRef is missing or not ' +
          'an accepted reference, or memberId (default: the caller) is not a household member; a field of the ' +
          'wrong type (a number for a reference, say) is 400 VALIDATION_ERROR with details, not 422, on this route. The job then ' +
          'runs in the background: QUEUED → RUNNING → SUCCEEDED (resultImageRef) | FAILED (error). With ' +
          'VTO_INFERENCE_BACKEND=simulated it ends FAILED with error.code SIMULATED_RESULT. A household with ' +
          'VTO_MAX_ACTIVE_JOBS_PER_HOUSEHOLD jobs queued or running gets 429 RATE_LIMITED (Retry-After) for one more; ' +
          'so does a caller who queued VTO_MAX_ACTIVE_JOBS_PER_USER jobs still queued or running across all their ' +
          "households (the household's bound is checked first). " +
          "With an Idempotency-Key (the gateway passes the client's on) the same caller, key and body always give the " +
          'same job: a retry whose first attempt was queued here but never answered (a restart, a 504) gets that job ' +
          '(202, as it stands now) instead of a second one.',
        params: HouseholdParams,
        // No body at all means both refs are missing: the spec's 400 BAD_REQUEST, not a schema error.
        body: optionalBody(CreateVtoJobRequest),
        response: { 202: VtoJob, ...errors, 429: ErrorEnvelope, 502: ErrorEnvelope, 504: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const caller = requireCaller(request);
      const householdId = request.params.id;
      const key = idempotencyKeyOf(request.headers);
      const jobId = key
        ? keyedId('vto', key, [householdId, caller.userId, 'vto-job'], request.body)
        : newId('vto');
      const queued = key ? await ctx.jobs.get(householdId, jobId) : null;
      if (queued) return accepted(request, reply, queued);
      const personImageRef = requireRef('personImageRef', request.body.personImageRef, householdId);
      const garmentImageRef = requireRef('garmentImageRef', request.body.garmentImageRef, householdId);
      const memberId = request.body.memberId?.trim() || caller.userId;
      if (!(await ctx.members.isMember(householdId, memberId, request.id)))
        throw badRequest(MEMBERSHIP_REQUIRED);
      const job = newJob({
        jobId,
        householdId,
        memberId,
        requesterId: caller.userId,
        personImageRef,
        garmentImageRef,
        backend: ctx.backend.name,
        now: nowIso(),
      });
      const { maxActiveJobsPerHousehold, maxActiveJobsPerUser } = ctx.config.vto;
      let outcome: Awaited<ReturnType<typeof ctx.jobs.create>>;
      try {
        // The bounds are taken with the create, atomically: a burst cannot pass them.
        outcome = await ctx.jobs.create(job, {
          household: maxActiveJobsPerHousehold,
          user: maxActiveJobsPerUser,
        });
      } catch (err) {
        // The same key's retry, racing this attempt, saved the job first (this one's slots are given back).
        const first = key && err instanceof StoreConflictError && (await ctx.jobs.get(householdId, jobId));
        if (first) return accepted(request, reply, first);
        throw err;
      }
      if (outcome !== 'created') {
        // The same key's retry, racing this attempt, may have taken the last slot with this very job.
        const first = key && (await ctx.jobs.get(householdId, jobId));
        if (first) return accepted(request, reply, first);
        // Refused: the household (checked first) or the caller holds its bound already.
        throw refusal(
          outcome,
          { household: maxActiveJobsPerHousehold, user: maxActiveJobsPerUser },
          'try-ons queued or running',
        )!;
      }
      ctx.worker.wake();
      return accepted(request, reply, job);
    },
  );

  app.get(
    '/api/v1/households/:id/vto/jobs',
    {
      schema: {
        tags,
        security,
        description:
          "The household's try-on jobs, newest first; filter by status, page with limit and cursor.",
        params: HouseholdParams,
        querystring: VtoJobListQuery,
        response: { 200: VtoJobList, ...errors, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      requireCaller(request);
      const page = await ctx.jobs.list(request.params.id, request.query);
      return { items: page.items.map(publicJob), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/api/v1/households/:id/vto/jobs/:jobId',
    {
      schema: {
        tags,
        security,
        description: "One try-on job. 404 NOT_FOUND when it does not exist or is another household's.",
        params: VtoJobParams,
        response: { 200: VtoJob, ...errors },
      },
    },
    async (request) => {
      requireCaller(request);
      const job = await ctx.jobs.get(request.params.id, request.params.jobId);
      if (!job) throw notFound(JOB_NOT_FOUND);
      return publicJob(job);
    },
  );
}
