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
 * Reads and throws away what the client is still sending of a refused upload, and resolves once
 * the request is complete (true) or `maxBytes` more have arrived (false: the caller closes the
 * connection instead). The refusal is sent only after this: a reply that completes while the
 * client is still sending makes the gateway's HTTP client (undici) drop its connection and the
 * rest of the relayed upload, which turns our 413 into a broken connection or a 502 for the
 * client. A client that goes away ends the wait too.
 */
export function discardRest(request: IncomingMessage, maxBytes: number): Promise<boolean> {
  if (request.complete || request.readableEnded || request.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    let discarded = 0;
    const done = (drained: boolean) => {
      request.off('data', onData).off('end', onEnd).off('close', onClose);
      if (!drained) request.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(request.complete);
    request.on('data', onData).once('end', onEnd).once('close', onClose);
    request.on('error', () => undefined);
    request.resume();
  });
}
