import { z } from 'zod';
import { queryInteger, Timestamp } from './common.ts';

export const VtoJobStatus = z.enum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']);
export type VtoJobStatus = z.infer<typeof VtoJobStatus>;

export const VtoBackendName = z.enum(['simulated', 'inline', 'http']);
export type VtoBackendName = z.infer<typeof VtoBackendName>;

/**
 * Why a try-on job FAILED (a job field, not an HTTP error). Codes: SIMULATED_RESULT (no
 * inference backend configured), INPUT_MISSING, INPUT_UNSUPPORTED, INPUT_TOO_LARGE,
 * INPUT_FORBIDDEN (address refused), INPUT_UNREACHABLE, INPUT_TIMEOUT, UPSTREAM_ERROR,
 * UPSTREAM_TIMEOUT, RESULT_FILTERED, TIMEOUT, INTERNAL_ERROR.
 */
export const VtoJobError = z.object({ code: z.string(), message: z.string() });
export type VtoJobError = z.infer<typeof VtoJobError>;

const ImageRef = z
  .string()
  .max(2048)
  .describe(
    'gs://bucket/households/{id}/..., local://households/{id}/... (this service storage) or an https URL',
  );

/**
 * Missing or empty refs are answered 400 BAD_REQUEST by the route (spec part 7), so they are
 * optional here. memberId defaults to the caller.
 */
export const CreateVtoJobRequest = z.object({
  personImageRef: ImageRef.optional(),
  garmentImageRef: ImageRef.optional(),
  memberId: z.string().max(128).optional(),
});
export type CreateVtoJobRequest = z.infer<typeof CreateVtoJobRequest>;

export const VtoJob = z.object({
  jobId: z.string(),
  householdId: z.string(),
  memberId: z.string(),
  personImageRef: z.string(),
  garmentImageRef: z.string(),
  status: VtoJobStatus,
  resultImageRef: z.string().nullable(),
  error: VtoJobError.nullable(),
  backend: VtoBackendName,
  attempts: z.number().int().nonnegative(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type VtoJob = z.infer<typeof VtoJob>;

export const VtoJobParams = z.object({ id: z.string().min(1).max(128), jobId: z.string().min(1).max(128) });

export const VtoJobListQuery = z.object({
  status: VtoJobStatus.optional(),
  limit: queryInteger(1, 100).withDefault(20),
  cursor: z.string().max(512).optional(),
});
export type VtoJobListQuery = z.infer<typeof VtoJobListQuery>;

/** Newest first; pass nextCursor back as cursor for the next page. */
export const VtoJobList = z.object({ items: z.array(VtoJob), nextCursor: z.string().nullable() });
export type VtoJobList = z.infer<typeof VtoJobList>;
