/**
 * The HTTP layer: loopback server, body limits, JSON parsing, auth, error bodies, injected
 * faults (rules, fail rate, reset rate) and latency. Handlers never see raw sockets.
 */
import * as http from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { firstTooDeep } from '../api/jsonDepth';
import type { App } from './app';
import { HttpError, codeFor } from './errors';
import { pacer } from './pace';
import type { ErrorStyle, Res, Router } from './router';
import type { User } from './state';
import { checkVertexBudget } from './validate';

export const MAX_BODY = 5 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects a JSON body may have, scanned before it is parsed:
 * `JSON.parse` of a body nested thousands deep blocks the event loop for seconds (and
 * overflows the stack further on), and no request of the interface needs more than a dozen.
 */
export const MAX_BODY_NESTING = 64;

/**
 * A response body handed out piece by piece, letting the event loop run between pieces: a
 * whole file or a 16 MiB range is otherwise computed and written in one synchronous run for
 * as long as the socket accepts it (the sandbox can run inside the extension host).
 */
async function* paced(chunks: Iterable<Buffer>): AsyncGenerator<Buffer> {
  const turn = pacer();
  for (const chunk of chunks) {
    yield chunk;
    await turn();
  }
}

export interface FaultRule {
  method?: string;
  path: string | RegExp;
  status: number;
  count?: number;
  body?: unknown;
  contentType?: string;
  delayMs?: number;
  reset?: boolean;
  /** The route answers (`status` is not used), but the connection drops halfway through its body. */
  cutMidBody?: boolean;
}

export interface ServerOptions {
  latencyMs: number;
  failRate: number;
  resetRate: number;
  tokens: Map<string, User>;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Told `METHOD /path STATUS` as each answer ends ("cut" for a connection cut mid-answer). */
  onRequest?: (line: string) => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether a Host header names this machine's loopback interface (any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  return name === '127.0.0.1' || name.toLowerCase() === 'localhost' || name === '[::1]';
}

export function errorBody(style: ErrorStyle, status: number, message: string, details: string): unknown {
  if (style === 'project') return { message };
  return {
    error: {
      code: codeFor(status),
      message,
      details: style === 'archive' ? (details ? { field: details } : {}) : details,
    },
  };
}

function send(res: http.ServerResponse, r: Res, head: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.stream) {
    headers['content-type'] = r.contentType ?? 'application/octet-stream';
    headers['content-length'] = String(r.stream.length);
    res.writeHead(r.status, headers);
    if (head) res.end();
    // A failure mid-body can only cut the connection: the status is already sent.
    else
      pipeline(Readable.from(paced(r.stream.chunks()), { objectMode: false }), res, (e) => {
        if (e) res.destroy();
      });
    return;
  }
  let payload: Buffer | undefined;
  if (r.status !== 204 && r.status !== 304) {
    if (r.raw !== undefined) {
      payload = Buffer.isBuffer(r.raw) ? r.raw : Buffer.from(r.raw);
      headers['content-type'] = r.contentType ?? 'text/plain; charset=utf-8';
    } else {
      payload = Buffer.from(JSON.stringify(r.json ?? null));
      headers['content-type'] = r.contentType ?? 'application/json; charset=utf-8';
    }
    headers['content-length'] = String(payload.length);
  }
  res.writeHead(r.status, headers);
  res.end(head ? undefined : payload);
}

/** A fault rule's own answer, instead of the route's (`cutMidBody` rules let the route answer). */
async function answerFault(fault: FaultRule, req: http.IncomingMessage, res: http.ServerResponse, head: boolean): Promise<void> {
  if (fault.delayMs) await sleep(fault.delayMs);
  if (fault.reset) {
    req.socket.destroy();
    return;
  }
  const body = fault.body ?? errorBody('default', fault.status, `injected ${fault.status}`, 'fault');
  const raw = typeof body === 'string' ? body : undefined;
  send(
    res,
    {
      status: fault.status,
      ...(raw !== undefined ? { raw, contentType: fault.contentType ?? 'text/plain; charset=utf-8' } : { json: body, contentType: fault.contentType }),
      headers: { 'x-sandbox-injected': 'fault' },
    },
    head,
  );
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > MAX_BODY) {
      reject(new BodyError(413, `body is larger than the ${MAX_BODY} byte limit`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.removeAllListeners('data');
        reject(new BodyError(413, `body is larger than the ${MAX_BODY} byte limit`));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', (e) => reject(new BodyError(400, `body could not be read: ${e.message}`)));
    req.on('aborted', () => reject(new BodyError(400, 'body was truncated')));
  });
}

export class SandboxServer {
  readonly server: http.Server;
  private faults: (FaultRule & { left: number })[] = [];
  /** `METHOD /path` of the last 2,000 requests, oldest first: tests count what a command sent. */
  readonly requests: string[] = [];

  constructor(
    private readonly app: App,
    private readonly router: Router,
    private readonly opts: ServerOptions,
  ) {
    this.server = http.createServer(
      {
        headersTimeout: opts.headersTimeoutMs ?? 10_000,
        requestTimeout: opts.requestTimeoutMs ?? 30_000,
        connectionsCheckingInterval: Math.min(1000, opts.headersTimeoutMs ?? 1000),
        keepAliveTimeout: 5_000,
      },
      (req, res) => {
        this.handle(req, res).catch((e: unknown) => {
          // A bug in a handler: answer 500 without leaking internals, keep serving.
          send(res, { status: 500, json: errorBody('default', 500, 'internal error', (e as Error)?.constructor?.name ?? 'Error') }, false);
        });
      },
    );
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable || err.code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify(errorBody('default', status, 'malformed HTTP request', err.code ?? ''));
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
  }

  addFault(rule: FaultRule): void {
    if (!Number.isInteger(rule.status) || rule.status < 100 || rule.status > 599) throw new RangeError('fault status must be an HTTP status');
    this.faults.push({ ...rule, left: rule.count ?? 1 });
  }

  clearFaults(): void {
    this.faults = [];
  }

  private takeFault(method: string, path: string): FaultRule | undefined {
    const i = this.faults.findIndex(
      (f) => f.left > 0 && (!f.method || f.method.toUpperCase() === method) && (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
    );
    if (i < 0) return undefined;
    const f = this.faults[i];
    f.left--;
    if (f.left <= 0) this.faults.splice(i, 1);
    return f;
  }

  private authenticate(req: http.IncomingMessage): User | undefined {
    const h = req.headers.authorization;
    if (typeof h !== 'string') return undefined;
    const m = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(h);
    return m ? this.opts.tokens.get(m[1]) : undefined;
  }

  /** Keeps the last 2,000 for tests; tells `onRequest` the status as the answer ends. */
  private logRequest(method: string, path: string, res: http.ServerResponse): void {
    this.requests.push(`${method} ${path}`);
    if (this.requests.length > 2000) this.requests.splice(0, this.requests.length - 2000);
    const told = this.opts.onRequest;
    if (told) res.once('close', () => told(`${method} ${path} ${res.writableFinished ? res.statusCode : 'cut'}`));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const head = method === 'HEAD';
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.local');
    } catch {
      send(res, { status: 400, json: errorBody('default', 400, 'malformed request target', 'url') }, head);
      return;
    }
    const path = url.pathname;
    this.logRequest(method, path, res);
    if (!isLoopbackHost(req.headers.host)) {
      // The sandbox's tokens are public: a page on another site must not reach it through a
      // DNS name rebound to 127.0.0.1.
      send(
        res,
        { status: 421, json: errorBody('default', 421, 'the sandbox answers only to loopback host names (127.0.0.1, localhost, [::1])', 'host') },
        head,
      );
      return;
    }

    const fault = this.takeFault(method, path);
    if (fault && !fault.cutMidBody) {
      await answerFault(fault, req, res, head);
      return;
    }
    if (this.opts.latencyMs > 0) await sleep(this.opts.latencyMs);
    if (this.opts.failRate > 0 && Math.random() < this.opts.failRate) {
      send(
        res,
        { status: 500, json: errorBody('default', 500, 'injected failure (--fail-rate)', 'fail-rate'), headers: { 'x-sandbox-injected': 'fail-rate' } },
        head,
      );
      return;
    }
    const reset = fault?.cutMidBody === true || (this.opts.resetRate > 0 && Math.random() < this.opts.resetRate);

    let style: ErrorStyle = 'default';
    let out: Res;
    const turn = pacer();
    try {
      const m = this.router.match(method, path);
      if (m.kind === 'none') throw new HttpError(404, `no endpoint ${method} ${path.slice(0, 200)}`, 'path');
      if (m.kind === 'method') {
        style = m.style;
        throw new HttpError(405, `method ${method} is not allowed here; use ${m.allow.join(', ')}`, 'method', { allow: m.allow.join(', ') });
      }
      const route = m.route;
      style = route.style ?? 'default';
      let user: User | undefined;
      if (route.auth !== false) {
        user = this.authenticate(req);
        if (!user) throw new HttpError(401, 'missing or unknown access token in the Authorization header', 'authorization');
      }
      let body: unknown;
      if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
        let buf: Buffer;
        try {
          buf = await readBody(req);
        } catch (e) {
          if (e instanceof BodyError) throw new HttpError(e.status, e.message, 'body', e.status === 413 ? { connection: 'close' } : {});
          throw e;
        }
        if (route.body !== 'none') {
          // Each step of a large body (megabytes of geometry) takes tens of milliseconds: the
          // loop turns between them rather than once for the whole request.
          const text = buf.toString('utf8');
          if (text.trim() === '') {
            if (route.body !== 'optional') throw new HttpError(400, 'body: is required (a JSON object)', 'body');
          } else {
            await turn();
            const deep = firstTooDeep(text, MAX_BODY_NESTING);
            if (deep !== undefined) {
              throw new HttpError(400, `body: nests arrays and objects more than ${MAX_BODY_NESTING} levels deep (at character ${deep})`, 'body');
            }
            await turn();
            try {
              body = JSON.parse(text);
            } catch (e) {
              throw new HttpError(400, `body: is not valid JSON (${(e as Error).message.slice(0, 120)})`, 'body');
            }
            await turn();
            checkVertexBudget(body);
            await turn();
          }
        }
      }
      out = await route.handler({
        method,
        path,
        query: url.searchParams,
        headers: req.headers,
        params: m.params,
        body,
        user: user ?? this.app.world.users[0],
        app: this.app,
        now: this.app.clock.now(),
      });
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      out = { status: e.status, json: errorBody(style, e.status, e.message, e.details), headers: e.headers };
    }
    // the answer is written as JSON in one go: the handler's work and that are two turns
    await turn();
    if (reset && out.stream) {
      res.writeHead(out.status, { ...out.headers, 'content-type': out.contentType ?? 'application/octet-stream', 'content-length': String(out.stream.length) });
      setImmediate(() => req.socket.destroy());
      return;
    }
    if (reset) {
      // Headers and half the body, then the connection drops: what a flaky network does.
      const payload = Buffer.from(out.raw !== undefined ? out.raw : JSON.stringify(out.json ?? null));
      res.writeHead(out.status, { ...out.headers, 'content-type': out.contentType ?? 'application/json', 'content-length': String(payload.length) });
      // the half reaches the client before the drop, as bytes on the wire do
      res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => setTimeout(() => req.socket.destroy(), 20));
      return;
    }
    send(res, out, head);
  }
}
