// `pnpm build`: the production build. Each service becomes an ES module,
// services/<name>/dist/server.js (with chunks beside it for what loads only when configured),
// holding its own code, the workspace packages it uses and the registry packages every boot loads
// (BUNDLED below; compiled from TypeScript once, here, instead of at every boot). Other registry
// packages stay imports of the exact files the workspace's node_modules hold, relative to dist/:
// build where the bundle runs (in the image, after `pnpm install`), not elsewhere.
// Run the result with `node services/<name>/dist/server.js` (what `npm start` and the image do),
// or all eight in one process with `node dist/one-process.js`.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceName } from '@hs/contracts';
import { build, type Plugin } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = (id: string) => id.startsWith('.') || id.startsWith('/') || id.startsWith('@hs/');

/**
 * Registry packages compiled into the bundle: Fastify, zod and what they load at every boot.
 * Resolving, reading and linking their ~200 files one by one cost each process about 250 ms of
 * CPU, a third of its boot. Left out: pino and its transport machinery (its workers are files
 * found next to its code), the docs page's packages (swagger reads its package.json, swagger-ui
 * serves files from its folder), undici (its files are picked one by one: http-request.ts), and
 * Ajv with fast-json-stringify, which a boot never loads (the zod compilers replace them). zod
 * and its Fastify type provider go in together: one copy of zod checks the schemas. Resolution
 * takes the `import` condition first, also for a `require`: a package listed here is compiled from
 * its ES side, so its CommonJS callers must use only names that side exports (not so for `ws`).
 */
const BUNDLED = new Set([
  'fastify',
  'avvio',
  'find-my-way',
  'light-my-request',
  '@fastify/error',
  '@fastify/forwarded',
  '@fastify/proxy-addr',
  'abstract-logging',
  'cookie',
  'dequal',
  'fast-decode-uri-component',
  'fast-deep-equal',
  'fast-querystring',
  'fast-uri',
  'fastq',
  'ipaddr.js',
  'process-warning',
  'ret',
  'reusify',
  'rfdc',
  'safe-regex2',
  'secure-json-parse',
  'semver',
  'set-cookie-parser',
  'toad-cache',
  'zod',
  'fastify-type-provider-zod',
  '@opentelemetry/api',
]);
const packageName = (source: string) =>
  source
    .split('/')
    .slice(0, source.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * A registry package is imported from the file it resolves to (pnpm keeps it beside its user),
 * unless it is BUNDLED.
 */
const packagesAsFiles: Plugin = {
  name: 'packages-as-files',
  async resolveId(source, importer, options) {
    if (local(source) || source.startsWith('node:') || !importer) return null;
    if (BUNDLED.has(packageName(source))) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.external) return resolved;
    return { id: resolved.id, external: true };
  },
};

/** What to build: each service's process, and the all-in-one process (`npm start -- --one-process`). */
const ENTRIES = [
  ...ServiceName.options.map((service) => ({
    input: join(root, 'services', service, 'src', 'server.ts'),
    dir: join(root, 'services', service, 'dist'),
    file: 'server.js',
  })),
  { input: join(root, 'scripts', 'one-process.ts'), dir: join(root, 'dist'), file: 'one-process.js' },
];

const started = Date.now();
for (const entry of ENTRIES) {
  rmSync(entry.dir, { recursive: true, force: true });
  await build({
    input: entry.input,
    platform: 'node',
    plugins: [packagesAsFiles],
    resolve: { conditionNames: ['@hs/source', 'import', 'node', 'default'] },
    // The entry plus a chunk per part loaded only when configured (the Gemini agent, Cloud
    // Storage), so a default boot does not load them.
    output: {
      dir: entry.dir,
      entryFileNames: entry.file,
      chunkFileNames: '[name]-[hash].js',
      format: 'esm',
      sourcemap: true,
    },
    logLevel: 'warn',
  });
  // Relative to the bundle, so a checkout moved or mounted elsewhere still runs its build.
  const up = `${relative(entry.dir, root)}/`;
  for (const name of readdirSync(entry.dir).filter((f) => f.endsWith('.js'))) {
    const file = join(entry.dir, name);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`"${root}/`, `"${up}`));
  }
}
console.log(
  `built ${ServiceName.options.length} services and the all-in-one process in ${Date.now() - started} ms`,
);
