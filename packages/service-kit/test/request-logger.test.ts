import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLoggerFactory } from '../src/request-logger.ts';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level, base: { service: 'test' } }, sink) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

const without = (line: Record<string, unknown>) => {
  const { time: _time, ...rest } = line;
  return rest;
};

describe('request logger', () => {
  it('writes the same line a pino child would, in every form a line is logged', () => {
    const { logger, lines } = capture('debug');
    const real = logger.child({ reqId: 'r1' }).child({ trace: 't1' });
    const lazy = requestLoggerFactory(logger, { reqId: 'r1' }, {}).child({ trace: 't1' });
    for (const log of [real, lazy]) {
      log.info({ statusCode: 200 }, 'request');
      log.warn('plain %s', 'text');
      log.error(new Error('boom'));
      log.error({ err: new Error('inner') }, 'failed');
      log.debug({ detail: 1 }, 'debug line');
      log.trace({ hidden: true }, 'below the level');
    }
    expect(lines).toHaveLength(10);
    const [a, b] = [lines.slice(0, 5), lines.slice(5)];
    for (let i = 0; i < 5; i++) expect(without(b[i]!)).toEqual(without(a[i]!));
    expect(b[0]).toMatchObject({
      reqId: 'r1',
      trace: 't1',
      service: 'test',
      statusCode: 200,
      msg: 'request',
    });
  });

  it('takes a level for the request alone, and children with options, as real pino children', () => {
    const { logger, lines } = capture('info');
    const request = requestLoggerFactory(logger, { reqId: 'r2' }, {});
    request.level = 'debug';
    request.debug({ step: 1 }, 'request debug');
    logger.debug('service debug stays off');
    const redacted = request.child({ part: 'x' }, { redact: ['secret'] });
    redacted.info({ secret: 'hunter2' }, 'redacted');
    expect(logger.level).toBe('info');
    expect(lines.map((l) => l.msg)).toEqual(['request debug', 'redacted']);
    expect(lines[0]).toMatchObject({ reqId: 'r2', step: 1 });
    expect(lines[1]).toMatchObject({ reqId: 'r2', part: 'x', secret: '[Redacted]' });
  });

  it('writes nothing below the level, and the factory keeps options for a real child', () => {
    const { logger, lines } = capture('warn');
    requestLoggerFactory(logger, { reqId: 'r3' }, {}).info({ a: 1 }, 'quiet');
    requestLoggerFactory(logger, { reqId: 'r4' }, { level: 'info' }).info({ a: 1 }, 'loud');
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([['r4', 'loud']]);
  });
});
