// Writes the public API document (and each service's own) where the gateway and the client
// package read them: `pnpm openapi` after a route or contract changes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServiceApps } from '../../test/service-apps.ts';
import { buildAsyncApiDocument } from './asyncapi-document.ts';
import { buildPublicDocument } from './public-document.ts';

export const PUBLIC_DOCUMENT_PATH = new URL('../../services/gateway/openapi.public.json', import.meta.url);
export const ASYNCAPI_DOCUMENT_PATH = new URL('../../services/gateway/asyncapi.json', import.meta.url);

export async function generateDocuments() {
  const apps = await buildServiceApps(await mkdtemp(join(tmpdir(), 'openapi-')));
  try {
    const documents = apps.map(({ service, app }) => ({ service, document: app.swagger() as never }));
    const publicDocument = buildPublicDocument(documents);
    return {
      documents,
      publicDocument,
      asyncApiDocument: buildAsyncApiDocument(publicDocument.info.version),
    };
  } finally {
    for (const { app } of apps) await app.close();
  }
}

export const serialise = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const { documents, publicDocument, asyncApiDocument } = await generateDocuments();
  await writeFile(PUBLIC_DOCUMENT_PATH, serialise(publicDocument));
  await writeFile(ASYNCAPI_DOCUMENT_PATH, serialise(asyncApiDocument));
  const dir = process.argv[2];
  if (dir) for (const d of documents) await writeFile(join(dir, `${d.service}.json`), serialise(d.document));
}
