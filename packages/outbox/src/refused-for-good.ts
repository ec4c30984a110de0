import { isAppError } from '@hs/service-kit';

/**
 * 4xx answers that say something about the call rather than the item: a token that is being
 * rotated (services restarted in either order), a peer that is busy or asks to slow down. The
 * same item goes through once that passes, so an outbox keeps it; dropping it lost a mission's
 * artifacts and audit entries for good after artifacts-audit answered 403 for a minute.
 */
const ABOUT_THE_CALL = new Set([401, 403, 408, 425, 429]);

/**
 * Whether a peer refused an outbox item itself (malformed, gone), so retrying cannot help: the
 * usual `isPermanent` of an outbox whose peer answers in the error envelope.
 */
export const refusedForGood = (err: unknown): boolean =>
  isAppError(err) && err.status >= 400 && err.status < 500 && !ABOUT_THE_CALL.has(err.status);
