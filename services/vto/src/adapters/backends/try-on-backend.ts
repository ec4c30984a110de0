import type { VtoBackendName } from '@hs/contracts';
import type { Image } from '../../domain/image-format.ts';

/** Makes the try-on picture of `person` wearing `garment`; throws TryOnFailure for expected failures. */
export interface TryOnBackend {
  readonly name: VtoBackendName;
  /** False when the backend renders nothing, so the inputs need not be fetched. */
  readonly needsInputs: boolean;
  /** PNG bytes of the result. */
  render(person: Image, garment: Image, signal: AbortSignal): Promise<Uint8Array>;
}
