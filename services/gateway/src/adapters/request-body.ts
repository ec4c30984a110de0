import { Readable } from 'node:stream';
import { AppError, discardRest, refusedBodyDrainLimit } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';

export const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', 413, `Body is larger than ${limit} bytes`);

/** A client's whole body, at most `limit` bytes (413 past it). */
export async function readBody(stream: NodeJS.ReadableStream | undefined, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream ?? []) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const BLANK = Buffer.alloc(64 * 1024, 0x20);
function* blanks(length: number): Generator<Buffer> {
  for (let sent = 0; sent < length; sent += BLANK.length)
    yield BLANK.subarray(0, Math.min(BLANK.length, length - sent));
}

/**
 * What goes up to the peer for a JSON body of a declared length (anything else is streamed as it
 * arrives: undefined). A peer may answer before it reads a body (403 or 404 from a check made
 * first, 413 from the declared length), and a body still being streamed to it then raced its
 * answer: the peer closed the connection under the upload and the answer was lost (502 for the
 * client, or a reset of the client's next request). So:
 * - within `bodyLimit` (what apps send) it is read whole first, and sent as one buffer;
 * - over it, every service refuses it before reading it (413, or the 403/404 before that), so its
 *   bytes do not matter: they are read and dropped here, and the peer gets blanks of the declared
 *   length, which it drops in turn, keeping both connections usable and its answer whole;
 * - over what a service drops before refusing (refusedBodyDrainLimit), the gateway answers 413
 *   itself, as on its own routes.
 */
export async function jsonBodyForPeer(
  request: FastifyRequest,
  bodyLimit: number,
): Promise<Buffer | Readable | undefined> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/(?:[\w.-]+\+)?json\b/i.test(type)) return undefined;
  const length = Number(request.headers['content-length'] ?? Number.NaN);
  if (!Number.isSafeInteger(length)) return undefined;
  if (length <= bodyLimit) return readBody(request.body as NodeJS.ReadableStream, bodyLimit);
  const dropUpTo = refusedBodyDrainLimit(bodyLimit);
  if (length > dropUpTo || !(await discardRest(request.raw, dropUpTo))) throw tooLarge(bodyLimit);
  return Readable.from(blanks(length));
}
