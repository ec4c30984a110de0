// What an owning service does with the local backend's signed URLs (the wardrobe's upload
// route is the real one): verify, then stream into storage. Lets the contract suite PUT to a
// signed URL for both backends alike.
import { once } from 'node:events';
import { createServer } from 'node:http';
import {
  type LocalBlobStorage,
  UPLOAD_ROUTE_PREFIX,
  UploadExistsError,
  UploadTooLargeError,
  verifyLocalUploadSignature,
} from '../src/index.ts';

export async function startLocalUploadServer(storage: LocalBlobStorage, secret: string) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const key = url.pathname.slice(UPLOAD_ROUTE_PREFIX.length + 1);
    const contentType = String(req.headers['content-type'] ?? '');
    const check = verifyLocalUploadSignature({
      secret,
      method: 'PUT',
      key,
      contentType,
      query: Object.fromEntries(url.searchParams),
    });
    if (!check.ok) return res.writeHead(403).end(check.reason);
    try {
      await storage.receiveUpload(key, req, { contentType, maxBytes: check.maxBytes! });
      res.writeHead(200).end();
    } catch (err) {
      const status = err instanceof UploadTooLargeError ? 413 : err instanceof UploadExistsError ? 409 : 500;
      res.writeHead(status).end(String(err));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
