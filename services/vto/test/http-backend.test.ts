import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, garmentKey, HH, makePng, personKey, type TestApp } from './helpers.ts';

type PredictBody = {
  instances: Array<{
    personImage: { image: { bytesBase64Encoded: string } };
    productImages: Array<{ image: { bytesBase64Encoded: string } }>;
  }>;
  parameters: { sampleCount: number };
};

/** A local server speaking Vertex AI's virtual try-on `:predict` protocol; its behaviour is set per test. */
async function startPredictServer() {
  const seen: Array<{ body: PredictBody; authorization: string | undefined }> = [];
  const result = makePng(64, 96, [10, 200, 10]);
  let mode: 'ok' | 'error' | 'slow' | 'filtered' = 'ok';
  const server: FastifyInstance = Fastify({ bodyLimit: 50 * 1024 * 1024 });
  server.post(
    '/v1/projects/p/locations/l/publishers/google/models/virtual-try-on-001:predict',
    async (req, reply) => {
      seen.push({ body: req.body as PredictBody, authorization: req.headers.authorization });
      if (mode === 'error') return reply.code(500).send({ error: { code: 500, message: 'internal' } });
      if (mode === 'slow') await new Promise((r) => setTimeout(r, 1500));
      if (mode === 'filtered') return { predictions: [{ raiFilteredReason: 'person generation blocked' }] };
      return {
        predictions: [{ mimeType: 'image/png', bytesBase64Encoded: Buffer.from(result).toString('base64') }],
      };
    },
  );
  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/projects/p/locations/l/publishers/google/models/virtual-try-on-001:predict`,
    seen,
    result,
    setMode: (m: typeof mode) => {
      mode = m;
    },
    close: () => server.close(),
  };
}

describe('try-on jobs with VTO_INFERENCE_BACKEND=http', () => {
  let predict: Awaited<ReturnType<typeof startPredictServer>>;
  let t: TestApp;
  const person = makePng(40, 60);
  const garment = makePng(30, 30, [0, 0, 200]);
  const refs = { personImageRef: `local://${personKey()}`, garmentImageRef: `local://${garmentKey()}` };

  beforeAll(async () => {
    predict = await startPredictServer();
    t = await buildTestApp({
      VTO_INFERENCE_BACKEND: 'http',
      VTO_HTTP_ENDPOINT: predict.endpoint,
      VTO_HTTP_AUTH_TOKEN: 'model-token',
      VTO_HTTP_TIMEOUT_SECONDS: '0.3',
    });
    await t.storage.put(personKey(), person, 'image/png');
    await t.storage.put(garmentKey(), garment, 'image/png');
  });
  afterAll(async () => {
    await t.close();
    await predict.close();
  });

  it('sends the predict request shape with the bearer token and stores the returned image', async () => {
    predict.setMode('ok');
    const before = predict.seen.length;
    const job = await t.waitForJob((await t.submit(refs)).json().jobId);
    expect(job).toMatchObject({ status: 'SUCCEEDED', backend: 'http', error: null });
    expect(job.resultImageRef).toBe(`local://households/${HH}/vto/${job.jobId}.png`);

    const call = predict.seen[before]!;
    expect(call.authorization).toBe('Bearer model-token');
    expect(call.body.parameters.sampleCount).toBe(1);
    expect(call.body.instances).toHaveLength(1);
    expect(Buffer.from(call.body.instances[0]!.personImage.image.bytesBase64Encoded, 'base64')).toEqual(
      Buffer.from(person),
    );
    expect(Buffer.from(call.body.instances[0]!.productImages[0]!.image.bytesBase64Encoded, 'base64')).toEqual(
      Buffer.from(garment),
    );

    const served = await t.app.inject({
      method: 'GET',
      url: `/api/v1/households/${HH}/vto/jobs/${job.jobId}/result`,
      headers: t.headers(),
    });
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, Buffer.from(predict.result))).toBe(0);
  });

  it('an endpoint failure (500) ends the job FAILED with UPSTREAM_ERROR', async () => {
    predict.setMode('error');
    const job = await t.waitForJob((await t.submit(refs)).json().jobId);
    expect(job.status).toBe('FAILED');
    expect(job.error).toEqual({
      code: 'UPSTREAM_ERROR',
      message: 'The try-on inference endpoint failed (500)',
    });
  });

  it('an endpoint slower than VTO_HTTP_TIMEOUT_SECONDS ends the job FAILED with UPSTREAM_TIMEOUT', async () => {
    predict.setMode('slow');
    const job = await t.waitForJob((await t.submit(refs)).json().jobId);
    expect(job.status).toBe('FAILED');
    expect(job.error).toEqual({
      code: 'UPSTREAM_TIMEOUT',
      message: 'The try-on inference endpoint did not answer within 300 ms',
    });
  });

  it('a result withheld by the safety filter ends FAILED with RESULT_FILTERED', async () => {
    predict.setMode('filtered');
    const job = await t.waitForJob((await t.submit(refs)).json().jobId);
    expect(job.error).toEqual({
      code: 'RESULT_FILTERED',
      message: "The try-on result was withheld by the model's safety filter: person generation blocked",
    });
  });

  it('an unreachable endpoint ends FAILED with UPSTREAM_ERROR', async () => {
    const down = await buildTestApp({
      VTO_INFERENCE_BACKEND: 'http',
      VTO_HTTP_ENDPOINT: 'http://127.0.0.1:1/predict',
    });
    try {
      await down.storage.put(personKey(), person, 'image/png');
      await down.storage.put(garmentKey(), garment, 'image/png');
      const job = await down.waitForJob((await down.submit(refs)).json().jobId);
      expect(job.error).toEqual({
        code: 'UPSTREAM_ERROR',
        message: 'The try-on inference endpoint is unreachable',
      });
    } finally {
      await down.close();
    }
  });
});
