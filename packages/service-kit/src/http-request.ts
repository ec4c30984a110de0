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

/** undici's `request`: one request through `options.dispatcher` or the global Agent. */
export const request = ((url: string | URL, options?: Undici.Dispatcher.RequestOptions) => {
  if (!url || (typeof url !== 'string' && !(url instanceof URL))) {
    throw new errors.InvalidArgumentError('invalid url');
  }
  const target = util.parseURL(url);
  const { dispatcher = globalDispatcher.getGlobalDispatcher(), ...rest } = (options ?? {}) as {
    dispatcher?: Undici.Dispatcher;
  } & Partial<Undici.Dispatcher.RequestOptions>;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: rest.method ?? (rest.body ? 'PUT' : 'GET'),
  });
}) as typeof Undici.request;
