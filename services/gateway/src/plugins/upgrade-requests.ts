import fastifyWebsocket from '@fastify/websocket';
import { badRequest, type ServiceApp } from '@hs/service-kit';

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
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.ws && request.routeOptions.url !== VOICE_SOCKET_PATH)
      done(badRequest(`Only ${VOICE_SOCKET_PATH} upgrades to a WebSocket`));
    else done();
  });
}
