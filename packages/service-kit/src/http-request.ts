// undici's index loads all of undici (every dispatcher, the mock agent, the caches, fetch and
// WebSocket): about 150 ms of CPU at every boot, in each of the eight processes. The services
// only send requests through an Agent, so they load those parts alone, and only on the first
// request (about 50 ms of CPU that a boot no longer pays). These are undici's own files, so the
// behaviour is the package's; `request` is its index's wrapper.
import type * as Undici from 'undici';

const loadRequestParts = async () => {
  const [apiRequest, errors, agent, util] = await Promise.all([
    import('undici/lib/api/api-request.js'),
    import('undici/lib/core/errors.js'),
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/core/util.js'),
  ]);
  return {
    apiRequest: apiRequest.default,
    errors: errors.default,
    // An Agent of the process's own, not the global dispatcher: that may be Node's bundled undici
    // (whichever of `fetch` or undici set it first), which after a stream whose client left
    // opened a fresh connection to the peer and never used it (4 closed streams through the
    // gateway left 4 idle connections at the orchestrator until its 60 s headers timeout; with
    // this Agent, none).
    dispatcher: new agent.default(),
    util: util.default,
  };
};
let requestParts: ReturnType<typeof loadRequestParts> | undefined;

/** undici's `request` (its index's wrapper, line for line): one request through
 * `options.dispatcher` or this module's own Agent. */
export const request = (async (url: string | URL, options?: Undici.Dispatcher.RequestOptions) => {
  requestParts ??= loadRequestParts();
  const { apiRequest, errors, dispatcher: ownAgent, util } = await requestParts;
  if (!url || (typeof url !== 'string' && typeof url !== 'object')) {
    throw new errors.InvalidArgumentError('invalid url');
  }
  if (options != null && typeof options !== 'object') throw new errors.InvalidArgumentError('invalid opts');
  type Options = Partial<Undici.Dispatcher.RequestOptions> & {
    dispatcher?: Undici.Dispatcher;
    agent?: unknown;
  };
  let opts = options as Options | undefined;
  let target: URL;
  if (opts?.path != null) {
    if (typeof opts.path !== 'string') throw new errors.InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    target = new URL(util.parseOrigin(url).origin + path);
  } else {
    opts ??= (typeof url === 'object' ? url : {}) as Options;
    target = util.parseURL(url);
  }
  const { agent, dispatcher = ownAgent, ...rest } = opts;
  if (agent) throw new errors.InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    // `||` as undici has it: an empty method is the default too.
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  } as Undici.Dispatcher.RequestOptions);
}) as typeof Undici.request;

/** undici's Agent and connector, for a dispatcher of one's own (loaded when first asked for). */
export async function loadAgentParts(): Promise<{
  Agent: typeof Undici.Agent;
  buildConnector: typeof Undici.buildConnector;
}> {
  const [agent, connect] = await Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/core/connect.js'),
  ]);
  return { Agent: agent.default, buildConnector: connect.default };
}
