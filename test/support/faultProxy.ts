/**
 * A fault-injecting HTTP proxy for the test tiers, placed between the extension and the sandbox
 * (or any loopback server). Toxiproxy made these faults the standard vocabulary; it is not
 * installable here, so this writes the few the tests need, at the HTTP level so that one rule
 * can target one request (`POST /v0/orders`) on a keep-alive connection:
 *
 * - `latency`      delay the response headers and each body chunk by ms ± jitter
 * - `bandwidth`    at most N bytes a second of response body
 * - `slicer`       body cut into small slices, each sent after a pause
 * - `limitData`    close the connection (FIN) after N bytes of body
 * - `resetPeer`    reset the connection (RST) after N bytes of body (0: before the headers)
 * - `timeout`      send N bytes of body, then nothing more (the connection stays open)
 * - `status`       answer without asking upstream: a 429/503 storm with `Retry-After`
 * - `lostAnswer`   forward the request, let upstream answer in full, then reset the
 *                  connection before a byte of that answer reaches the client (a POST whose
 *                  effect happened while its answer was lost)
 *
 * DNS that fails needs no proxy: point the client at `unresolvableUrl()` (RFC 6761 `.invalid`).
 *
 * Seeded (mulberry32, the sandbox's `Rng`): rules with a `probability` and the jitter of
 * `latency` draw from one stream, so a run with the same seed and the same requests replays the
 * same faults. The seed is `EO_FAULT_SEED` when set, and every proxy prints it once, so a
 * failing run can be replayed. The proxy keeps the `Host` header. The sandbox writes its links
 * (signed files, STAC hrefs) from its own address, or from `--public-url` (`publicUrl`): started
 * with the proxy's address there (`retarget` after it starts), its downloads go through the proxy too.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Rng } from '../../src/sandbox/prng';

export type Toxic =
  | { kind: 'latency'; ms: number; jitterMs?: number }
  | { kind: 'bandwidth'; bytesPerSecond: number }
  | { kind: 'slicer'; sliceBytes: number; delayMs: number }
  | { kind: 'limitData'; bytes: number }
  | { kind: 'resetPeer'; afterBytes: number }
  | { kind: 'timeout'; afterBytes: number; closeAfterMs?: number }
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  | { kind: 'lostAnswer' };

export interface FaultRule {
  /** Which requests: a method (any when absent) and a path test on the path with its query. */
  method?: string;
  path?: string | RegExp;
  /** How many matching requests it applies to; all of them when absent. */
  times?: number;
  /** The chance (seeded) that a matching request gets the toxic. Default 1. */
  probability?: number;
  /** Applies only until this many ms after the rule was added (a storm's length). */
  forMs?: number;
  toxic: Toxic;
}

export interface ProxiedRequest {
  method: string;
  path: string;
  /** `range` header as sent, for tests of resumed downloads. */
  range?: string;
  ifRange?: string;
  /** The toxic applied, if any. */
  toxic?: Toxic['kind'];
  /** Upstream's status (undefined when the proxy answered itself or upstream failed). */
  status?: number;
  /** Bytes of response body that left the proxy. */
  bodyBytes: number;
}

export interface FaultProxyOptions {
  /** The server to forward to, e.g. the sandbox's url. */
  upstream: string;
  seed?: number;
  /** Prints the seed (default true; quiet for the proxy's own tests). */
  announceSeed?: boolean;
}

interface LiveRule extends FaultRule {
  left: number;
  until: number;
}

/** A toxic that decides, chunk by chunk, what of the body goes out and when. */
interface BodyPlan {
  /** Delay before the response headers, ms. */
  headDelay: number;
  /** Bytes after which the body stops, and what happens then. */
  stopAt?: number;
  stop?: 'fin' | 'rst' | 'stall';
  closeAfterMs?: number;
  /** Per chunk: bytes per slice and the pause between slices, or a rate. */
  sliceBytes?: number;
  sliceDelay?: number;
  bytesPerSecond?: number;
  chunkDelay?: () => number;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export class FaultProxy {
  readonly seed: number;
  readonly log: ProxiedRequest[] = [];
  private readonly rng: Rng;
  private target: URL;
  private rules: LiveRule[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  private constructor(options: FaultProxyOptions) {
    this.target = new URL(options.upstream);
    const fromEnv = Number(process.env.EO_FAULT_SEED);
    this.seed = options.seed ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31) + 1);
    this.rng = new Rng(this.seed);
    if (options.announceSeed !== false) console.log(`[fault proxy] seed ${this.seed} (replay with EO_FAULT_SEED=${this.seed})`);
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 5_000;
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Starts a proxy on a free loopback port. */
  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const proxy = new FaultProxy(options);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as AddressInfo).port;
    return proxy;
  }

  /**
   * Forwards to `upstream` from now on: a server that must know the proxy's address before it
   * starts (the sandbox's `--public-url`) is started after the proxy.
   */
  retarget(upstream: string): void {
    this.target = new URL(upstream);
  }

  /** The proxy's base URL, with upstream's path prefix. */
  get url(): string {
    return `http://127.0.0.1:${this.port}${this.target.pathname.replace(/\/$/, '')}`;
  }

  /** A URL whose host name never resolves (RFC 6761), on the proxy's port. */
  unresolvableUrl(): string {
    return `http://eo-fault-proxy.invalid:${this.port}`;
  }

  /** Adds a rule; rules are tried in the order they were added, the first that applies wins. */
  add(rule: FaultRule): void {
    this.rules.push({ ...rule, left: rule.times ?? Infinity, until: rule.forMs === undefined ? Infinity : Date.now() + rule.forMs });
  }

  /** Removes every rule (the log stays). */
  clear(): void {
    this.rules = [];
  }

  /** Requests seen, as `METHOD /path`. */
  requests(method?: string): string[] {
    return this.log.filter((r) => method === undefined || r.method === method).map((r) => `${r.method} ${r.path}`);
  }

  /** Closes the listener and every open connection. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private take(method: string, path: string): Toxic | undefined {
    const now = Date.now();
    this.rules = this.rules.filter((r) => r.left > 0 && r.until > now);
    for (const rule of this.rules) {
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (rule.path !== undefined && !(typeof rule.path === 'string' ? path.startsWith(rule.path) : rule.path.test(path))) continue;
      // A rule that matches but loses its draw leaves the request to the next rule: several
      // rules with a probability each mix their toxics (5 % resets of three kinds, 1 % 503s).
      if (rule.probability !== undefined && !this.rng.chance(rule.probability)) continue;
      rule.left--;
      return rule.toxic;
    }
    return undefined;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const entry: ProxiedRequest = { method, path, bodyBytes: 0, range: header(req, 'range'), ifRange: header(req, 'if-range') };
    this.log.push(entry);
    const toxic = this.take(method, path);
    entry.toxic = toxic?.kind;
    if (toxic?.kind === 'status') {
      req.resume();
      const body = toxic.body ?? JSON.stringify({ error: { code: toxic.status, message: http.STATUS_CODES[toxic.status] ?? 'fault' } });
      const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      if (toxic.retryAfter !== undefined) headers['retry-after'] = toxic.retryAfter;
      res.writeHead(toxic.status, headers).end(body);
      return;
    }
    if (toxic?.kind === 'resetPeer' && toxic.afterBytes <= 0) {
      req.resume();
      req.socket.resetAndDestroy();
      return;
    }
    const upstream = http.request(
      {
        host: this.target.hostname,
        port: this.target.port,
        method,
        path,
        headers: forwardHeaders(req.headers),
      },
      (up) => {
        entry.status = up.statusCode;
        if (toxic?.kind === 'lostAnswer') {
          // Upstream has done the work; the client never hears of it.
          up.resume();
          up.on('end', () => req.socket.resetAndDestroy());
          return;
        }
        this.respond(up, res, entry, this.plan(toxic));
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('fault proxy: upstream failed');
      else res.destroy();
    });
    req.pipe(upstream);
  }

  private plan(toxic: Toxic | undefined): BodyPlan {
    switch (toxic?.kind) {
      case 'latency': {
        const delay = (): number => Math.max(0, toxic.ms + (toxic.jitterMs ? this.rng.range(-toxic.jitterMs, toxic.jitterMs) : 0));
        return { headDelay: delay(), chunkDelay: delay };
      }
      case 'bandwidth':
        return { headDelay: 0, bytesPerSecond: toxic.bytesPerSecond };
      case 'slicer':
        return { headDelay: 0, sliceBytes: toxic.sliceBytes, sliceDelay: toxic.delayMs };
      case 'limitData':
        return { headDelay: 0, stopAt: toxic.bytes, stop: 'fin' };
      case 'resetPeer':
        return { headDelay: 0, stopAt: toxic.afterBytes, stop: 'rst' };
      case 'timeout':
        return { headDelay: 0, stopAt: toxic.afterBytes, stop: 'stall', closeAfterMs: toxic.closeAfterMs };
      default:
        return { headDelay: 0 };
    }
  }

  private respond(up: http.IncomingMessage, res: http.ServerResponse, entry: ProxiedRequest, plan: BodyPlan): void {
    const socket = res.socket;
    const out = async (): Promise<void> => {
      await sleep(plan.headDelay);
      res.writeHead(up.statusCode ?? 502, up.statusMessage, responseHeaders(up.headers));
      if (plan.stopAt !== undefined && plan.stopAt <= 0) return this.stop(res, socket, plan, up);
      for await (const chunk of up as AsyncIterable<Buffer>) {
        let data = chunk;
        if (plan.stopAt !== undefined && entry.bodyBytes + data.length >= plan.stopAt) {
          data = data.subarray(0, plan.stopAt - entry.bodyBytes);
          await this.send(res, data, entry, plan);
          // Let what was written reach the socket before it is closed or reset.
          await flushed(socket);
          return this.stop(res, socket, plan, up);
        }
        await this.send(res, data, entry, plan);
        if (res.destroyed) return;
      }
      res.end();
    };
    out().catch(() => res.destroy());
  }

  private async send(res: http.ServerResponse, data: Buffer, entry: ProxiedRequest, plan: BodyPlan): Promise<void> {
    if (plan.chunkDelay) await sleep(plan.chunkDelay());
    const slice = plan.sliceBytes ?? (plan.bytesPerSecond ? Math.max(1, Math.ceil(plan.bytesPerSecond / 20)) : data.length);
    for (let at = 0; at < data.length && !res.destroyed; at += slice) {
      const part = data.subarray(at, at + slice);
      if (!res.write(part)) await new Promise<void>((resolve) => res.once('drain', () => resolve()));
      entry.bodyBytes += part.length;
      if (plan.sliceDelay) await sleep(plan.sliceDelay);
      else if (plan.bytesPerSecond) await sleep((part.length / plan.bytesPerSecond) * 1000);
    }
  }

  private stop(res: http.ServerResponse, socket: Socket | null, plan: BodyPlan, up: http.IncomingMessage): void {
    up.destroy();
    if (plan.stop === 'rst') socket?.resetAndDestroy();
    else if (plan.stop === 'fin') socket?.end();
    else if (plan.closeAfterMs !== undefined) setTimeout(() => res.destroy(), plan.closeAfterMs).unref();
    // 'stall' with no closeAfterMs: the connection stays open until the client gives up.
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function forwardHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && k !== 'host') out[k] = v;
  // The Host the client used, so links the server builds lead back through the proxy.
  if (headers.host) out['x-forwarded-host'] = headers.host;
  out.host = headers.host;
  return out;
}

function responseHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** Resolves once what was written to `socket` has been handed to the kernel. */
function flushed(socket: Socket | null): Promise<void> {
  // An empty write's callback runs after every earlier write has been flushed.
  return new Promise((resolve) => (socket && !socket.destroyed ? socket.write(Buffer.alloc(0), () => resolve()) : resolve()));
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
