// The performance targets `pnpm bench` judges (scripts/bench.ts): for each, the figure of a
// round that is judged, the same-run reference printed beside it, the limit and the verdict.

export type Target = {
  name: string;
  figure: string;
  reference: string;
  limit: string;
  pass: (v: number) => boolean;
};
/** One round's figures by name. */
export type Round = Record<string, number>;

export const TARGETS: Target[] = [
  {
    name: 'gateway throughput vs direct',
    figure: 'gatewayRatio',
    // What a bare Fastify + undici proxy reaches in the same run: the floor of any proxy hop here.
    reference: 'bareProxyRatio',
    limit: '≥ 0.6×',
    pass: (v) => v >= 0.6,
  },
  {
    name: 'gateway p99 vs direct',
    figure: 'gatewayP99Ratio',
    reference: 'bareProxyP99Ratio',
    limit: '≤ 2×',
    pass: (v) => v <= 2,
  },
  {
    name: 'stream first-event delay p99 (ms)',
    figure: 'streamDelayP99',
    reference: 'streams',
    limit: '< 50',
    pass: (v) => v < 50,
  },
  {
    name: 'memory added by streams (MB)',
    figure: 'streamAddedMb',
    reference: 'streams',
    limit: '< 200',
    pass: (v) => v < 200,
  },
  {
    name: 'chat turn with streams vs without',
    figure: 'turnRatioWithStreams',
    reference: 'turnMsIdle',
    limit: '≤ 2×',
    pass: (v) => v <= 2,
  },
  ...(['sqlite', 'inmemory'] as const).flatMap((backend): Target[] => [
    {
      name: `search p50 largest/1k (${backend})`,
      figure: `searchRatioP50.${backend}`,
      reference: `searchP50Small.${backend}`,
      limit: '≤ 3×',
      pass: (v) => v <= 3,
    },
    {
      name: `search p99 largest/1k (${backend})`,
      figure: `searchRatioP99.${backend}`,
      reference: `searchP99Small.${backend}`,
      limit: '≤ 10×',
      pass: (v) => v <= 10,
    },
  ]),
  {
    name: 'audit appends/s (sqlite, chain)',
    figure: 'auditPerSec',
    reference: 'rawInsertsPerSec',
    limit: '≥ 5000',
    pass: (v) => v >= 5000,
  },
  {
    name: 'all eight healthy (ms, built)',
    figure: 'bootAllMs',
    reference: 'bareNodeMs',
    limit: '< 3000',
    pass: (v) => v < 3000,
  },
  {
    name: 'single service idle RSS (MB, max)',
    figure: 'maxServiceRssMb',
    reference: 'bareNodeMs',
    limit: '≤ 100',
    pass: (v) => v <= 100,
  },
  {
    name: 'all-in-one healthy (ms)',
    figure: 'oneProcessBootMs',
    reference: 'bareNodeMs',
    limit: '< 3000',
    pass: (v) => v < 3000,
  },
  {
    name: 'all-in-one idle RSS (MB)',
    figure: 'oneProcessRssMb',
    reference: 'maxServiceRssMb',
    limit: '≤ 400',
    pass: (v) => v <= 400,
  },
  {
    name: 'chat turn p99 vs forwarded read p99',
    figure: 'chatRatioP99',
    reference: 'forwardedReadP99',
    limit: '≤ 10×',
    pass: (v) => v <= 10,
  },
];
