// `npm start` on ports another stack (or program) holds: it must say so and start nothing,
// not report "All eight services are up" because the other stack answered its health checks.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@hs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let holder: Server;
let port: number;
const dataDir = mkdtempSync(join(tmpdir(), 'start-stack-'));

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on a port already in use', () => {
  it('names the port and its service, starts nothing and exits 2', () => {
    // The held port is the third of the stack: wardrobe's.
    const result = spawnSync(
      process.execPath,
      ['--conditions=@hs/source', join(REPO_ROOT, 'scripts', 'start-stack.ts')],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', PORT_BASE: String(port - 2), DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(2);
    // (Another port of the range may be taken by chance too: it would be named as well.)
    expect(result.stderr.trim()).toMatch(
      /^cannot start: port .*already in use \(another stack or program\); stop it, or move this stack with PORT_BASE=<port>$/,
    );
    expect(result.stderr).toContain(`${port} (wardrobe)`);
    expect(result.stdout).not.toContain('All eight services are up');
  });
});
