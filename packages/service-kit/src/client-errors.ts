import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ErrorEnvelope } from '@hs/contracts';
import type { FastifyInstance } from 'fastify';
import { nodeHttp } from './node-http.ts';
import { CLIENT_CLOSED_STATUS, isRequestId, requestInProgress } from './request-line.ts';

const { STATUS_CODES } = nodeHttp;

/** Node's own refusals, raised before a request object exists, answered with the envelope too. */
function refusal(code: string | undefined): { status: number; body: ErrorEnvelope } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      body: {
        error: 'REQUEST_TIMEOUT',
        message: 'The request did not arrive within REQUEST_TIMEOUT_SECONDS',
      },
    };
  if (code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, body: { error: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' } };
  return { status: 400, body: { error: 'BAD_REQUEST', message: 'Malformed HTTP request' } };
}

/**
 * Whether the request in progress on this socket already has (part of) its answer on the wire. A
 * slow upload can be answered before it has all arrived (a 504 from the gateway, a refusal), and
 * the request timeout still fires for it later: a second status line then would be read by the
 * client as the answer to its next request. Node's own handler holds back for the same reason.
 */
const answerStarted = (socket: Socket): boolean =>
  answeredEarly.has(socket) ||
  (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;

/** Sockets whose current request was answered before its body had all arrived. */
const answeredEarly = new WeakSet<Socket>();

/** Notes answers sent while their request's body was still arriving (see answerStarted). */
export function noteEarlyAnswers(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    answeredEarly.delete(request.raw.socket);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.raw.complete && request.raw.socket) answeredEarly.add(request.raw.socket);
    done();
  });
}

const SENT_ID = /\r\nx-request-id:[ \t]*([^\r\n]*?)[ \t]*\r\n/gi;
/**
 * The client's own X-Request-Id among the bytes of a request Node could not parse (headers too
 * large): when it arrived whole, once, and is valid, the refusal carries it like any answer.
 */
function sentRequestId(err: NodeJS.ErrnoException & { rawPacket?: unknown }): string | undefined {
  if (!Buffer.isBuffer(err.rawPacket)) return undefined;
  const found = [...err.rawPacket.toString('latin1').matchAll(SENT_ID)].map((m) => m[1] ?? '');
  return found.length === 1 && isRequestId(found[0]!) ? found[0] : undefined;
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse (431 headers too large, 400
 * malformed) or that took longer than the request timeout (408) gets the error envelope and a
 * request id like every other answer, then the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // Answered already (a refusal before its body had all arrived): that answer was its request
  // line; the timeout that fires later for the unread body is no second answer and no line.
  if (answerStarted(socket)) {
    socket.destroy(err);
    return;
  }
  const { status, body } = refusal(err.code);
  const text = JSON.stringify(body);
  // A request whose headers were parsed (a body too slow) is Fastify's already: it keeps its id
  // (the client's, when valid) and this answer is its one request line. Before that (headers too
  // large or too slow) there is no request yet: a new id, on the line and in the answer.
  // Only a timeout or an end in the middle of a body is the running request's own; a pipelined
  // next request's headers too large would otherwise end the running one as 431.
  const current =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_INVALID_EOF_STATE'
      ? requestInProgress(socket as Parameters<typeof requestInProgress>[0])
      : null;
  const id = current?.id ?? sentRequestId(err) ?? randomUUID();
  // The connection ended in the middle of the body: the client left, nobody reads an answer.
  if (current && err.code === 'HPE_INVALID_EOF_STATE')
    current.end(CLIENT_CLOSED_STATUS, { code: err.code, clientClosed: true });
  else if (current) current.end(status, { code: err.code });
  else this.log.info({ reqId: id, statusCode: status, code: err.code }, 'client error');
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n` +
        `x-request-id: ${id}\r\nconnection: close\r\n\r\n${text}`,
    );
  socket.destroy(err);
}
