import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createStore } from '../src/index.ts';
import { describeStoreContract } from './store-contract.ts';

// The docstore run of the same contract is in store-docstore.test.ts: a separate file runs in
// parallel with this one, and the emulator's transaction contention alone takes seconds.
describeStoreContract('inmemory', async () => createStore({ backend: 'inmemory' }));

const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
describeStoreContract('sqlite', async () =>
  createStore({ backend: 'sqlite', file: join(dir, `${randomUUID()}.sqlite`) }),
);
