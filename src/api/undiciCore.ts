/**
 * The parts of undici the client uses: `Pool` (the keep-alive pool for the service),
 * `Agent` and `buildConnector` (the dispatcher for other hosts' URLs, whose connections go
 * only to checked addresses: guardedConnect.ts) and `request` (one-off GETs of other hosts'
 * URLs, such as pre-signed downloads, through that dispatcher or the global one). undici's own entry point also loads fetch, WebSocket, the cache, cookie
 * helpers and the mocks, about 520 KB minified, all of it with the extension's first request;
 * this module needs about 300 KB. esbuild.mjs bundles it as dist/vendor/undici.js.
 *
 * It reaches into undici's `lib/` folder, which the package does not close off with an
 * `exports` map; the unit tier runs this very module, so an undici upgrade that moves these
 * files fails there first.
 */
import type { Agent as AgentClass, buildConnector as BuildConnector, Dispatcher as DispatcherClass, Pool as PoolClass } from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
const Dispatcher = require('undici/lib/dispatcher/dispatcher') as typeof DispatcherClass;
const api = require('undici/lib/api') as { request(this: DispatcherClass, options: DispatcherClass.RequestOptions): Promise<DispatcherClass.ResponseData> };
const { getGlobalDispatcher } = require('undici/lib/global') as { getGlobalDispatcher(): DispatcherClass };
export const Pool = require('undici/lib/dispatcher/pool') as typeof PoolClass;
export const Agent = require('undici/lib/dispatcher/agent') as typeof AgentClass;
export const buildConnector = require('undici/lib/core/connect') as typeof BuildConnector;
/* eslint-enable @typescript-eslint/no-require-imports */

// What undici's entry point does: every dispatcher (our Pool included) gets request() and the
// other promise APIs. Doing it twice (when the full package is loaded too) changes nothing.
Object.assign(Dispatcher.prototype, api);

export type RequestOptions = Omit<DispatcherClass.RequestOptions, 'origin' | 'path'> & {
  /** Sends through this dispatcher (e.g. guardedConnect.ts's) instead of the global one. */
  dispatcher?: DispatcherClass;
};

/**
 * undici's top-level `request(url, options)`. The global dispatcher may come from another copy
 * of undici (Node's own fetch installs one), whose prototype has no `request()`: like undici,
 * call the API function on it rather than a method of it.
 */
export function request(url: string | URL, options: RequestOptions): Promise<DispatcherClass.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = options;
  return api.request.call(dispatcher ?? getGlobalDispatcher(), { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
