// Gateway and vto as real processes on loopback: a client's try-on job goes through the
// gateway's forwarding, vto asks the real gateway for the household's members, and the result
// picture comes back through the gateway.
import { createBlobStorage } from '@hs/storage';
import { type RunningStack, startStack } from '@hs/testing';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from './helpers.ts';

let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({
    services: ['gateway', 'vto'],
    durable: true,
    perService: { vto: { VTO_INFERENCE_BACKEND: 'inline', VTO_WORKER_POLL_MS: '50' } },
  });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const api = async (path: string, token: string, body?: unknown) => {
  const res = await fetch(`${stack.url('gateway')}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res;
};

const login = async (idToken: string) => {
  const res = await fetch(`${stack.url('gateway')}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken }),
  });
  const token = ((await res.json()) as { accessToken: string }).accessToken;
  const me = (await (await api('/api/v1/me', token)).json()) as { userId: string };
  return { token, userId: me.userId };
};

describe('try-on through the gateway', () => {
  it('runs an inline job on images in shared storage and serves the picture', async () => {
    const alice = await login('alice-vto');
    const bob = await login('bob-vto');
    const household = (await (await api('/api/v1/households', alice.token, { name: 'Try-on' })).json()) as {
      householdId: string;
    };
    const hh = household.householdId;
    // What wardrobe does on upload: the bytes land in the shared local storage; its image `ref` is refFor(key).
    const storage = createBlobStorage({
      backend: 'local',
      dir: stack.env.ARTIFACT_LOCAL_DIR!,
      signingSecret: 'unused',
      publicBaseUrl: 'http://127.0.0.1',
    });
    await storage.put(`households/${hh}/items/item_me/img_1`, makePng(120, 180), 'image/png');
    await storage.put(`households/${hh}/items/item_shirt/img_1`, makePng(80, 80, [200, 30, 30]), 'image/png');
    const refs = {
      personImageRef: storage.refFor(`households/${hh}/items/item_me/img_1`),
      garmentImageRef: storage.refFor(`households/${hh}/items/item_shirt/img_1`),
    };

    const notMember = await api(`/api/v1/households/${hh}/vto/jobs`, alice.token, {
      ...refs,
      memberId: bob.userId,
    });
    expect(notMember.status).toBe(400);
    expect(await notMember.json()).toEqual({
      error: 'BAD_REQUEST',
      message: 'User is not a household member',
    });

    const outsider = await api(`/api/v1/households/${hh}/vto/jobs`, bob.token, refs);
    expect(outsider.status).toBe(403);

    const created = await api(`/api/v1/households/${hh}/vto/jobs`, alice.token, refs);
    expect(created.status).toBe(202);
    const { jobId } = (await created.json()) as { jobId: string };

    let job: { status: string; resultImageRef: string | null } = { status: 'QUEUED', resultImageRef: null };
    for (let i = 0; i < 200 && (job.status === 'QUEUED' || job.status === 'RUNNING'); i++) {
      await new Promise((r) => setTimeout(r, 25));
      job = (await (
        await api(`/api/v1/households/${hh}/vto/jobs/${jobId}`, alice.token)
      ).json()) as typeof job;
    }
    expect(job).toMatchObject({
      status: 'SUCCEEDED',
      resultImageRef: `local://households/${hh}/vto/${jobId}.png`,
    });

    const picture = await api(`/api/v1/households/${hh}/vto/jobs/${jobId}/result`, alice.token);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(await picture.arrayBuffer()));
    expect([png.width, png.height]).toEqual([512, 808]);

    const list = (await (await api(`/api/v1/households/${hh}/vto/jobs`, alice.token)).json()) as {
      items: unknown[];
    };
    expect(list.items).toHaveLength(1);
  });
});
