import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/**
 * The request body as a stream storage may destroy (past the byte limit, on a write error)
 * without destroying the request itself: destroying the request resets the connection, and
 * the gateway relaying the upload would then answer 502 instead of our 413. A client that
 * goes away mid-upload still fails the copy.
 */
export function fenceBody(body: Readable): Readable {
  const view = new PassThrough();
  const aborted = () => {
    if (!(body as Partial<IncomingMessage>).complete) view.destroy(new Error('Upload was aborted'));
  };
  body.once('error', (err) => view.destroy(err));
  body.once('close', aborted);
  view.once('close', () => {
    body.off('close', aborted);
    body.unpipe(view);
  });
  body.pipe(view);
  return view;
}

/**
 * After a refusal was answered, reads and throws away what the client is still sending, so the
 * connection (through the gateway, the gateway's connection to us) ends cleanly and the client
 * reads our answer. Bounded: past `maxBytes` the connection is closed after all.
 */
export function discardRest(request: IncomingMessage, maxBytes: number): void {
  if (request.complete || request.destroyed) return;
  let discarded = 0;
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxBytes) request.socket?.destroy();
  });
  request.on('error', () => undefined);
  request.resume();
}
