// The stores a race test runs on: a race that cannot happen in one backend's timing may in
// another's, so tests of atomic caps and of deletes racing writes run on all three.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CollectionOptions, createStore, type Doc, type Store } from '@hs/store';
import { afterAll } from 'vitest';
import { firestoreEmulatorHost } from './firestore-emulator.ts';

/** A fresh store and how to remove what it left on disk. */
export type OpenedStore = { store: Store; cleanup: () => void };

/** One backend: its name, how to open a fresh store, and whether it is skipped here (no emulator). */
export type StoreBackend = [name: string, open: () => OpenedStore, skip: boolean];

/**
 * In memory, a SQLite file in a temporary folder, and the Firestore emulator (skipped, with one
 * line saying so, when none is running). `label` names the test file in that line and the data.
 */
export function storeBackends(label: string): StoreBackend[] {
  const emulator = firestoreEmulatorHost();
  if (!emulator) console.warn(`${label}: Firestore emulator not available, the docstore case is SKIPPED`);
  return [
    ['inmemory', () => ({ store: createStore({ backend: 'inmemory' }), cleanup: () => {} }), false],
    [
      'sqlite',
      () => {
        const dir = mkdtempSync(join(tmpdir(), `${label}-`));
        return {
          store: createStore({ backend: 'sqlite', file: join(dir, 'store.sqlite') }),
          cleanup: () => rmSync(dir, { recursive: true, force: true }),
        };
      },
      false,
    ],
    [
      'docstore (Firestore emulator)',
      () => ({
        store: createStore({
          backend: 'docstore',
          projectId: 'demo-test',
          namespace: `${label.replace(/[^a-z0-9]/gi, '')}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        }),
        cleanup: () => {},
      }),
      !emulator,
    ],
  ];
}

/**
 * The store with a moment of latency before each call, as a networked store has: without it the
 * in-memory and SQLite stores answer a count and the create after it with no other request in
 * between, and a burst could not race there at all.
 */
export function withLatency(store: Store, ms = 1): Store {
  const later = () => new Promise((resolve) => setTimeout(resolve, ms));
  const collection = <T extends Doc>(name: string, options?: CollectionOptions) => {
    const inner = store.collection<T>(name, options);
    return new Proxy(inner, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== 'function' || prop === 'watch') return value;
        return async (...args: unknown[]) => {
          await later();
          return value.apply(target, args);
        };
      },
    });
  };
  return { backend: store.backend, collection, ping: () => store.ping(), close: () => store.close() };
}

/**
 * The backends a burst test can run here, each `open` a fresh store: in memory and SQLite with
 * latency (withLatency), the emulator as it is (skipped when none runs). SQLite files are removed
 * after the test file.
 */
export function burstBackends(label: string): Array<[name: string, open: () => Store]> {
  const cleanups: Array<() => void> = [];
  afterAll(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return storeBackends(label)
    .filter(([, , skip]) => !skip)
    .map(([name, open]) => [
      name,
      () => {
        const { store, cleanup } = open();
        cleanups.push(cleanup);
        return store.backend === 'docstore' ? store : withLatency(store);
      },
    ]);
}
