// The OpenTelemetry variables stop the boot when they are wrong, with the other settings'
// problems, instead of a service that runs and exports no span.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { bootService, defineService } from '../src/index.ts';

const definition = (built: string[]) =>
  defineService({
    service: 'tracing-settings-test',
    loadConfig: () => ({ host: '127.0.0.1', port: 0, logLevel: 'silent', shutdownGraceMs: 0 }),
    build: async () => {
      built.push('built');
      return Fastify();
    },
  });

describe('OpenTelemetry settings at boot', () => {
  it('names every wrong one at once and builds nothing', async () => {
    const built: string[] = [];
    const boot = bootService(definition(built), {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://user:pw@collector.test/',
      OTEL_BSP_SCHEDULE_DELAY: '5s',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'sometimes',
    });
    await expect(boot).rejects.toThrow(
      'Configuration error: OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL (value: "collector:4318"); ' +
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http or https URL (value: "ftp://***@collector.test/"); ' +
        'OTEL_BSP_SCHEDULE_DELAY must be a whole number of milliseconds above 0 (got "5s"); ' +
        'OTEL_EXPORTER_OTLP_HEADERS must be comma-separated name=value pairs; ' +
        'spans are exported over OTLP/HTTP (JSON); OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported; ' +
        'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio (got "sometimes")',
    );
    expect(built).toEqual([]);
  });

  it('refuses a sampling ratio outside 0..1', async () => {
    const boot = bootService(definition([]), {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '10',
    });
    await expect(boot).rejects.toThrow('OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got "10")');
  });

  it('boots with the usual ones, as platforms set them', async () => {
    const built: string[] = [];
    const running = await bootService(definition(built), {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_BSP_SCHEDULE_DELAY: '1000',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc, x-team = styling,',
      // The SDK's default protocol; any OTLP/HTTP receiver takes the JSON spans sent.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(built).toEqual(['built']);
    await running.stop('SIGTERM');
  });

  it('reads the traces-only protocol before the general one', async () => {
    const running = await bootService(definition([]), {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    await running.stop('SIGTERM');
  });

  it('checks nothing while no endpoint is set: a service exporting nothing is not stopped', async () => {
    const running = await bootService(definition([]), {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_BSP_SCHEDULE_DELAY: '5s',
    });
    await running.stop('SIGTERM');
  });
});
