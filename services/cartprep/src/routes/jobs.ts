import {
  CartprepFailureCode,
  CartprepJob,
  CartprepJobParams,
  CreateCartprepJobRequest,
  ErrorEnvelope,
  HouseholdCartprepJobParams,
} from '@hs/contracts';
import { refusal } from '@hs/jobs';
import { conflict, newId, notFound, nowIso, type ServiceApp } from '@hs/service-kit';
import { StoreConflictError } from '@hs/store';
import type { CartprepContext } from '../context.ts';
import { checkJobUrl } from '../domain/domain-allowlist.ts';
import { newJob, publicJob, type StoredJob } from '../domain/job-machine.ts';

const tags = ['cartprep'];
const security = [{ internalToken: [] }];
const JOB_NOT_FOUND = 'Cart-prep job not found';

export const SIMULATION_DOC = `With CARTPREP_EXECUTOR=simulated (the default), in dev and test, the outcome is driven by query parameters of the job url (ignored in staging and production): simulate=<CODE> ends the job FAILED with that errorCode (${CartprepFailureCode.options.join(', ')}); simulateDelayMs=<n> makes it take n ms (max 30000). Otherwise it SUCCEEDS with a one-item cart built from title, size, quantity, unitPrice and currency (or values derived from the url), merchantDomain = the url host and checkoutUrl = https://<host>/checkout?cart=<hash>.`;

export function registerJobRoutes(app: ServiceApp, ctx: CartprepContext): void {
  const { jobs, runner, worker } = ctx;

  app.post(
    '/api/v1/cartprep/jobs',
    {
      schema: {
        tags,
        security,
        summary: 'Queue a cart-preparation job',
        description: `Idempotent on jobId: the same jobId for the same household and request returns the existing job (200); for another request 409 CONFLICT. New jobs are 201 QUEUED and picked up by the worker (CARTPREP_CONCURRENCY at a time); a household with CARTPREP_MAX_ACTIVE_JOBS_PER_HOUSEHOLD jobs queued or running gets 429 RATE_LIMITED (Retry-After) for a new one, so one household cannot fill the shared queue; so does an actorId (the user whose purchase intent it is) with CARTPREP_MAX_ACTIVE_JOBS_PER_USER jobs queued or running across all their households (the household's bound is checked first), so one account guarding many households cannot either; when finished the service calls the gateway's cart-ready or failed. With CARTPREP_ENFORCE_DOMAIN_ALLOWLIST=true a url outside CARTPREP_ALLOWED_DOMAINS (or their subdomains) is 400 POLICY_VIOLATION. ${SIMULATION_DOC}`,
        body: CreateCartprepJobRequest,
        response: {
          200: CartprepJob,
          201: CartprepJob,
          400: ErrorEnvelope,
          403: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const input = request.body;
      checkJobUrl(input.url, ctx.config.cartprep.allowlist, ctx.config.cartprep.allowPrivateHosts);
      const jobId = input.jobId ?? newId('cpj');
      const existing = async (): Promise<StoredJob | null> => {
        const found = await jobs.get(jobId);
        if (found && (found.householdId !== input.householdId || found.requestId !== input.requestId))
          throw conflict(`Job id ${jobId} already belongs to another request`);
        return found;
      };
      const found = await existing();
      if (found) return reply.code(200).send(publicJob(found));
      const job = newJob(jobId, input, nowIso());
      const { maxActiveJobsPerHousehold, maxActiveJobsPerUser } = ctx.config.cartprep;
      let outcome: Awaited<ReturnType<typeof jobs.create>>;
      try {
        // The bounds are taken with the create, atomically: a burst cannot pass them.
        outcome = await jobs.create(job, {
          household: maxActiveJobsPerHousehold,
          user: maxActiveJobsPerUser,
        });
      } catch (err) {
        if (!(err instanceof StoreConflictError)) throw err;
        // The same jobId, racing this attempt, was saved first (this one's slots are given back).
        const raced = await existing();
        if (raced) return reply.code(200).send(publicJob(raced));
        throw err;
      }
      if (outcome !== 'created') {
        // The same jobId, racing this attempt, may have taken the last slot with this very job.
        const raced = await existing();
        if (raced) return reply.code(200).send(publicJob(raced));
        // Refused: the household (checked first) or the actor holds its bound already.
        throw refusal(
          outcome,
          { household: maxActiveJobsPerHousehold, user: maxActiveJobsPerUser },
          'carts being prepared',
        )!;
      }
      worker.wake();
      return reply.code(201).send(publicJob(job));
    },
  );

  app.get(
    '/api/v1/cartprep/jobs/:jobId',
    {
      schema: {
        tags,
        security,
        summary: 'Read a job',
        // The household route is the one clients know as getCartPrepJob.
        operationId: 'getCartPrepJobInternal',
        params: CartprepJobParams,
        response: { 200: CartprepJob, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const job = await jobs.get(request.params.jobId);
      if (!job) throw notFound(JOB_NOT_FOUND);
      return publicJob(job);
    },
  );

  app.post(
    '/api/v1/cartprep/jobs/:jobId/process',
    {
      schema: {
        tags,
        security,
        summary: 'Run a queued job now',
        description:
          'Claims the job and runs it in this request instead of waiting for the worker; answers with the finished job. A finished job is returned unchanged; one that is running already is 409 CONFLICT.',
        params: CartprepJobParams,
        response: { 200: CartprepJob, 403: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope },
      },
    },
    async (request) => {
      const job = await jobs.get(request.params.jobId);
      if (!job) throw notFound(JOB_NOT_FOUND);
      if (job.status === 'SUCCEEDED' || job.status === 'FAILED') return publicJob(job);
      const running = await runner.claim(job.jobId);
      if (!running) throw conflict('Cart-prep job is already running');
      return publicJob(await runner.execute(running));
    },
  );

  app.get(
    '/api/v1/households/:id/cartprep/jobs/:jobId',
    {
      schema: {
        tags,
        security,
        summary: 'Read a job of a household (forwarded by the gateway)',
        description: 'A job of another household is 404.',
        params: HouseholdCartprepJobParams,
        response: { 200: CartprepJob, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const job = await jobs.get(request.params.jobId);
      if (!job || job.householdId !== request.params.id) throw notFound(JOB_NOT_FOUND);
      return publicJob(job);
    },
  );
}
