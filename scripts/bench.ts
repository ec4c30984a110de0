// `pnpm bench`: every performance target of the project, each figure beside a reference
// measured in the same run, three rounds (min / median / max), a PASS/MISS verdict per target
// and the figures in a JSON file (bench-results/). `pnpm bench -- --quick`: one small round, to
// check that every figure is produced (CI smoke test); its verdicts mean little.
// Real-browser figures (a cart-prep job in Chromium, memory per browser session) are printed
// beside the targets; they have no target of their own.
// Services run from their production build: run `pnpm build` first (`pnpm bench` does).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CHROMIUM_PATH } from '@hs/browser';
import { ServiceName } from '@hs/contracts';
import { REPO_ROOT } from '@hs/testing';
import { runAuditBench } from './bench-audit.ts';
import { bareNodeMs, bootAll, bootOneProcess, untilQuiet } from './bench-boot.ts';
import { formatBrowserBench, runBrowserBench } from './bench-browser.ts';
import { runChatBench } from './bench-chat.ts';
import { runGatewayBench } from './bench-gateway.ts';
import { runSearchBench } from './bench-search.ts';
import { runStreamBench } from './bench-streams.ts';
import { runStylistBench } from './bench-stylist.ts';
import { type Round, TARGETS } from './bench-targets.ts';

const quick = process.argv.includes('--quick');
const outArg = process.argv.indexOf('--out');
const rounds = quick ? 1 : 3;

let browserReport: Awaited<ReturnType<typeof runBrowserBench>> | undefined;
let browserMissing: string | undefined;

async function round(): Promise<Round> {
  const r: Round = {};
  const gw = await runGatewayBench({ seconds: quick ? 1 : 5 });
  Object.assign(r, {
    directRps: gw.direct.rps,
    gatewayRps: gw.gateway.rps,
    gatewayRatio: gw.gateway.rps / gw.direct.rps,
    directP99: gw.direct.p99,
    gatewayP99: gw.gateway.p99,
    gatewayP99Ratio: gw.gateway.p99 / Math.max(1, gw.direct.p99),
    bareProxyRatio: gw.bareProxy.rps / gw.direct.rps,
    bareProxyP99Ratio: gw.bareProxy.p99 / Math.max(1, gw.direct.p99),
    rawProxyRatio: gw.rawProxy.rps / gw.direct.rps,
    rawProxyP99Ratio: gw.rawProxy.p99 / Math.max(1, gw.direct.p99),
  });
  const st = await runStreamBench(quick ? { streams: 50, turns: 2 } : { streams: 1000, turns: 5 });
  Object.assign(r, {
    streams: st.streams,
    streamDelayP99: st.eventDelayP99,
    streamAllEventsDelayP99: st.allEventsDelayP99,
    streamAddedMb: st.addedMb,
    turnMsIdle: st.turnMsIdle,
    turnMsWithStreams: st.turnMsWithStreams,
    turnRatioWithStreams: st.turnMsWithStreams / st.turnMsIdle,
  });
  const search = await runSearchBench(quick ? [1_000, 5_000] : [1_000, 100_000]);
  for (const [backend, ratio] of Object.entries(search.ratios)) {
    const smallest = search.rows.find((row) => row.backend === backend)!;
    Object.assign(r, {
      [`searchP50Small.${backend}`]: smallest.p50,
      [`searchP99Small.${backend}`]: smallest.p99,
      [`searchRatioP50.${backend}`]: ratio.p50,
      [`searchRatioP99.${backend}`]: ratio.p99,
    });
  }
  const stylist = runStylistBench(quick ? 1 : 3);
  Object.assign(r, { stylistWorstMs: stylist.worstMs, stylistOrdinaryMs: stylist.ordinaryMs });
  const audit = await runAuditBench({ appends: quick ? 300 : 5000 });
  if (!audit.chainValid) throw new Error('audit chain did not verify after the append benchmark');
  Object.assign(r, { auditPerSec: audit.appendsPerSec, rawInsertsPerSec: audit.rawInsertsPerSec });
  // The boot targets are for an idle machine: wait for the benches above to settle (not in the
  // quick smoke run, which the test suite runs beside other tests).
  const quietMs = quick ? 0 : 15_000;
  r.bootQuietWaitMs = await untilQuiet(quietMs);
  r.bareNodeMs = await bareNodeMs();
  await untilQuiet(quietMs);
  const boot = await bootAll(ServiceName.options, true);
  r.bootAllMs = boot.ms;
  for (const [service, figure] of Object.entries(boot.perService)) r[`rssIdleMb.${service}`] = figure.rssMb;
  r.maxServiceRssMb = Math.max(...Object.values(boot.perService).map((f) => f.rssMb));
  await untilQuiet(quietMs);
  const oneProcess = await bootOneProcess();
  r.oneProcessBootMs = oneProcess.ms;
  r.oneProcessRssMb = oneProcess.rssMb;
  const chat = await runChatBench(quick ? { turns: 10, reads: 20 } : { turns: 100, reads: 300 });
  Object.assign(r, {
    chatTurnP99: chat.chatTurn.p99,
    forwardedReadP99: chat.me.p99,
    chatRatioP99: chat.ratioP99,
  });
  // The browser figures have no target: a machine without Chromium still gets every target's
  // figure, and the report says why the browser ones are missing. A browser that is there and
  // fails is a failure.
  if (!existsSync(DEFAULT_CHROMIUM_PATH)) {
    browserMissing = `no Chromium at ${DEFAULT_CHROMIUM_PATH}; install Debian's chromium package`;
    return r;
  }
  const browser = await runBrowserBench();
  browserReport = browser;
  const warm = browser.times.slice(1).sort((a, b) => a - b);
  Object.assign(r, {
    cartPrepJobFirstMs: browser.times[0]!,
    cartPrepJobP50Ms: warm[Math.floor(warm.length / 2)] ?? browser.times[0]!,
    browserBaseMb: browser.baseKb / 1024,
    browserPerSessionMb: browser.perSessionKb / 1024,
  });
  return r;
}

const results: Round[] = [];
for (let i = 0; i < rounds; i++) {
  console.error(`round ${i + 1} of ${rounds}…`);
  results.push(await round());
}
const stat = (key: string) => {
  const values = results.map((r) => r[key] ?? Number.NaN).sort((a, b) => a - b);
  return { min: values[0]!, median: values[Math.floor(values.length / 2)]!, max: values.at(-1)! };
};
const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
const rows = TARGETS.map((t) => {
  const figure = stat(t.figure);
  const reference = stat(t.reference);
  return {
    ...t,
    referenceName: t.reference,
    figure,
    reference,
    verdict: t.pass(figure.median) ? 'PASS' : 'MISS',
  };
});
console.log(`\n${quick ? 'QUICK (smoke) ' : ''}bench, ${rounds} round(s), figures min / median / max`);
console.log(
  `${'target'.padEnd(38)} ${'limit'.padEnd(8)} ${'figure'.padEnd(24)} ${'reference (same run)'.padEnd(34)} verdict`,
);
for (const row of rows)
  console.log(
    `${row.name.padEnd(38)} ${row.limit.padEnd(8)} ${`${fmt(row.figure.min)} / ${fmt(row.figure.median)} / ${fmt(row.figure.max)}`.padEnd(24)} ${`${row.referenceName} ${fmt(row.reference.median)}`.padEnd(34)} ${row.verdict}`,
  );
const out =
  outArg !== -1
    ? process.argv[outArg + 1]!
    : join(REPO_ROOT, 'bench-results', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ quick, rounds: results, targets: rows.map(({ pass: _, ...row }) => row), ...(browserMissing ? { browserMissing } : {}) }, null, 2)}\n`,
);
// The gateway rows' second floor: the same hop with no framework at all (bench-raw-proxy.ts).
const raw = (key: string) => {
  const { min, median, max } = stat(key);
  return `${fmt(min)} / ${fmt(median)} / ${fmt(max)}`;
};
console.log(
  `\nproxy hops with nothing in them, vs direct (same runs): throughput bare Fastify ${raw('bareProxyRatio')}, raw node:http ${raw('rawProxyRatio')}; p99 bare Fastify ${raw('bareProxyP99Ratio')}, raw node:http ${raw('rawProxyP99Ratio')}`,
);
if (browserReport) console.log(`\nreal browsers (last round):\n${formatBrowserBench(browserReport)}`);
else if (browserMissing) console.log(`\nreal browsers: not measured (${browserMissing})`);
console.log(`\nfigures written to ${out}`);
