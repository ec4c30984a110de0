// undici's index loads all of undici (every dispatcher, the mock agent, the caches, fetch and
// WebSocket): about 150 ms of CPU at every boot, in each of the eight processes. The services
// only send requests through an Agent, so they load those parts alone (about 75 ms). These are
// undici's own files, so the behaviour is the package's; `request` is its index's wrapper.
import type * as Undici from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import buildConnector from 'undici/lib/core/connect.js';
import errors from 'undici/lib/core/errors.js';
import util from 'undici/lib/core/util.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import globalDispatcher from 'undici/lib/global.js';

export { Agent, buildConnector };

/** undici's `request` (its index's wrapper, line for line): one request through
 * `options.dispatcher` or the global Agent. */
export const request = ((url: string | URL, options?: Undici.Dispatcher.RequestOptions) => {
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
  const { agent, dispatcher = globalDispatcher.getGlobalDispatcher(), ...rest } = opts;
  if (agent) throw new errors.InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    // `||` as undici has it: an empty method is the default too.
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  } as Undici.Dispatcher.RequestOptions);
}) as typeof Undici.request;
