#!/usr/bin/env node
// Entry point for `npm start`, `npm test` and `npm run bench` on a machine that has only Node
// and npm: installs the workspace with the pinned pnpm if needed, then runs the pnpm script
// under the Node 24 that the workspace itself carries (root devDependency `node`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const targets = { start: 'stack', test: 'check', bench: 'bench:run' };
const target = targets[process.argv[2]];
if (!target) {
  console.error(`usage: node scripts/run.mjs ${Object.keys(targets).join('|')}`);
  process.exit(2);
}
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const pnpm = ['npx', '-y', `pnpm@${pnpmVersion}`];

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const installed = existsSync(join(root, 'node_modules', '.modules.yaml'));
if (!installed || process.env.FORCE_INSTALL === '1') {
  const status = run(pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile']);
  if (status !== 0) process.exit(status);
}
// `start` and `bench` run the production build (about a second) so the services boot from compiled JavaScript.
if (process.argv[2] === 'start' || process.argv[2] === 'bench') {
  const status = run(pnpm[0], [...pnpm.slice(1), 'run', 'build']);
  if (status !== 0) process.exit(status);
}
// The stack keeps running until a signal: pass SIGINT/SIGTERM/SIGHUP on so that stopping this
// process (Ctrl-C, `kill`, a supervisor) stops all eight services too.
// npx, pnpm and their shell wrappers don't pass signals down, so the child gets its own process
// group and a signal goes to the whole group: the stack's own handler and every service see it.
const ownGroup = process.platform !== 'win32';
const child = spawn(pnpm[0], [...pnpm.slice(1), 'run', target, ...process.argv.slice(3)], {
  cwd: root,
  stdio: 'inherit',
  shell: process.platform === 'win32',
  detached: ownGroup,
});
const stopStack = (signal) => {
  try {
    if (ownGroup) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // already gone
  }
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopStack(signal));
// A supervisor that stops `npm start` with SIGTERM stops npm, which exits without passing the
// signal on. The workspace's `node` is a shell wrapper that stays as this process's parent, so
// watch the two processes above: when either is gone, stop the stack as if it had been signalled.
const parentOf = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return undefined;
  }
};
const parent = process.ppid;
const grandparent = parentOf(parent);
if (grandparent !== undefined)
  setInterval(() => {
    if (process.ppid !== parent || parentOf(parent) !== grandparent) stopStack('SIGTERM');
  }, 1000).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
