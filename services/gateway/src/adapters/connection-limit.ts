// Connections one client address may hold open on the gateway. Idle keep-alive connections live
// 72 s and cost a file descriptor each: one client opening tens of thousands of them (24,000
// reached 17,201 open files and 358 MB) left none for other families, or for the gateway's own
// calls to the services behind it. Counted per client address as the socket shows it (an IPv6 /64
// is one client), so it applies only without a proxy in front (TRUST_PROXY unset: behind one,
// every connection comes from the proxy); loopback, the operator's own machine, is never limited.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddressKey } from '../domain/client-address.ts';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** Closes each connection past `max` from one client address at once (0: no limit). */
export function limitConnectionsPerClient(server: Pick<Server, 'on'>, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (LOOPBACK.test(address)) return;
    const key = clientAddressKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
