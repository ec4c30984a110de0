import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, withRepoBuild } from '@hs/testing';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A smoke test of `pnpm bench -- --quick`: every target gets a figure, a same-run reference and
// a verdict. No figure is judged here: timings on a shared CI machine prove nothing.
describe('pnpm bench --quick', () => {
  it('produces every figure and writes them to the JSON file', { timeout: 300_000 }, async () => {
    const node = (args: string[]) =>
      execFileSync(process.execPath, ['--conditions=@hs/source', ...args], { cwd: REPO_ROOT, stdio: 'pipe' });
    const out = join(dir, 'bench.json');
    // The bench runs the services' builds: nothing may rebuild them meanwhile.
    const printed = await withRepoBuild(() => {
      node(['scripts/build.ts']);
      return node(['scripts/bench.ts', '--quick', '--out', out]).toString();
    });
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.quick).toBe(true);
    expect(report.targets.map((t: { name: string }) => t.name)).toEqual([
      'gateway throughput vs direct',
      'gateway p99 vs direct',
      'stream first-event delay p99 (ms)',
      'memory added by streams (MB)',
      'chat turn with streams vs without',
      'search p50 largest/1k (sqlite)',
      'search p99 largest/1k (sqlite)',
      'search p50 largest/1k (inmemory)',
      'search p99 largest/1k (inmemory)',
      'audit appends/s (sqlite, chain)',
      'all eight healthy (ms, built)',
      'single service idle RSS (MB, max)',
      'all-in-one healthy (ms)',
      'all-in-one idle RSS (MB)',
      'chat turn p99 vs forwarded read p99',
      'stylist reading, slowest hostile 8 KB message (ms)',
    ]);
    for (const target of report.targets) {
      expect(Number.isFinite(target.figure.median), target.name).toBe(true);
      expect(Number.isFinite(target.reference.median), target.name).toBe(true);
      expect(['PASS', 'MISS']).toContain(target.verdict);
      expect(printed).toContain(target.name);
    }
    // The gateway rows' floors: a bare Fastify proxy and a proxy with no framework, same run.
    for (const key of ['bareProxyRatio', 'rawProxyRatio', 'bareProxyP99Ratio', 'rawProxyP99Ratio'])
      expect(Number.isFinite(report.rounds[0][key]), key).toBe(true);
    expect(printed).toMatch(/raw node:http \d/);
  });
});
