import { defineConfig } from 'vitest/config';

// Workspace packages are consumed from source through the `@hs/source` export condition.
export default defineConfig({
  resolve: { conditions: ['@hs/source'] },
  ssr: { resolve: { conditions: ['@hs/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['packages/testing/src/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
