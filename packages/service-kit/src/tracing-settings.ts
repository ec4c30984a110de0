import { configProblem, shownValue } from './config.ts';

/**
 * The OpenTelemetry variables the trace export reads (tracing.ts), checked at boot like every
 * other setting: the SDK itself would log a warning (or nothing) and export no span at all, and
 * an operator would learn it only when a trace is missing.
 */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * Checked only when export is on (an endpoint is set): a platform that sets OTEL_* for every
 * workload must not stop a service that exports nothing. Only what would make the export silently
 * fail stops the boot: an endpoint that is not http(s), a batch delay or header list the SDK cannot
 * read, gRPC (spans are sent as OTLP/HTTP JSON, which any OTLP/HTTP receiver takes whatever
 * `http/*` protocol is named), an unknown sampler, a ratio outside 0..1.
 */
export function checkTracingSettings(env: NodeJS.ProcessEnv): void {
  const set = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const endpoints = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (!endpoints.some((name) => set(name) !== undefined)) return;
  for (const name of endpoints) {
    const value = set(name);
    if (value !== undefined && !/^https?:$/.test(URL.parse(value)?.protocol ?? ''))
      configProblem(`${name} must be an http or https URL (value: ${shownValue(value)})`);
  }
  const delay = set('OTEL_BSP_SCHEDULE_DELAY');
  if (delay !== undefined && !/^[1-9]\d{0,6}$/.test(delay))
    configProblem(
      `OTEL_BSP_SCHEDULE_DELAY must be a whole number of milliseconds above 0 (got ${JSON.stringify(delay)})`,
    );
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    const pairs = (set(name) ?? '').split(',').filter((pair) => pair.trim() !== '');
    // Values are secrets (an API key): the message names the form only.
    if (!pairs.every((pair) => /^\s*[^=\s]+\s*=.+$/.test(pair)))
      configProblem(`${name} must be comma-separated name=value pairs`);
  }
  // The traces-only setting wins over the general one, as in the SDK.
  const protocolName = set('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = set(protocolName);
  if (protocol !== undefined && !protocol.startsWith('http/'))
    configProblem(
      `spans are exported over OTLP/HTTP (JSON); ${protocolName} ${JSON.stringify(protocol)} is not supported`,
    );
  const sampler = set('OTEL_TRACES_SAMPLER');
  if (sampler !== undefined && !(SAMPLERS as readonly string[]).includes(sampler))
    configProblem(
      `OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got ${JSON.stringify(sampler)})`,
    );
  const ratio = set('OTEL_TRACES_SAMPLER_ARG');
  if (ratio !== undefined && sampler?.endsWith('traceidratio') && !(Number(ratio) >= 0 && Number(ratio) <= 1))
    configProblem(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got ${JSON.stringify(ratio)})`);
}

/**
 * The sampler the environment asks for (checked above): its name (default
 * `parentbased_always_on`) and, for the ratio samplers, the ratio (default 1).
 */
export function samplerSetting(env: NodeJS.ProcessEnv): { name: SamplerName; ratio: number } {
  const name = (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on') as SamplerName;
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  return { name, ratio: arg ? Number(arg) : 1 };
}
