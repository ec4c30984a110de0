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
 * Fastify's `clientErrorHandler`: a request Node could not parse (431 headers too large, 400
 * malformed) or that took longer than the request timeout (408) gets the error envelope and a
 * request id like every other answer, then the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = refusal(err.code);
  const text = JSON.stringify(body);
  this.log.info({ statusCode: status, code: err.code }, 'client error');
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\n` +
        `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${text}`,
    );
  socket.destroy(err);
}
