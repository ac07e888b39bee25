/**
 * Addresses on this computer or its local network, in URLs the service hands out (an asset's
 * href, an output file, a signed download URL). The extension host fetches those URLs itself,
 * so a service (or whoever controls a record) could make it reach a router's admin page, a
 * cloud metadata endpoint (169.254.169.254) or a local dev server. Like VS Code's own link
 * protection, such a host needs the person's confirmation, once per host per session. The
 * service's own host (the base URL) is never asked about: the sandbox itself runs on loopback.
 */
import { isIP } from 'node:net';

export type PrivateKind = 'loopback' | 'private' | 'link-local';

function ipv4Kind(a: readonly number[]): PrivateKind | undefined {
  if (a[0] === 127 || a[0] === 0) return 'loopback';
  if (a[0] === 10 || (a[0] === 172 && a[1] >= 16 && a[1] <= 31) || (a[0] === 192 && a[1] === 168)) return 'private';
  // carrier-grade NAT space is a network the person is on, too
  if (a[0] === 100 && a[1] >= 64 && a[1] <= 127) return 'private';
  // the benchmarking range: labs and appliances put it on local networks
  if (a[0] === 198 && (a[1] === 18 || a[1] === 19)) return 'private';
  if (a[0] === 169 && a[1] === 254) return 'link-local';
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split). */
function ipv6Groups(ip: string): number[] {
  let s = ip.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : new Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...zeros, ...t].map((x) => parseInt(x, 16));
}

/**
 * An IPv6 address that carries an IPv4 one reaches that IPv4 host (through the dual stack, a
 * NAT64 gateway or a 6to4 relay): it is as private as the IPv4 address it carries.
 */
function ipv6Kind(g: readonly number[]): PrivateKind | undefined {
  const v4 = (hi: number, lo: number): number[] => [g[hi] >> 8, g[hi] & 255, g[lo] >> 8, g[lo] & 255];
  const zero = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  // ::a.b.c.d (IPv4-compatible, and with it ::1 and ::), ::ffff:a.b.c.d (mapped)
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return ipv4Kind(v4(6, 7));
  // ::ffff:0:a.b.c.d (IPv4-translated)
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Kind(v4(6, 7));
  // NAT64: the well-known prefix 64:ff9b::/96 carries the address; 64:ff9b:1::/48 is a local network's own
  if (g[0] === 0x64 && g[1] === 0xff9b) return zero(2, 6) ? ipv4Kind(v4(6, 7)) : g[2] === 1 ? 'private' : undefined;
  // 6to4: 2002:AABB:CCDD::/48 is the IPv4 address AA.BB.CC.DD's network
  if (g[0] === 0x2002) return ipv4Kind(v4(1, 2));
  // unique local fc00::/7, site-local fec0::/10 (deprecated, still routed inside sites), link-local fe80::/10
  if ((g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfec0) return 'private';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  return undefined;
}

/** The kind of a literal IP address (v4 or v6, brackets allowed), or undefined for a public one. */
export function addressKind(address: string): PrivateKind | undefined {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v = isIP(ip);
  if (v === 4) return ipv4Kind(ip.split('.').map(Number));
  return v === 6 ? ipv6Kind(ipv6Groups(ip)) : undefined;
}

/** The kind of a URL's host by its name alone (an IP literal, `localhost`), without DNS. */
export function hostKind(hostname: string): PrivateKind | undefined {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  return addressKind(h);
}

/** Asks the person whether the extension may read from `host` (a `kind` address). */
export type AskPrivateTarget = (host: string, kind: PrivateKind) => Promise<boolean>;
/** The addresses a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export class PrivateTargetRefused extends Error {
  override readonly name = 'PrivateTargetRefused';
  constructor(
    readonly host: string,
    readonly kind: PrivateKind,
  ) {
    super(
      `${host} is ${kind === 'loopback' ? 'on this computer' : kind === 'link-local' ? 'a link-local address' : 'on your local network'}; reading from it was not allowed (reload the window to be asked again)`,
    );
  }
}

/** A host name as URLs and connectors spell it, for comparing: no brackets, no final dot, lower case. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Decides, once per host and session, whether URLs on a private host may be read: asks the
 * person the first time (concurrent reads of the same host share one question) and remembers
 * the answer. It is asked twice per read: `check` before the request, by the URL's name and
 * what it resolves to then, and `checkConnection` as each connection is opened, with the
 * addresses that connection goes to (see guardedConnect.ts). A name that resolves to a public
 * address when checked and to 127.0.0.1 when connected to (DNS rebinding) is asked about at
 * the second. The answer is per host and kind: a host allowed on the local network is asked
 * again if it turns out to be on this computer.
 */
export class PrivateTargetGuard {
  /** What each host's name pointed at when `check` first saw it. */
  private readonly kinds = new Map<string, Promise<PrivateKind | undefined>>();
  /** The person's answer per host and kind. */
  private readonly answers = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ask: AskPrivateTarget,
    /** How names are resolved, by `check` and by the connections (guardedConnect.ts). */
    readonly resolve: ResolveHost,
    /** A host never asked about: the service's own (the sandbox runs on loopback). */
    private readonly exempt: (hostname: string) => boolean = () => false,
  ) {}

  /** Resolves when `url` may be read; rejects with PrivateTargetRefused when the person said no. */
  async check(url: URL): Promise<void> {
    if (this.exempt(bareHost(url.hostname))) return;
    const host = url.host.toLowerCase();
    let pending = this.kinds.get(host);
    if (!pending) {
      pending = this.kindOfName(url.hostname);
      this.kinds.set(host, pending);
    }
    const kind = await pending;
    if (kind !== undefined) await this.allow(host, kind);
  }

  /**
   * Resolves when a connection to `host` (`name:port` as in a URL) may go to `addresses`, the
   * addresses it will be pinned to; rejects with PrivateTargetRefused when the person said no.
   */
  async checkConnection(host: string, hostname: string, addresses: readonly string[]): Promise<void> {
    if (this.exempt(bareHost(hostname))) return;
    const kind = hostKind(bareHost(hostname)) ?? addresses.map(addressKind).find((k) => k !== undefined);
    if (kind !== undefined) await this.allow(host.toLowerCase(), kind);
  }

  private async kindOfName(hostname: string): Promise<PrivateKind | undefined> {
    const kind = hostKind(hostname);
    if (kind !== undefined || isIP(bareHost(hostname)) !== 0) return kind;
    // A name: what it points at decides (an unresolvable name fails when it is read anyway).
    const addresses = await this.resolve(hostname).catch(() => [] as string[]);
    return addresses.map(addressKind).find((k) => k !== undefined);
  }

  private async allow(host: string, kind: PrivateKind): Promise<void> {
    const key = `${host} ${kind}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.ask(host, kind).catch(() => false);
      this.answers.set(key, answer);
    }
    if (!(await answer)) throw new PrivateTargetRefused(host, kind);
  }
}
