import { randomFillSync } from 'node:crypto';

// Ids, span ids and trace ids are drawn on every request. One call into the CSPRNG per id cost
// the gateway about 5% of its CPU under load, so bytes come from a pool filled by the same
// CSPRNG a few kilobytes at a time; each byte is handed out once.
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` fresh random bytes (at most the pool's size), as a new buffer. */
export function randomPoolBytes(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.allocUnsafe(bytes));
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const out = Buffer.from(pool.subarray(used, used + bytes));
  pool.fill(0, used, used + bytes);
  used += bytes;
  return out;
}
