import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firestoreEmulatorHost } from '@hs/testing';
import { afterAll, describe } from 'vitest';
import { createStore } from '../src/index.ts';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract('inmemory', async () => createStore({ backend: 'inmemory' }));

const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
describeStoreContract('sqlite', async () =>
  createStore({ backend: 'sqlite', file: join(dir, `${randomUUID()}.sqlite`) }),
);

const host = firestoreEmulatorHost();
if (!host) console.warn('Firestore emulator not available: docstore contract tests SKIPPED');
describe.skipIf(!host)('docstore (Firestore emulator)', () => {
  // A fresh namespace per test keeps tests and parallel files apart in one emulator.
  describeStoreContract('docstore', async () =>
    createStore({
      backend: 'docstore',
      projectId: 'demo-store-test',
      namespace: `t${randomUUID().slice(0, 8)}_`,
    }),
  );
});
