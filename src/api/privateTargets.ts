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

function ipv4Kind(a: number[]): PrivateKind | undefined {
  if (a[0] === 127 || a[0] === 0) return 'loopback';
  if (a[0] === 10 || (a[0] === 172 && a[1] >= 16 && a[1] <= 31) || (a[0] === 192 && a[1] === 168)) return 'private';
  // carrier-grade NAT space is a network the person is on, too
  if (a[0] === 100 && a[1] >= 64 && a[1] <= 127) return 'private';
  if (a[0] === 169 && a[1] === 254) return 'link-local';
  return undefined;
}

/** The kind of a literal IP address (v4 or v6, brackets allowed), or undefined for a public one. */
export function addressKind(address: string): PrivateKind | undefined {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v = isIP(ip);
  if (v === 4) return ipv4Kind(ip.split('.').map(Number));
  if (v !== 6) return undefined;
  // IPv4-mapped (::ffff:10.0.0.1, or its hex form ::ffff:a00:1)
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/.exec(ip)?.[1];
  if (mapped) {
    if (isIP(mapped) === 4) return ipv4Kind(mapped.split('.').map(Number));
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(mapped);
    if (hex) {
      const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
      return ipv4Kind([hi >> 8, hi & 255, lo >> 8, lo & 255]);
    }
  }
  if (ip === '::1' || ip === '::') return 'loopback';
  if (/^f[cd]/.test(ip)) return 'private';
  if (/^fe[89ab]/.test(ip)) return 'link-local';
  return undefined;
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

/**
 * Decides, once per host and session, whether URLs on a private host may be read: asks the
 * person the first time (concurrent reads of the same host share one question) and remembers
 * the answer. Host names are resolved, so a public-looking name that points at 127.0.0.1 is
 * asked about too.
 */
export class PrivateTargetGuard {
  private readonly answers = new Map<string, Promise<PrivateKind | undefined>>();
  private readonly decided = new Map<string, boolean>();

  constructor(
    private readonly ask: AskPrivateTarget,
    private readonly resolve: ResolveHost,
  ) {}

  /** Resolves when `url` may be read; rejects with PrivateTargetRefused when the person said no. */
  async check(url: URL): Promise<void> {
    const host = url.host.toLowerCase();
    let pending = this.answers.get(host);
    if (!pending) {
      pending = this.decide(url.hostname, host);
      this.answers.set(host, pending);
    }
    const kind = await pending;
    if (kind !== undefined && this.decided.get(host) === false) throw new PrivateTargetRefused(host, kind);
  }

  private async decide(hostname: string, host: string): Promise<PrivateKind | undefined> {
    let kind = hostKind(hostname);
    if (kind === undefined && isIP(hostname.replace(/^\[|\]$/g, '')) === 0) {
      // A name: what it points at decides (an unresolvable name fails when it is read anyway).
      const addresses = await this.resolve(hostname).catch(() => [] as string[]);
      kind = addresses.map(addressKind).find((k) => k !== undefined);
    }
    if (kind === undefined) return undefined;
    this.decided.set(host, await this.ask(host, kind).catch(() => false));
    return kind;
  }
}
