// `pnpm build`: the production build. Each service becomes an ES module,
// services/<name>/dist/server.js (with chunks beside it for what loads only when configured),
// holding its own code and the workspace packages it uses
// (compiled from TypeScript once, here, instead of at every boot). Packages from the registry
// stay imports of the exact files the workspace's node_modules hold, written relative to dist/:
// build where the bundle runs (in the image, after `pnpm install`), not elsewhere.
// Run the result with `node services/<name>/dist/server.js` (what `npm start` and the image do).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceName } from '@hs/contracts';
import { build, type Plugin } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = (id: string) => id.startsWith('.') || id.startsWith('/') || id.startsWith('@hs/');

/** A registry package is imported from the file it resolves to (pnpm keeps it beside its user). */
const packagesAsFiles: Plugin = {
  name: 'packages-as-files',
  async resolveId(source, importer, options) {
    if (local(source) || source.startsWith('node:') || !importer) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.external) return resolved;
    return { id: resolved.id, external: true };
  },
};

const started = Date.now();
for (const service of ServiceName.options) {
  const dir = join(root, 'services', service, 'dist');
  rmSync(dir, { recursive: true, force: true });
  await build({
    input: join(root, 'services', service, 'src', 'server.ts'),
    platform: 'node',
    plugins: [packagesAsFiles],
    resolve: { conditionNames: ['@hs/source', 'import', 'node', 'default'] },
    // server.js plus a chunk per part loaded only when configured (the Gemini agent, Cloud
    // Storage), so a default boot does not load them.
    output: {
      dir,
      entryFileNames: 'server.js',
      chunkFileNames: '[name]-[hash].js',
      format: 'esm',
      sourcemap: true,
    },
    logLevel: 'warn',
  });
  // Relative to the bundle, so a checkout moved or mounted elsewhere still runs its build.
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const file = join(dir, name);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`"${root}/`, '"../../../'));
  }
}
console.log(`built ${ServiceName.options.length} services in ${Date.now() - started} ms`);
