// A recorded-protocol fake of the Cloud Storage JSON API subset @google-cloud/storage uses here
// (multipart upload, object metadata, media download, delete) plus PUT to a V4 signed URL with
// real signature verification. No Cloud Storage emulator exists on this machine, so the
// `cloudstore` backend is tested against this server on a loopback port.
import { createHash, createVerify, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

type StoredObject = { bytes: Buffer; contentType: string; metadata: Record<string, string>; updated: string };

export interface FakeCloudStorage {
  url: string;
  objects: Map<string, StoredObject>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function describe(bucket: string, name: string, o: StoredObject) {
  return {
    kind: 'storage#object',
    bucket,
    name,
    size: String(o.bytes.length),
    contentType: o.contentType,
    md5Hash: createHash('md5').update(o.bytes).digest('base64'),
    updated: o.updated,
    metadata: o.metadata,
  };
}

/** multipart/related: a JSON metadata part, then the media part. */
function parseMultipart(body: Buffer, contentType: string): { meta: Record<string, unknown>; media: Buffer } {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!boundary) throw new Error('no boundary');
  const parts: Buffer[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    parts.push(body.subarray(start + delimiter.length + 2, next - 2));
    start = next;
  }
  const content = (part: Buffer) => part.subarray(part.indexOf('\r\n\r\n') + 4);
  return { meta: JSON.parse(content(parts[0]!).toString()), media: content(parts[1]!) };
}

/** Recomputes the V4 string-to-sign and checks it against the client's public key. */
function verifyV4(req: IncomingMessage, url: URL, publicKey: KeyObject): boolean {
  const q = url.searchParams;
  if (q.get('X-Goog-Algorithm') !== 'GOOG4-RSA-SHA256') return false;
  const signature = q.get('X-Goog-Signature');
  const signedHeaders = q.get('X-Goog-SignedHeaders');
  const date = q.get('X-Goog-Date');
  const credential = q.get('X-Goog-Credential');
  const expiresIn = Number(q.get('X-Goog-Expires'));
  if (!signature || !signedHeaders || !date || !credential) return false;
  const issued = Date.parse(
    date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  if (!(issued + expiresIn * 1000 > Date.now())) return false;
  const enc = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Goog-Signature')
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .sort()
    .join('&');
  const headers = signedHeaders
    .split(';')
    // The library signs the endpoint's host name without the port (real Cloud Storage has none).
    .map((h) => `${h}:${h === 'host' ? url.hostname : String(req.headers[h] ?? '').trim()}\n`)
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = credential.split('/').slice(1).join('/');
  const toSign = ['GOOG4-RSA-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join(
    '\n',
  );
  return createVerify('RSA-SHA256').update(toSign).verify(publicKey, Buffer.from(signature, 'hex'));
}

export async function startFakeCloudStorage(options: {
  bucket: string;
  publicKey: KeyObject;
}): Promise<FakeCloudStorage> {
  const objects = new Map<string, StoredObject>();
  const { bucket } = options;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const path = url.pathname;
    const notFound = () => json(res, 404, { error: { code: 404, message: 'No such object' } });
    try {
      if (req.method === 'POST' && path === `/upload/storage/v1/b/${bucket}/o`) {
        const { meta, media } = parseMultipart(await readBody(req), String(req.headers['content-type']));
        const name = url.searchParams.get('name') ?? String(meta.name);
        const stored: StoredObject = {
          bytes: media,
          contentType: String(meta.contentType ?? 'application/octet-stream'),
          metadata: (meta.metadata as Record<string, string>) ?? {},
          updated: new Date().toISOString(),
        };
        objects.set(name, stored);
        return json(res, 200, describe(bucket, name, stored));
      }
      const objectPath = `/storage/v1/b/${bucket}/o/`;
      if (path.startsWith(objectPath)) {
        const name = decodeURIComponent(path.slice(objectPath.length));
        const o = objects.get(name);
        if (req.method === 'DELETE') {
          if (!objects.delete(name)) return notFound();
          return res.writeHead(204).end();
        }
        if (req.method === 'GET') {
          if (!o) return notFound();
          if (url.searchParams.get('alt') === 'media')
            return res.writeHead(200, { 'content-type': o.contentType }).end(o.bytes);
          return json(res, 200, describe(bucket, name, o));
        }
      }
      if (req.method === 'PUT' && path.startsWith(`/${bucket}/`)) {
        if (!verifyV4(req, url, options.publicKey))
          return res
            .writeHead(403, { 'content-type': 'application/xml' })
            .end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        const bytes = await readBody(req);
        const [min, max] = String(req.headers['x-goog-content-length-range'] ?? '0,')
          .split(',')
          .map(Number);
        if (max !== undefined && (bytes.length < (min ?? 0) || bytes.length > max))
          return res.writeHead(400).end('<Error><Code>EntityTooLarge</Code></Error>');
        const objectName = decodeURIComponent(path.slice(bucket.length + 2));
        // Generation 0 means "only if no live object exists" (request preconditions).
        if (req.headers['x-goog-if-generation-match'] === '0' && objects.has(objectName))
          return res
            .writeHead(412, { 'content-type': 'application/xml' })
            .end('<Error><Code>PreconditionFailed</Code></Error>');
        objects.set(decodeURIComponent(path.slice(bucket.length + 2)), {
          bytes,
          contentType: String(req.headers['content-type']),
          metadata: {},
          updated: new Date().toISOString(),
        });
        return res.writeHead(200).end();
      }
      json(res, 404, { error: { code: 404, message: `unhandled ${req.method} ${path}` } });
    } catch (err) {
      json(res, 500, { error: { code: 500, message: String(err) } });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
