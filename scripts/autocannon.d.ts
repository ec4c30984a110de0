// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  type Options = { url: string; headers?: Record<string, string>; connections?: number; duration?: number };
  type Result = {
    non2xx: number;
    errors: number;
    requests: { average: number };
    latency: { p50: number; p99: number };
  };
  export default function autocannon(options: Options): Promise<Result>;
}
