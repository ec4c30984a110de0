// `pnpm backup <dir>`: a consistent copy of every sqlite database under DATA_DIR (./.data by
// default) into <dir>, taken while the services run. Each database is in WAL mode, so its
// `<service>.sqlite` alone is not the data (recent writes live in `-wal` beside it): copying the
// files of a running store gives an old or torn database. `VACUUM INTO` writes one snapshot of a
// read transaction instead, which writers do not wait for. Restore: stop the stack, put the
// backup's files in DATA_DIR, remove any `-wal`/`-shm` files left there, start it.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const root = join(import.meta.dirname, '..');
const [target, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
if (!target || rest.length > 0) {
  console.error('usage: pnpm backup <directory>  (copies every database under DATA_DIR into it)');
  process.exit(2);
}
const dataDir = resolve(process.env.DATA_DIR || join(root, '.data'));
const databases = existsSync(dataDir) ? readdirSync(dataDir).filter((f) => f.endsWith('.sqlite')) : [];
if (databases.length === 0) {
  console.error(`no databases (*.sqlite) in ${dataDir}: set DATA_DIR to the stack's data directory`);
  process.exit(1);
}
const out = resolve(target);
const clashes = databases.filter((f) => existsSync(join(out, f)));
if (clashes.length > 0) {
  console.error(`${out} already holds ${clashes.join(', ')}: back up into a new directory`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
for (const file of databases) {
  const started = Date.now();
  const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
  try {
    // A service in the middle of a write transaction holds the write lock only: this read waits
    // for nothing, but give a checkpoint under way a moment.
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(join(out, file));
  } catch (err) {
    console.error(`${file}: backup failed: ${(err as Error).message}`);
    process.exit(1);
  } finally {
    db.close();
  }
  const mb = (statSync(join(out, file)).size / 1024 / 1024).toFixed(1);
  console.log(`${file}: ${mb} MB in ${Date.now() - started} ms`);
}
console.log(`backed up ${databases.length} databases from ${dataDir} to ${out}`);
