import { randomUUID } from 'node:crypto';
import { firestoreEmulatorHost } from '@hs/testing';
import { describe } from 'vitest';
import { createStore } from '../src/index.ts';
import { describeStoreContract } from './store-contract.ts';

const host = firestoreEmulatorHost();
if (!host) console.warn('Firestore emulator not available: docstore contract tests SKIPPED');

describe.skipIf(!host)('docstore (Firestore emulator)', () => {
  // A fresh namespace per test keeps tests, and test files running in parallel, apart in one
  // emulator; the demo- project id guarantees the client can never reach a real project.
  describeStoreContract('docstore', async () =>
    createStore({
      backend: 'docstore',
      projectId: 'demo-store-test',
      namespace: `t${randomUUID().slice(0, 8)}_`,
    }),
  );
});
