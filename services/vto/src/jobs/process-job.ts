import type { BlobStorage } from '@hs/storage';
import type { TryOnBackend } from '../adapters/backends/index.ts';
import { type ImageLoader, storageRefPrefix } from '../adapters/image-loader.ts';
import type { Image } from '../domain/image-format.ts';
import { parseImageRef } from '../domain/image-ref.ts';
import { TryOnFailure } from '../domain/try-on-failure.ts';
import type { StoredVtoJob } from '../domain/vto-job-machine.ts';

/** Where a job's result picture lives in blob storage. */
export const resultKey = (householdId: string, jobId: string) => `households/${householdId}/vto/${jobId}.png`;

/** A backend that needs no inputs is never shown these. */
const NO_IMAGE: Image = { bytes: new Uint8Array(0), mimeType: 'image/png' };

/**
 * One job's work, in order: load both inputs, render, store the PNG. Returns the result's
 * storage reference; throws TryOnFailure (or the signal's reason) otherwise. Storing the result
 * under a key derived from the job id makes a retried job overwrite, never duplicate, it.
 */
export function createJobProcessor(deps: {
  backend: TryOnBackend;
  loadImage: ImageLoader;
  storage: BlobStorage;
}) {
  const prefix = storageRefPrefix(deps.storage);
  const refOf = (value: string, householdId: string, role: 'person' | 'garment') => {
    const parsed = parseImageRef(value, householdId, prefix);
    if (!parsed.ok)
      throw new TryOnFailure('INPUT_UNSUPPORTED', `The ${role} image reference ${parsed.reason}`);
    return parsed.ref;
  };

  return async (job: StoredVtoJob, signal: AbortSignal): Promise<string> => {
    let person = NO_IMAGE;
    let garment = NO_IMAGE;
    if (deps.backend.needsInputs) {
      [person, garment] = await Promise.all([
        deps.loadImage(refOf(job.personImageRef, job.householdId, 'person'), 'person', signal),
        deps.loadImage(refOf(job.garmentImageRef, job.householdId, 'garment'), 'garment', signal),
      ]);
    }
    const png = await deps.backend.render(person, garment, signal);
    signal.throwIfAborted();
    const key = resultKey(job.householdId, job.jobId);
    await deps.storage.put(key, png, 'image/png');
    return deps.storage.refFor(key);
  };
}

export type JobProcessor = ReturnType<typeof createJobProcessor>;
