import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests of one connection being handled at once; HTTP/1.1 answers them in order anyway. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 4;
/** Requests one connection may have waiting behind those; past it the connection is closed. */
export const MAX_QUEUED_PER_CONNECTION = 64;

type Pending = [IncomingMessage, ServerResponse];
type Connection = { inFlight: number; queue: Pending[]; paused: boolean };
/** Node's own pause for a client that doesn't read its answers (it resumes the socket on drain). */
const pausedByNode = (socket: Socket) => (socket as Socket & { _paused?: boolean })._paused === true;

/**
 * Bounds HTTP/1.1 pipelining. Node parses every request a chunk of bytes holds (a 64 KB chunk
 * holds over 1,000 small GETs) and hands each to the app at once, and all of them ran before
 * the event loop looked at any other socket: one connection pipelining /health 1,000 deep, no
 * account needed, raised every family's latency from about 6 ms to 0.6–1.7 s. Here a connection
 * has at most MAX_IN_FLIGHT_PER_CONNECTION requests in the app; the rest wait, the socket stops
 * being read, and each is started when an earlier one is answered, so other connections get
 * their turns in between. A connection that piles up more than MAX_QUEUED_PER_CONNECTION is
 * closed: no client that waits for its answers ever gets there (browsers and undici don't
 * pipeline at all).
 */
export function boundPipelining(server: Server): void {
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  const connections = new WeakMap<Socket, Connection>();

  const dispatch = (socket: Socket, connection: Connection, [request, response]: Pending) => {
    connection.inFlight++;
    response.once('close', () => {
      connection.inFlight--;
      const next = connection.queue.shift();
      if (next) dispatch(socket, connection, next);
      else if (connection.paused) {
        connection.paused = false;
        if (!socket.destroyed && !pausedByNode(socket)) socket.resume();
      }
    });
    for (const handler of handlers) handler.call(server, request, response);
  };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    let connection = connections.get(socket);
    if (!connection) {
      connection = { inFlight: 0, queue: [], paused: false };
      connections.set(socket, connection);
    }
    if (connection.inFlight < MAX_IN_FLIGHT_PER_CONNECTION && connection.queue.length === 0)
      return dispatch(socket, connection, [request, response]);
    if (connection.queue.length >= MAX_QUEUED_PER_CONNECTION) {
      connection.queue.length = 0;
      socket.destroy();
      return;
    }
    connection.queue.push([request, response]);
    connection.paused = true;
    socket.pause();
  });
}
