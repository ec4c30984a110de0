/**
 * The Node options a service runs with in production (`npm start`, the image, the benchmarks):
 * V8's young generation is capped at 2 MB per semi-space instead of growing to 16 MB. An idle
 * service then holds about 15 MB less (gateway 116 -> 100 MB); the gateway's and wardrobe's
 * throughput showed no difference beyond run-to-run noise. The Dockerfile repeats it as
 * `ENV NODE_OPTIONS` (a test keeps the two equal); a NODE_OPTIONS of the operator's replaces it.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=2';
