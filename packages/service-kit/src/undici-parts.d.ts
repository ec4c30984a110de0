// Types for the undici files http-request.ts loads one by one (the package types only its index).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';

  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici';
  export default buildConnector;
}
declare module 'undici/lib/core/errors.js' {
  import { errors } from 'undici';

  const all: typeof errors;
  export default all;
}
declare module 'undici/lib/core/util.js' {
  const util: { parseURL(url: string | URL | object): URL; parseOrigin(url: string | URL | object): URL };
  export default util;
}
