// Storage that fails under a real service process: a full database (SQLite's max_page_count,
// through SQLITE_MAX_SIZE_MB) and a damaged file.
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { startStack } from '@hs/testing';
import { describe, expect, it } from 'vitest';

const headers = {
  'x-internal-token': 'dev-internal-token-commerce',
  'x-user-id': 'usr_1',
  'x-member-role': 'PARENT_GUARDIAN',
  'content-type': 'application/json',
};
const offer = (i: number) => ({
  title: `Linen summer shirt ${i} ${'x'.repeat(150)}`,
  brand: 'Acme',
  url: `https://shop.acme.com/p/${i}`,
  price: 40,
  currency: 'EUR',
  category: 'TOP',
  colors: ['white'],
  season: ['SUMMER'],
  sizes: ['M', 'L'],
});

describe('a full database', () => {
  it('answers 503 with the real cause (SQLITE_FULL), turns /ready 503, and keeps serving reads', async () => {
    const stack = await startStack({
      services: ['commerce'],
      durable: true,
      perService: { commerce: { SQLITE_MAX_SIZE_MB: '0.5', LOG_LEVEL: 'error' } },
    });
    const url = `${stack.url('commerce')}/api/v1/households/h_1/offers`;
    try {
      expect((await fetch(`${stack.url('commerce')}/ready`)).status).toBe(200);
      let full: Response | undefined;
      for (let i = 0; i < 2000 && !full; i++) {
        const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(offer(i)) });
        if (res.status !== 201) full = res;
      }
      expect(full?.status).toBe(503);
      // Full does not pass by itself within seconds: no Retry-After inviting a loop of retries.
      expect(full!.headers.get('retry-after')).toBeNull();
      expect(await full!.json()).toEqual({
        error: 'SERVICE_UNAVAILABLE',
        message: 'Storage is full: the change was not saved (SQLITE_FULL); try again later',
      });
      const ready = await fetch(`${stack.url('commerce')}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'not_ready',
        service: 'commerce',
        checks: { store: false },
      });
      // The log keeps SQLite's own error, not a failed ROLLBACK in its place.
      expect(stack.logs('commerce')).toContain('database or disk is full');
      expect(stack.logs('commerce')).not.toContain('cannot rollback');
      const list = await fetch(`${url}?limit=1`, { headers });
      expect(list.status).toBe(200);
    } finally {
      await stack.close();
    }
  }, 120_000);
});

describe('a damaged database file', () => {
  it('stops the boot with one line naming the file', async () => {
    const stack = await startStack({ services: ['commerce'], durable: true });
    try {
      for (let i = 0; i < 50; i++) {
        const res = await fetch(`${stack.url('commerce')}/api/v1/households/h_1/offers`, {
          method: 'POST',
          headers,
          body: JSON.stringify(offer(i)),
        });
        expect(res.status).toBe(201);
      }
      expect(await stack.stop('commerce')).toBe(0);
      const file = join(stack.dataDir!, 'commerce.sqlite');
      // Garbage over every page but the first (the schema page stays readable).
      const fd = openSync(file, 'r+');
      const size = statSync(file).size;
      for (let at = 4096 + 100; at < size; at += 4096) writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, at);
      closeSync(fd);
      const boot = await stack.start('commerce').then(
        () => 'started',
        (err: Error) => err.message,
      );
      const lines = boot.split('\n').filter((l) => l.trim() !== '');
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^commerce: the database file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} failed PRAGMA quick_check: `,
        ),
      );
      expect(lines.filter((l) => l.startsWith('commerce:'))).toHaveLength(1);
    } finally {
      await stack.close();
    }
  }, 60_000);
});
