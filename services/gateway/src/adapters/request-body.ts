import type { Readable } from 'node:stream';
import { discardRest, payloadTooLarge, refusedBodyDrainLimit } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';

/**
 * JSON bodies one gateway holds at once: past it, bodies go on as they arrive (as before they
 * were held), so a client opening many connections with slow bodies cannot fill its memory.
 */
const MAX_HELD_BYTES = 64 * 1_048_576;
/** What one client address may have held at once: one client alone cannot use up the rest. */
const MAX_HELD_BYTES_PER_CLIENT = 8 * 1_048_576;
let heldBytes = 0;
const heldByClient = new Map<string, number>();

/** Reserves `bytes` for `client` within both budgets; false when either is used up. */
function reserve(client: string, bytes: number): boolean {
  const mine = heldByClient.get(client) ?? 0;
  if (heldBytes + bytes > MAX_HELD_BYTES || mine + bytes > MAX_HELD_BYTES_PER_CLIENT) return false;
  heldBytes += bytes;
  heldByClient.set(client, mine + bytes);
  return true;
}
function unreserve(client: string, bytes: number): void {
  heldBytes -= bytes;
  const left = (heldByClient.get(client) ?? 0) - bytes;
  if (left > 0) heldByClient.set(client, left);
  else heldByClient.delete(client);
}

/** A JSON body over the limit: not sent on; the service answers 413 after its own checks. */
export const OVER_LIMIT = Symbol('over the body limit');

/** A body read whole: `release` once it has been sent on. */
export type HeldBody = { bytes: Buffer; release: () => void };

/** Reads up to `limit` bytes without ending the stream: null when there is more (it is left paused). */
function readUpTo(stream: Readable, limit: number): Promise<Buffer | null> {
  // Already read to its end (nothing left of it to wait for).
  if (stream.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      result();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        stream.pause();
        settle(() => resolve(null));
      }
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
    const onError = (err: Error) => settle(() => reject(err));
    const onClose = () => settle(() => reject(new Error('the client went away mid-body')));
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
    stream.resume();
  });
}

/** A client's whole body, at most `limit` bytes (413 past it, the rest left unread). */
export async function readBody(request: FastifyRequest, limit: number): Promise<Buffer> {
  const bytes = await readUpTo(request.raw, limit);
  if (!bytes) throw payloadTooLarge();
  return bytes;
}

/**
 * What goes on to the service for a JSON body (anything else is streamed as it arrives:
 * undefined). A service may answer before it reads a body (403 or 404 from a check made first,
 * 413 from its length), and a body still being streamed to it raced that answer: the service
 * closed the connection under the upload and its answer was lost (502 for the client, or a reset
 * of the client's next request). So:
 * - within `bodyLimit` (what apps send), declared or chunked, it is read whole first and sent as
 *   one buffer on a kept-alive connection;
 * - over it, the rest is read and dropped here (the client's connection stays usable) and the
 *   service gets no body but BODY_OVER_LIMIT_HEADER: it makes its checks (403, 404), then
 *   answers 413 itself, whatever its own limit;
 * - declared over what a service would drop before refusing (refusedBodyDrainLimit), or sent on
 *   past it, the gateway answers 413 itself, as on its own routes;
 * - while the gateway already holds MAX_HELD_BYTES of bodies, or the client's address
 *   MAX_HELD_BYTES_PER_CLIENT, the body streams as it arrives.
 */
export async function jsonBodyForPeer(
  request: FastifyRequest,
  bodyLimit: number,
): Promise<HeldBody | typeof OVER_LIMIT | undefined> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/(?:[\w.-]+\+)?json\b/i.test(type)) return undefined;
  const length = Number(request.headers['content-length'] ?? Number.NaN);
  const declared = Number.isSafeInteger(length) ? length : null;
  const dropUpTo = refusedBodyDrainLimit(bodyLimit);
  if (declared !== null && declared > dropUpTo) throw payloadTooLarge();
  const reserved = Math.min(declared ?? bodyLimit, bodyLimit);
  const client = request.ip;
  if (!reserve(client, reserved)) return undefined;
  let released = false;
  const release = () => {
    if (!released) unreserve(client, reserved);
    released = true;
  };
  try {
    const bytes = await readUpTo(request.raw, bodyLimit);
    if (bytes) return { bytes, release };
    release();
    if (!(await discardRest(request.raw, dropUpTo))) throw payloadTooLarge();
    return OVER_LIMIT;
  } catch (err) {
    release();
    throw err;
  }
}
