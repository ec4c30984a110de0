import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable, Transform } from 'node:stream';
import type { ImageContentType } from '@hs/contracts';
import { SNIFF_BYTES, sniffImageType } from '@hs/contracts';

/** The bytes of an upload are not the image type its URL was signed for; nothing is stored. */
export class NotTheSignedImageError extends Error {
  constructor(contentType: string) {
    super(`Upload bytes are not a ${contentType} image`);
    this.name = 'NotTheSignedImageError';
  }
}

/** Passes the bytes through once their first bytes show the declared image type. */
export function requireImageType(contentType: ImageContentType): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  const check = (bytes: Buffer) => sniffImageType(bytes) === contentType;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (head === null) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < SNIFF_BYTES) return done();
      const seen = head;
      head = null;
      if (!check(seen)) return done(new NotTheSignedImageError(contentType));
      done(null, seen);
    },
    flush(done) {
      // A body shorter than SNIFF_BYTES (empty ones are the storage's to refuse).
      if (head && head.length > 0 && !check(head)) return done(new NotTheSignedImageError(contentType));
      done(null, head && head.length > 0 ? head : undefined);
    },
  });
}

/**
 * The request body as a stream storage may destroy (past the byte limit, on a write error)
 * without destroying the request itself: destroying the request resets the connection, and
 * the gateway relaying the upload would then answer 502 instead of our 413. A client that
 * goes away mid-upload still fails the copy. `view` may be a Transform that checks the bytes.
 */
export function fenceBody(body: Readable, view: Transform = new PassThrough()): Readable {
  const aborted = () => {
    if (!(body as Partial<IncomingMessage>).complete) view.destroy(new Error('Upload was aborted'));
  };
  body.once('error', (err) => view.destroy(err));
  body.once('close', aborted);
  // The view's own failure (wrong image bytes, an abort) reaches the storage copy through its
  // pipeline, or through `view.errored` when the copy attaches later or has already stopped
  // reading; without a listener here that late error would be uncaught and crash the process.
  view.on('error', () => undefined);
  view.once('close', () => {
    body.off('close', aborted);
    body.unpipe(view);
  });
  body.pipe(view);
  return view;
}
