/**
 * The Node options a service runs with in production (`npm start`, the image, the benchmarks):
 * V8's young generation is capped at 2 MB per semi-space instead of growing to 16 MB. An idle
 * service then holds about 15 MB less (gateway 116 -> 99 MB). The price is paid under load: the
 * gateway saturated for 5 s spends 0.9 s in garbage collection instead of 0.4 s; its throughput
 * moved less than the run-to-run noise (about 10%). An operator who prefers throughput to memory
 * sets NODE_OPTIONS, which replaces this. The Dockerfile repeats it as `ENV NODE_OPTIONS` (a test
 * keeps the two equal).
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=2';
