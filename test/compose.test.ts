import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '@hs/testing';
import { describe, expect, it } from 'vitest';

const hasCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
if (!hasCompose)
  console.warn('docker-compose not installed: docker-compose.yml validation SKIPPED (.ci/run installs it)');

describe.skipIf(!hasCompose)('docker-compose.yml', () => {
  it('is accepted by docker-compose config and describes the eight services and the optional emulator', () => {
    const result = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '--services'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n').sort()).toEqual([
      'artifacts-audit',
      'browser-bridge',
      'cartprep',
      'commerce',
      'firestore',
      'gateway',
      'orchestrator',
      'vto',
      'wardrobe',
    ]);
  });
});
