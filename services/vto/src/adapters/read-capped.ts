/**
 * Reads a response body into memory, counting bytes as they arrive and stopping as soon as
 * the cap is passed (a missing or lying Content-Length cannot exhaust memory).
 */
export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`Body exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
    this.name = 'BodyTooLargeError';
  }
}

export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: (err?: Error) => unknown },
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      const err = new BodyTooLargeError(maxBytes);
      body.destroy?.(err);
      throw err;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
