// What a client does against the gateway in cross-process tests: JSON over HTTP with a bearer
// token, dev login, a household with members, and waiting for asynchronous effects. Loopback only.

export type Reply<T = unknown> = { status: number; body: T; headers: Headers };
export type User = { token: string; userId: string; email: string };
type RequestInit = {
  method?: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
};

// biome-ignore lint/suspicious/noExplicitAny: journey assertions read replies freely; contracts are pinned by the services' own tests.
export type Json = any;

export function gatewayClient(baseUrl: string) {
  async function api<T = Json>(path: string, init: RequestInit = {}): Promise<Reply<T>> {
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      body: (text && type.includes('json') ? JSON.parse(text) : text || null) as T,
      headers: res.headers,
    };
  }

  async function login(idToken: string): Promise<User> {
    const { body } = await api<{ accessToken: string }>('/api/v1/auth/login', {
      method: 'POST',
      body: { idToken },
    });
    const me = await api<{ userId: string; email: string }>('/api/v1/me', { token: body.accessToken });
    return { token: body.accessToken, userId: me.body.userId, email: me.body.email };
  }

  /** A household created by `owner` (PARENT_GUARDIAN) with the others added in the given roles. */
  async function household(
    owner: User,
    name: string,
    members: Array<[User, 'ADULT' | 'CHILD' | 'PARENT_GUARDIAN']> = [],
  ): Promise<string> {
    const created = await api<{ householdId: string }>('/api/v1/households', {
      method: 'POST',
      token: owner.token,
      body: { name },
    });
    if (created.status !== 201)
      throw new Error(`household: ${created.status} ${JSON.stringify(created.body)}`);
    for (const [user, role] of members) {
      const added = await api(`/api/v1/households/${created.body.householdId}/members`, {
        method: 'POST',
        token: owner.token,
        body: { memberId: user.userId, role },
      });
      if (added.status !== 201) throw new Error(`member: ${added.status} ${JSON.stringify(added.body)}`);
    }
    return created.body.householdId;
  }

  return { baseUrl, api, login, household };
}

export type GatewayClient = ReturnType<typeof gatewayClient>;

/** Reads until `done` holds (the outbox, job workers and callbacks are asynchronous). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) return value; // the caller's assertion shows what was there
    await new Promise((r) => setTimeout(r, intervalMs));
    value = await read();
  }
  return value;
}

/** Polls until `probe` yields a value, or fails naming what never happened (plus `context()`, e.g. logs). */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  {
    timeoutMs = 15_000,
    intervalMs = 50,
    context,
  }: { timeoutMs?: number; intervalMs?: number; context?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${context ? `\n${context()}` : ''}`);
}
