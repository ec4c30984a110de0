// Real-browser figures on the demo shop (loopback): wall time of a cart-prep job in Chromium
// (CARTPREP_EXECUTOR=browser, the first one including the browser start), and the memory a
// browser session adds (PSS of the whole Chromium process tree, from /proc, with 0 and 4 open
// sessions). Run alone: node --conditions=@hs/source scripts/bench-browser.ts
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createAddressGuard, createBrowserPool } from '@hs/browser';
import { DEMO_PATHS, startDemoShop } from '@hs/testing';
import { createBrowserExecutor } from '../services/cartprep/src/adapters/browser-executor/browser-executor.ts';
import { newJob } from '../services/cartprep/src/domain/job-machine.ts';

const JOBS = 6;
const SESSIONS = 4;

export async function runBrowserBench() {
  const shop = await startDemoShop();
  const pool = createBrowserPool({
    guard: createAddressGuard({ allowPrivateHosts: [shop.host] }),
    maxSessions: SESSIONS + 1,
    idleMs: 600_000,
  });
  try {
    const executor = createBrowserExecutor({
      pool,
      allowHost: () => false,
      saveScreenshot: async () => null,
    });
    const times: number[] = [];
    for (let i = 0; i < JOBS; i++) {
      const job = newJob(
        `cpj_bench${i}`,
        {
          householdId: 'h_bench',
          requestId: `pr_${i}`,
          url: `${shop.url}${i % 2 ? DEMO_PATHS.layoutB : DEMO_PATHS.layoutA}`,
          size: 'M',
          quantity: 1,
        },
        new Date().toISOString(),
      );
      const started = performance.now();
      const outcome = await executor.prepare({ ...job, attempts: 1 }, AbortSignal.timeout(60_000));
      times.push(performance.now() - started);
      if (!outcome.ok) throw new Error(`bench job failed: ${outcome.errorCode} ${outcome.message}`);
    }
    // Memory: the browser alone (one blank session keeps it running), then SESSIONS more on a product page.
    await pool.open('bs_bench_base');
    const base = chromiumPssKb();
    for (let i = 0; i < SESSIONS; i++) {
      const { page } = await pool.open(`bs_bench_${i}`);
      await page.goto(`${shop.url}${DEMO_PATHS.layoutA}`);
    }
    const loaded = chromiumPssKb();
    return { times, baseKb: base, perSessionKb: (loaded - base) / SESSIONS };
  } finally {
    await pool.closeAll();
    await shop.close();
  }
}

/** PSS of every Chromium process started by this process (its tagged browser and descendants). */
function chromiumPssKb(): number {
  const parents = new Map<number, number>();
  const roots: number[] = [];
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parents.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`--hs-browser-owner-pid=${process.pid}`))
        roots.push(Number(p));
    } catch {}
  }
  const inTree = (pid: number): boolean =>
    roots.includes(pid) || (parents.has(pid) && pid > 1 && inTree(parents.get(pid)!));
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      total += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return total;
}

export function formatBrowserBench(r: Awaited<ReturnType<typeof runBrowserBench>>): string {
  const warm = r.times.slice(1).sort((a, b) => a - b);
  const ms = (v: number) => `${Math.round(v)} ms`;
  return [
    `cart-prep job in Chromium: first ${ms(r.times[0]!)} (browser start included), then p50 ${ms(warm[Math.floor(warm.length / 2)]!)}, max ${ms(warm.at(-1)!)} over ${warm.length} jobs`,
    `memory: browser with one blank session ${Math.round(r.baseKb / 1024)} MB PSS; each further session on a product page +${Math.round(r.perSessionKb / 1024)} MB PSS`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.log(formatBrowserBench(await runBrowserBench()));
