// Calls an inference endpoint that speaks Vertex AI's virtual try-on `:predict` protocol
// (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/virtual-try-on-api):
// `{instances:[{personImage:{image:{bytesBase64Encoded}}, productImages:[{image:{...}}]}],
// parameters:{sampleCount:1}}` → `{predictions:[{mimeType, bytesBase64Encoded}]}`.
// The endpoint is operator configuration (VTO_HTTP_ENDPOINT), not user input, so it is called
// directly rather than through the SSRF-safe fetcher.

import { httpRequest as request } from '@hs/service-kit';
import { sniffImage } from '../../domain/image-format.ts';
import { TryOnFailure } from '../../domain/try-on-failure.ts';
import { BodyTooLargeError, readCapped } from '../read-capped.ts';
import type { TryOnBackend } from './try-on-backend.ts';

export interface HttpBackendOptions {
  endpoint: string;
  authToken: string | null;
  timeoutMs: number;
  /** Largest result image accepted; the base64 JSON reply may be a third bigger. */
  maxImageBytes: number;
}

type Prediction = { bytesBase64Encoded?: unknown; mimeType?: unknown; raiFilteredReason?: unknown };

const b64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function createHttpBackend(options: HttpBackendOptions): TryOnBackend {
  const upstream = (message: string, cause?: unknown) =>
    new TryOnFailure('UPSTREAM_ERROR', `The try-on inference endpoint ${message}`, { cause });
  return {
    name: 'http',
    needsInputs: true,
    async render(person, garment, signal) {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const body = JSON.stringify({
        instances: [
          {
            personImage: { image: { bytesBase64Encoded: b64(person.bytes) } },
            productImages: [{ image: { bytesBase64Encoded: b64(garment.bytes) } }],
          },
        ],
        parameters: { sampleCount: 1, outputOptions: { mimeType: 'image/png' } },
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json',
      };
      if (options.authToken) headers.authorization = `Bearer ${options.authToken}`;
      let status: number;
      let raw: Uint8Array;
      try {
        const res = await request(options.endpoint, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.any([signal, timeout]),
        });
        status = res.statusCode;
        raw = await readCapped(res.body, Math.ceil(options.maxImageBytes * 1.4) + 64 * 1024);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (timeout.aborted)
          throw new TryOnFailure(
            'UPSTREAM_TIMEOUT',
            `The try-on inference endpoint did not answer within ${options.timeoutMs} ms`,
          );
        if (err instanceof BodyTooLargeError) throw upstream('sent a reply larger than the image limit', err);
        throw upstream('is unreachable', err);
      }
      if (status < 200 || status >= 300) throw upstream(`failed (${status})`);
      let prediction: Prediction | undefined;
      try {
        prediction = (JSON.parse(Buffer.from(raw).toString('utf8')) as { predictions?: Prediction[] })
          .predictions?.[0];
      } catch (err) {
        throw upstream('sent a reply that is not JSON', err);
      }
      if (prediction && typeof prediction.raiFilteredReason === 'string' && !prediction.bytesBase64Encoded)
        throw new TryOnFailure(
          'RESULT_FILTERED',
          `The try-on result was withheld by the model's safety filter: ${prediction.raiFilteredReason}`,
        );
      if (!prediction || typeof prediction.bytesBase64Encoded !== 'string' || !prediction.bytesBase64Encoded)
        throw upstream('returned no image');
      const image = new Uint8Array(Buffer.from(prediction.bytesBase64Encoded, 'base64'));
      if (sniffImage(image) !== 'image/png') throw upstream('returned an image that is not a PNG');
      return image;
    },
  };
}
