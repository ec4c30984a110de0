import fastifyWebsocket from '@fastify/websocket';
import { badRequest, type ServiceApp } from '@hs/service-kit';

/** The largest frame a client may send on a WebSocket; a larger one closes it with 1009. */
const WEBSOCKET_MAX_FRAME_BYTES = 64 * 1024;

/** The one path that upgrades to a WebSocket (routes/voice.ts). */
export const VOICE_SOCKET_PATH = '/api/v1/voice/ws';

/**
 * WebSocket support for the whole app. The plugin's 'upgrade' listener is the server's, so every
 * request with `Upgrade:` reaches it whatever its path; registered in one route's scope, its
 * hook that ends such a request's socket after the answer applied to that scope only: a `GET
 * /health` with `Upgrade: websocket` was answered and its socket then held open for good, past
 * every timeout (50 of them were still open after 6 minutes), and a body sent with one was lost
 * (Node hands it over as the upgrade's head). Now any other path asking to upgrade is 400, and
 * its socket is ended after the answer.
 */
export async function registerUpgradeRequests(app: ServiceApp): Promise<void> {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: WEBSOCKET_MAX_FRAME_BYTES },
    errorHandler: (error, socket, request) => {
      // A client's bad frame (over the size limit, not UTF-8, malformed): ws has already closed
      // the socket with the matching code (1009, 1007, 1002). Anyone with a voice token could
      // send one, so it is no server error to raise an alert for.
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_'))
        request.log.info({ wsError: code, reason: error.message }, 'WebSocket closed for a bad frame');
      else request.log.error({ err: error }, 'WebSocket failed');
      socket.terminate();
    },
  });
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.ws && request.routeOptions.url !== VOICE_SOCKET_PATH)
      done(badRequest(`Only ${VOICE_SOCKET_PATH} upgrades to a WebSocket`));
    else done();
  });
}
