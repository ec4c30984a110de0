// One client address may hold MAX_CONNECTIONS_PER_CLIENT connections open on the gateway; the
// next is closed at once, and a closed one frees its place. Tests reach only loopback, which is
// never limited, so the server here is handed sockets that say where they come from.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { limitConnectionsPerClient } from '../src/adapters/connection-limit.ts';
import { loadGatewayConfig } from '../src/index.ts';

class FakeSocket extends EventEmitter {
  destroyed = false;
  readonly remoteAddress: string;
  constructor(remoteAddress: string) {
    super();
    this.remoteAddress = remoteAddress;
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

function serverWithLimit(max: number) {
  const server = new EventEmitter();
  limitConnectionsPerClient(server as never, max);
  return (address: string) => {
    const socket = new FakeSocket(address);
    server.emit('connection', socket as unknown as Socket);
    return socket;
  };
}

describe('connections per client address', () => {
  it('closes the connection past the limit at once, and a closed one frees its place', () => {
    const connect = serverWithLimit(3);
    const held = [connect('203.0.113.5'), connect('203.0.113.5'), connect('203.0.113.5')];
    expect(held.map((s) => s.destroyed)).toEqual([false, false, false]);
    expect(connect('203.0.113.5').destroyed).toBe(true);
    // Another family is not affected.
    expect(connect('198.51.100.7').destroyed).toBe(false);
    held[0]!.destroy();
    expect(connect('203.0.113.5').destroyed).toBe(false);
  });

  it('counts an IPv6 /64 as one client, and never limits loopback', () => {
    const connect = serverWithLimit(2);
    connect('2001:db8:1:2::1');
    connect('2001:db8:1:2::2');
    expect(connect('2001:db8:1:2::3').destroyed).toBe(true);
    for (let i = 0; i < 10; i++) expect(connect(i % 2 ? '127.0.0.1' : '::1').destroyed).toBe(false);
  });

  it('is 1024 by default, and off behind a proxy (every connection comes from the proxy)', () => {
    expect(loadGatewayConfig({ APP_ENV: 'test' }).maxConnectionsPerClient).toBe(1024);
    expect(loadGatewayConfig({ APP_ENV: 'test', TRUST_PROXY: '1' }).maxConnectionsPerClient).toBe(0);
    // TRUST_PROXY=0 trusts nobody: no proxy in front, so the limit applies.
    expect(loadGatewayConfig({ APP_ENV: 'test', TRUST_PROXY: '0' }).maxConnectionsPerClient).toBe(1024);
    expect(
      loadGatewayConfig({ APP_ENV: 'test', MAX_CONNECTIONS_PER_CLIENT: '0' }).maxConnectionsPerClient,
    ).toBe(0);
  });
});
