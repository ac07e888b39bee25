/**
 * The dispatcher for URLs on other hosts (imagery on a CDN, output files, signed downloads,
 * thumbnails): each connection it opens resolves the host itself, has the addresses checked
 * (`PrivateTargetGuard.checkConnection`: a private one needs the person's leave) and is
 * pinned to exactly those addresses. A check by name before the request is not enough on its
 * own: the connection would resolve the name again, and a name can answer a public address
 * to the check and 127.0.0.1 to the connection (DNS rebinding).
 *
 * The check runs before undici's connect timer starts, so the person can take their time
 * over the question.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import type { ResolveHost } from './privateTargets';
import { undici } from './undici';

/** What a connection asks before it connects (PrivateTargetGuard). */
export interface ConnectionCheck {
  resolve: ResolveHost;
  /** Rejects to refuse a connection to `host` (`name:port` as in its URL) at `addresses`. */
  checkConnection(host: string, hostname: string, addresses: readonly string[]): Promise<void>;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for `net.connect` that answers only `addresses`, the ones that were checked. */
export function pinnedLookup(addresses: readonly string[]): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (_hostname, options, callback) => {
    const all = addresses.map((address) => ({ address, family: isIP(address) }));
    const fit = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
    if (fit.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`no IPv${String(options.family)} address among the checked ones`);
      err.code = 'ENOTFOUND';
      callback(err, '');
    } else if (options.all) callback(null, fit);
    else callback(null, fit[0].address, fit[0].family);
  };
}

/** The addresses a connection to `hostname` goes to, once `check` allowed them. */
async function checkedAddresses(check: ConnectionCheck, host: string, hostname: string): Promise<string[]> {
  const addresses = isIP(hostname) ? [hostname] : await check.resolve(hostname);
  if (addresses.length === 0) {
    const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    err.code = 'ENOTFOUND';
    throw err;
  }
  await check.checkConnection(host, hostname, addresses);
  return addresses;
}

/**
 * A connector that checks, then connects to the checked addresses only. Each connection gets
 * a connector of its own, with its addresses in its `lookup`; TLS still names and verifies the
 * host (the SNI and certificate check use the URL's name, not the address).
 */
export function guardedConnector(check: ConnectionCheck, connectTimeoutMs?: number): buildConnector.connector {
  return (options, callback) => {
    const host = options.host ?? options.hostname;
    checkedAddresses(check, host, options.hostname).then(
      (addresses) => undici().buildConnector({ timeout: connectTimeoutMs, lookup: pinnedLookup(addresses) })(options, callback),
      (err: Error) => callback(err, null),
    );
  };
}

/** The dispatcher for other hosts' URLs; close it when the session ends. */
export function guardedAgent(check: ConnectionCheck, connectTimeoutMs?: number): Dispatcher {
  return new (undici().Agent)({ connect: guardedConnector(check, connectTimeoutMs) });
}
