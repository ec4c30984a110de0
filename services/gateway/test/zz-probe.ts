import net from 'node:net';
import Fastify from 'fastify';
import { buildGateway, login, bearer } from './gateway-harness.ts';

const peer = Fastify();
const got: string[] = [];
peer.all('/*', async (req) => { got.push(`${req.method} ${req.url} uid=${req.headers['x-user-id']} tok=${req.headers['x-internal-token']}`); return { ok: true }; });
await peer.listen({ port: 0, host: '127.0.0.1' });
const peerUrl = `http://127.0.0.1:${(peer.server.address() as any).port}`;
const gw = await buildGateway({ WARDROBE_BASE_URL: peerUrl, ORCHESTRATOR_BASE_URL: peerUrl });
await gw.listen({ port: 0, host: '127.0.0.1' });
const port = (gw.server.address() as any).port;
const a = await login(gw, 'a@x.test');
const h = (await gw.inject({ method: 'POST', url: '/api/v1/households', headers: bearer(a.token), payload: { name: 'H' } })).json().householdId;
function raw(line: string, headers = ''): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(`${line}\r\nhost: x\r\nconnection: close\r\n${headers}\r\n`));
    let out = ''; s.on('data', (d) => (out += d)); s.on('close', () => resolve(out.split('\r\n')[0] + ' ' + out.split('\r\n\r\n')[1]?.slice(0, 150)));
  });
}
const auth = `authorization: Bearer ${a.token}\r\n`;
for (const p of [
  `GET http://x/api/v1/me HTTP/1.1`,
  `GET //api/v1/me HTTP/1.1`,
  `GET /API/v1/me HTTP/1.1`,
  `GET /api/v1/me/ HTTP/1.1`,
  `GET /api%2Fv1/me HTTP/1.1`,
  `GET /api/v1/households/${h}/wardrobe/../../h_other/wardrobe/items HTTP/1.1`,
  `GET /api/v1/households/${h}/wardrobe/%2e%2e/%2E%2e/h_other/wardrobe/items HTTP/1.1`,
  `GET /api/v1/households/${h}/wardrobe/..%2f..%2fh_other/wardrobe/items HTTP/1.1`,
  `GET /api/v1/households/${h}/wardrobe/..\\..\\h_other/wardrobe/items HTTP/1.1`,
  `GET /api/v1/uploads/../households/h_other/wardrobe/items HTTP/1.1`,
  `GET /api/v1/uploads/%2e%2e/internal/x HTTP/1.1`,
  `GET /api/v1/households/${encodeURIComponent(h)}/wardrobe/items HTTP/1.1`,
  `GET /api/v1/households/%68${h.slice(1)}/wardrobe/items HTTP/1.1`,
  `GET /api/v1/households/${h}/wardrobe/items?../../x HTTP/1.1`,
  `GET /api/v1/households/${h}/./wardrobe/items HTTP/1.1`,
  `GET /api/v1/households/${h}//wardrobe/items HTTP/1.1`,
]) {
  const before = got.length;
  const r = await raw(p, auth);
  console.log(p, '=>', r.replace(/\n/g, ' '), '| peer:', got.slice(before).join(' ; '));
}
await gw.close(); await peer.close();
