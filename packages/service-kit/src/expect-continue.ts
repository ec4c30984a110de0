import type { IncomingMessage, Server, ServerResponse } from 'node:http';

const waiting = new WeakSet<IncomingMessage>();

/** The client asked for "100 Continue" and hasn't been sent it: it holds its body back. */
export const awaitingContinue = (request: IncomingMessage): boolean => waiting.has(request);

/**
 * `Expect: 100-continue` (curl -T, large uploads): Node answers "100 Continue" the moment the
 * headers arrive, before any check ran, so a client would send megabytes only to be told 401,
 * 403 or 413. Here the interim answer goes out when something first reads the body: a request
 * refused before its body (authentication, role, a declared length over the limit) gets its
 * final answer and the client never sends the bytes. Fastify itself does not listen for
 * 'checkContinue' (https://nodejs.org/api/http.html#event-checkcontinue).
 */
export function deferContinue(server: Server): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    const readable = request as IncomingMessage & { _read(size: number): void };
    const read = readable._read;
    waiting.add(request);
    readable._read = function continueThenRead(size: number) {
      readable._read = read;
      waiting.delete(request);
      // Node reads and drops an unread body after a final answer: no interim answer then.
      if (!response.headersSent && !response.writableEnded) response.writeContinue();
      return read.call(this, size);
    };
    server.emit('request', request, response);
  });
  // Any other expectation (`Expect: 200-ok`) is one we cannot meet or check: Node's default is a
  // bare 417 with no body, no request id and no log line. RFC 9110 lets a server ignore it, so
  // the request is served as if it had no Expect header.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response);
  });
}
