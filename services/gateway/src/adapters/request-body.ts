import { PassThrough, type Readable } from 'node:stream';
import { AppError, discardRest, payloadTooLarge, refusedBodyDrainLimit } from '@hs/service-kit';
import type { FastifyRequest } from 'fastify';
import { clientAddressKey } from '../domain/client-address.ts';

/**
 * Body bytes one gateway holds at once: past it, bodies go on as they arrive (as before they
 * were held), so a client opening many connections with slow bodies cannot fill its memory.
 */
const MAX_HELD_BYTES = 64 * 1_048_576;
/** What one client (an address, an IPv6 /64) may have held at once: one alone cannot use up the rest. */
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

/** A body over the limit: not sent on; the service answers 413 after its own checks. */
export const OVER_LIMIT = Symbol('over the body limit');

/** A body read whole: `release` once it has been sent on. */
export type HeldBody = { bytes: Buffer; release: () => void };

type HeldRead =
  | { kind: 'whole'; bytes: Buffer }
  | { kind: 'over' }
  /** `take` refused a chunk: what was read so far (`chunks`, that one included); the rest is unread. */
  | { kind: 'budget'; chunks: Buffer[] };

/**
 * Reads a body chunk by chunk without ending the stream, asking `take` for room for each chunk
 * as it arrives (what a client has not sent yet holds nothing). Stops, leaving the stream paused,
 * past `limit` bytes or at the first chunk `take` refuses.
 */
function readHeld(stream: Readable, limit: number, take: (bytes: number) => boolean): Promise<HeldRead> {
  // Already read to its end (nothing left of it to wait for).
  if (stream.readableEnded) return Promise.resolve({ kind: 'whole', bytes: Buffer.alloc(0) });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: () => void) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      result();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        settle(() => resolve({ kind: 'over' }));
      } else if (!take(chunk.length)) {
        stream.pause();
        chunks.push(chunk);
        settle(() => resolve({ kind: 'budget', chunks }));
      } else chunks.push(chunk);
    };
    const onEnd = () => settle(() => resolve({ kind: 'whole', bytes: Buffer.concat(chunks) }));
    const onError = (err: Error) => settle(() => reject(err));
    const onClose = () => settle(() => reject(new Error('the client went away mid-body')));
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
    stream.resume();
  });
}

/**
 * What goes on to the service for a member's body, of any type. A service may answer before it
 * reads a body (403 or 404 from a check made first, 413 from its length), and a body still being
 * streamed to it raced that answer: the service closed the connection under the upload and its
 * answer was lost (502 for the client, or a reset of the client's next request). So:
 * - within `bodyLimit` (what apps send), declared or chunked, it is read whole first and sent as
 *   one buffer on a kept-alive connection;
 * - over it, the rest is read and dropped here (the client's connection stays usable) and the
 *   service gets no body but BODY_OVER_LIMIT_HEADER: it makes its checks (403, 404), then
 *   answers 413 itself, whatever its own limit;
 * - declared over what a service would drop before refusing (refusedBodyDrainLimit), or sent on
 *   past it, the gateway answers 413 itself, as on its own routes;
 * - the bytes held count against MAX_HELD_BYTES for the gateway and MAX_HELD_BYTES_PER_CLIENT for
 *   the client's address as they arrive (a declared length holds nothing until it is sent: 64
 *   connections declaring 1 MiB and sending a byte took the whole budget); once either is used
 *   up, the body streams on as it arrives (a Readable: what was read, then the rest), or with
 *   `whenFull: 'refuse'` (a keyed request, which must be compared whole) 503 with Retry-After.
 * Members' routes take JSON only (the services answer 415 to anything else), so holding every
 * type costs nothing; uploads go to the signed upload route, which streams.
 */
export async function bodyForPeer(
  request: FastifyRequest,
  bodyLimit: number,
  whenFull: 'stream' | 'refuse' = 'stream',
): Promise<HeldBody | typeof OVER_LIMIT | PassThrough> {
  const length = Number(request.headers['content-length'] ?? Number.NaN);
  const declared = Number.isSafeInteger(length) ? length : null;
  const dropUpTo = refusedBodyDrainLimit(bodyLimit);
  if (declared !== null && declared > dropUpTo) throw payloadTooLarge();
  const client = clientAddressKey(request.ip);
  let reserved = 0;
  const release = () => {
    if (reserved > 0) unreserve(client, reserved);
    reserved = 0;
  };
  try {
    const read = await readHeld(request.raw, bodyLimit, (bytes) => {
      if (!reserve(client, bytes)) return false;
      reserved += bytes;
      return true;
    });
    if (read.kind === 'whole') return { bytes: read.bytes, release };
    release();
    if (read.kind === 'budget') {
      if (whenFull === 'stream') return streamFrom(read.chunks, request.raw);
      // The rest of the body is unread: the connection cannot carry another request.
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        503,
        'The gateway is holding as many request bodies as it may; try again in a moment',
        { headers: { 'retry-after': '1', connection: 'close' } },
      );
    }
    if (!(await discardRest(request.raw, dropUpTo))) throw payloadTooLarge();
    return OVER_LIMIT;
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * The body as a stream: the chunks already read, then the rest as the client sends it. Piped,
 * not iterated: the service giving up on it must not destroy the client's request (and socket).
 */
function streamFrom(chunks: Buffer[], rest: Readable): PassThrough {
  const out = new PassThrough();
  for (const chunk of chunks) out.write(chunk);
  rest.pipe(out);
  return out;
}
