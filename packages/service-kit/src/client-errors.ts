import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ErrorEnvelope } from '@hs/contracts';
import type { FastifyInstance } from 'fastify';
import { nodeHttp } from './node-http.ts';

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

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse (431 headers too large, 400
 * malformed) or that took longer than the request timeout (408) gets the error envelope and a
 * request id like every other answer, then the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = refusal(err.code);
  const text = JSON.stringify(body);
  this.log.info({ statusCode: status, code: err.code }, 'client error');
  if (socket.writable && !answerStarted(socket))
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n` +
        `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${text}`,
    );
  socket.destroy(err);
}
