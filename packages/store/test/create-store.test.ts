import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, storeConfigFromEnv } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'store-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('storeConfigFromEnv', () => {
  it('defaults to inmemory', () => {
    expect(storeConfigFromEnv({ service: 'wardrobe' })).toEqual({ backend: 'inmemory' });
    expect(storeConfigFromEnv({ backend: '', service: 'wardrobe' })).toEqual({ backend: 'inmemory' });
  });

  it('puts the sqlite file at DATA_DIR/<service>.sqlite and creates the directory', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const config = storeConfigFromEnv({ backend: 'sqlite', dataDir, service: 'commerce' });
    expect(config).toEqual({ backend: 'sqlite', file: join(dataDir, 'commerce.sqlite') });
    expect(existsSync(dataDir)).toBe(true);
    const store = createStore(config);
    expect(store.backend).toBe('sqlite');
    expect(await store.ping()).toBe(true);
    await store.close();
    expect(existsSync(join(dataDir, 'commerce.sqlite'))).toBe(true);
  });

  it('maps docstore settings and requires a project id', () => {
    expect(
      storeConfigFromEnv({
        backend: 'docstore',
        service: 'vto',
        firestoreProjectId: 'demo-p',
        firestoreDatabaseId: 'db1',
        firestoreNamespace: 'vto_',
      }),
    ).toEqual({ backend: 'docstore', projectId: 'demo-p', databaseId: 'db1', namespace: 'vto_' });
    expect(() => storeConfigFromEnv({ backend: 'docstore', service: 'vto' })).toThrow(/project id/);
  });

  it('rejects unknown backends and unsafe service names', () => {
    expect(() => storeConfigFromEnv({ backend: 'postgres', service: 'x' })).toThrow(
      /inmemory, sqlite, docstore/,
    );
    expect(() => storeConfigFromEnv({ backend: 'sqlite', dataDir: dir, service: '../x' })).toThrow(
      /service name/,
    );
  });

  it('creates a docstore store without connecting until first use', async () => {
    const store = createStore({ backend: 'docstore', projectId: 'demo-lazy', namespace: 'lazy_' });
    expect(store.backend).toBe('docstore');
    store.collection('items');
    await store.close();
  });
});
