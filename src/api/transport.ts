/**
 * The one place that talks HTTP: a keep-alive undici pool for the base URL, auth and
 * user-agent headers, per-request header/body timeouts, cancellation, retries of idempotent
 * reads, error decoding, and request events with secrets redacted.
 */
import type { Dispatcher, Pool } from 'undici';
import { undici } from './undici';
import { linkSignal } from './abortFanout';
import { ApiError, decodeErrorBody, redactText, scrubError, statusTitle } from './errors';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs, sleep, type RetryOptions } from './retry';
import { passGate } from './requestGate';
import { ShapeError } from './shape';
import { readRangeBody, type RangeOptions, type RangeResult } from './rangeRead';
import { unreadableOf, withUnreadable, type UnreadableRecord } from './unreadable';

export type { RangeOptions, RangeResult };
export { RANGE_IGNORED } from './rangeRead';

export type AuthScheme = 'bearer' | 'raw';
export type TokenSource = string | (() => Promise<string | undefined> | string | undefined);

export interface ClientOptions {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  /** The access token, or a function asked before every request (e.g. reads SecretStorage). */
  token?: TokenSource;
  /** `bearer` sends `Authorization: Bearer <t>`; `raw` sends the bare token. Default `bearer`. */
  authScheme?: AuthScheme;
  /**
   * Header timeout, body idle timeout, and the most the whole body may take once the headers
   * arrived (a server dribbling one byte at a time is cut off too). Default 30 s.
   */
  timeoutMs?: number;
  /** The largest response body read into memory (JSON and text). Default 64 MiB. */
  maxResponseBytes?: number;
  /** e.g. `eo-imagery-vscode/0.1.0 (VS Code 1.100.0)`. */
  userAgent: string;
  /** Called once per attempt, after it ends; secrets are already redacted. */
  onRequest?: (e: RequestEvent) => void;
  /**
   * Called before the client reads a URL the service pointed to on another host (an imagery
   * range read, an output file); rejects to refuse it (a private address the person did not
   * allow, see privateTargets.ts).
   */
  checkTarget?: (url: URL) => Promise<void>;
  /** Called when a listing's answer left records out because they do not fit (secrets redacted). */
  onUnreadable?: (e: UnreadableEvent) => void;
  retry?: RetryOptions;
  /** Keep-alive connections to the service. Default 6. */
  connections?: number;
}

/** Options every client method accepts. */
export interface CallOptions {
  /** Cancels the request (and any retry wait or polling). */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
}

export interface RequestEvent {
  method: string;
  /**
   * Path with query string, relative to the base URL; for a file on another host (an imagery
   * read) its absolute URL, the query shown as `?…` (it may be a signature).
   */
  path: string;
  /** Set when `path` is already absolute: the request did not go below the base URL. */
  absolute?: boolean;
  /** HTTP status, when a response arrived. */
  status?: number;
  ms: number;
  /** Response body size in bytes (UTF-8), when it was read. */
  bytes?: number;
  /** 1 for the first try, 2 for the first retry, … */
  attempt: number;
  /** Set when this attempt failed: the server's or our own account of it, never a token. */
  error?: { kind: ApiError['kind']; message: string };
  /** Set when the client will try again after this many ms. */
  retryInMs?: number;
  /** Request headers, `authorization` redacted. */
  requestHeaders: Record<string, string>;
  /** Request body, every `secrets` object redacted. */
  requestBody?: unknown;
}

export interface UnreadableEvent {
  method: string;
  /** Path with query string, relative to the base URL. */
  path: string;
  records: UnreadableRecord[];
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'HEAD' | 'PUT' | 'PATCH';
export type QueryValue = string | number | boolean | readonly string[] | null | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestSpec {
  method: HttpMethod;
  /** Already-encoded path below the base URL (build it with `pathOf`). */
  path: string;
  query?: Query;
  body?: unknown;
  accept?: string;
  /** Ping is the only unauthenticated endpoint. */
  auth?: boolean;
}

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  text: string;
  /** Bytes received. */
  bytes: number;
  /** The body as received, for binary answers (the visualization PNG). */
  raw?: Buffer;
}

export const REDACTED = '[redacted]';
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** One line for the output channel: what was asked, how it ended, how long it took. */
export function describeRequest(e: RequestEvent): string {
  const outcome = e.status !== undefined ? String(e.status) : e.error ? `${e.error.kind} error` : 'no response';
  // A status says what happened (the server's text reaches the person, not the log); a
  // request that got none says why.
  const why = e.error && e.status === undefined ? ` (${e.error.kind}: ${e.error.message})` : '';
  const retry = e.retryInMs !== undefined ? `; retrying in ${Math.round(e.retryInMs)} ms` : '';
  // A byte-range read names its range (the header is what makes it a different request).
  const range = e.requestHeaders.range ? ` [${e.requestHeaders.range}]` : '';
  return `${e.method} ${e.path}${range} → ${outcome} in ${Math.round(e.ms)} ms${e.bytes !== undefined ? `, ${e.bytes} B` : ''}${why}${retry}`;
}

/**
 * Build a path from a template, encoding every interpolated value as one path segment:
 * an id containing `/`, `?`, `#`, `%` or unicode cannot change which resource is addressed.
 */
export function pathOf(strings: TemplateStringsArray, ...values: readonly string[]): string {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += encodeSegment(values[i]) + strings[i + 1];
  return out;
}

export function encodeSegment(value: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`a path parameter must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  // "." and ".." would be resolved away by URL normalisation along the way.
  if (value === '.' || value === '..') return value.replace(/\./g, '%2E');
  return encodeURIComponent(value);
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    const s = Array.isArray(v) ? v.join(',') : String(v);
    if (Array.isArray(v) && v.length === 0) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(s)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function isSecretKey(key: string): boolean {
  return key === 'authorization' || key === 'token' || key === 'access_token' || key === 'secret' || key.endsWith('_secret') || key === 'password';
}

/** Deep copy with every `secrets` object's values (and any authorization/token key) masked. */
export function redactBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redactBody);
  if (typeof body !== 'object' || body === null) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const key = k.toLowerCase();
    if (key === 'secrets' && typeof v === 'object' && v !== null) {
      out[k] = Object.fromEntries(Object.keys(v).map((sk) => [sk, REDACTED]));
    } else if (isSecretKey(key)) {
      out[k] = REDACTED;
    } else {
      out[k] = redactBody(v);
    }
  }
  return out;
}

/** The string values redactBody masks: a server that echoes one must not get it shown. */
export function secretsIn(body: unknown, out: string[] = []): string[] {
  if (Array.isArray(body)) {
    for (const v of body) secretsIn(v, out);
  } else if (typeof body === 'object' && body !== null) {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      const key = k.toLowerCase();
      if (key === 'secrets' && typeof v === 'object' && v !== null) {
        for (const sv of Object.values(v as Record<string, unknown>)) if (typeof sv === 'string') out.push(sv);
      } else if (isSecretKey(key) && typeof v === 'string') out.push(v);
      else secretsIn(v, out);
    }
  }
  return out;
}

export class Transport {
  /** Opened on the first request: a client made at start-up must not load undici then. */
  private openPool?: Pool;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly retry: Required<RetryOptions>;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private closed = false;
  /** Tokens seen by this client, scrubbed out of every error. */
  private readonly knownTokens = new Set<string>();

  constructor(private readonly opts: ClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(opts.baseUrl)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be http(s), got ${url.protocol}`);
    }
    if (url.username || url.password) throw new TypeError('baseUrl must not carry credentials; use the token option');
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    if (!(this.timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${this.timeoutMs}`);
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!(this.maxResponseBytes > 0)) throw new RangeError(`maxResponseBytes must be positive, got ${this.maxResponseBytes}`);
  }

  private get pool(): Pool {
    this.openPool ??= new (undici().Pool)(this.origin, {
      connections: this.opts.connections ?? 6,
      keepAliveTimeout: 30_000,
      connect: { timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    return this.openPool;
  }

  get baseUrl(): string {
    return this.origin + this.basePath;
  }

  /** Whether `href` points below this client's base URL (so our token may be sent there). */
  isOwnUrl(href: string): boolean {
    try {
      const u = new URL(href, this.baseUrl + '/');
      return u.origin === this.origin && (u.pathname === this.basePath || u.pathname.startsWith(this.basePath + '/'));
    } catch {
      return false;
    }
  }

  /** Resolves when a URL the service pointed to may be read (see `ClientOptions.checkTarget`). */
  async checkTarget(href: string): Promise<void> {
    if (this.isOwnUrl(href) || !this.opts.checkTarget) return;
    await this.opts.checkTarget(new URL(href, this.baseUrl + '/'));
  }

  /** The `Authorization` header for a file the service points to: only below the base URL. */
  async authHeadersFor(href: string): Promise<Record<string, string>> {
    if (!this.isOwnUrl(href)) return {};
    const token = await this.token();
    if (!token) return {};
    this.knownTokens.add(token);
    return { authorization: this.opts.authScheme === 'raw' ? token : `Bearer ${token}` };
  }

  /** Turn an absolute link of the service into a path + query below the base URL. */
  relativePath(href: string): string {
    const u = new URL(href, this.baseUrl + '/');
    return u.pathname.slice(this.basePath.length) + u.search;
  }

  /**
   * One GET of a byte range of a file (a GeoTIFF asset): with the token when the file is below
   * the base URL, without it anywhere else. See `rangeRead.ts`.
   */
  async range(href: string, offset: number, length: number, opts: RangeOptions): Promise<RangeResult> {
    const own = this.isOwnUrl(href);
    const u = new URL(href, this.baseUrl + '/');
    // another host's query may be a signature (pre-signed URLs): the log shows "?…" instead
    const shown = own ? this.relativePath(href) : `${u.origin}${u.pathname}${u.search ? '?…' : ''}`;
    const headers: Record<string, string> = {
      accept: 'image/tiff, application/octet-stream, */*',
      'user-agent': this.opts.userAgent,
      range: `bytes=${offset}-${offset + length - 1}`,
    };
    if (own) {
      const token = await this.token();
      if (token) {
        this.knownTokens.add(token);
        headers.authorization = this.opts.authScheme === 'raw' ? token : `Bearer ${token}`;
      }
    }
    if (!own && this.opts.checkTarget) {
      try {
        await this.opts.checkTarget(u);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        throw new ApiError({ kind: 'protocol', method: 'GET', path: shown, detailMessage: message, userMessage: message });
      }
    }
    await passGate({ method: 'GET', path: shown, attempt: 1 });
    const timeout = opts.timeoutMs ?? this.timeoutMs;
    // a pre-signed URL's query values are secrets too: a server may echo the request
    const secrets = [...this.knownTokens, ...[...u.searchParams.values()].filter((v) => v.length >= 8)];
    const started = performance.now();
    let status: number | undefined;
    let bytes: number | undefined;
    let error: ApiError | undefined;
    try {
      const request = own
        ? this.pool.request({
            origin: this.origin,
            path: u.pathname + u.search,
            method: 'GET',
            headers,
            signal: opts.signal,
            headersTimeout: timeout,
            bodyTimeout: timeout,
          })
        : undici().request(u, { method: 'GET', headers, signal: opts.signal, headersTimeout: timeout, bodyTimeout: timeout });
      const res = await request;
      status = res.statusCode;
      const result = await readRangeBody(
        res,
        offset,
        length,
        opts,
        (e) => (error = new ApiError({ kind: e.kind, method: 'GET', path: shown, status, code: e.code, detailMessage: e.message, userMessage: e.message })),
        secrets,
      );
      bytes = result?.body.byteLength;
      if (result) return result;
      if (!error) error = new ApiError({ kind: 'protocol', method: 'GET', path: shown, detailMessage: 'no body' });
      throw error;
    } catch (e) {
      if (e === error) throw scrubError(e as ApiError, secrets);
      error = scrubError(this.transportError(e, 'GET', shown, opts.signal, timeout), secrets);
      throw error;
    } finally {
      this.emit({
        method: 'GET',
        path: shown,
        absolute: !own,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        bytes,
        attempt: 1,
        error: error && { kind: error.kind, message: error.message },
        headers,
        body: undefined,
      });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.openPool?.close();
  }

  /** A JSON request; `parse` checks and normalises the decoded body (throw `ShapeError`). */
  async json<T>(spec: RequestSpec, parse: (body: unknown) => T, call?: CallOptions): Promise<T> {
    const res = await this.send(spec, call);
    const out = this.decodeJson(spec, res, parse);
    const left = unreadableOf(out);
    if (left.length === 0) return out;
    // The reasons quote short values of the service's records: no token may reach a view or the log.
    const secrets = [...this.knownTokens];
    const records = left.map((r) => ({ ...r, reason: redactText(r.reason, secrets), ...(r.id ? { id: redactText(r.id, secrets) } : {}) }));
    this.reportUnreadable(spec, records);
    return withUnreadable(out as T & object, records) as T;
  }

  private reportUnreadable(spec: RequestSpec, records: UnreadableRecord[]): void {
    const event: UnreadableEvent = { method: spec.method, path: spec.path + buildQuery(spec.query), records };
    try {
      this.opts.onUnreadable?.(event);
    } catch {
      // A broken logger must not break requests.
    }
  }

  /** A request whose body is returned as text (reports). */
  async text(spec: RequestSpec, call?: CallOptions): Promise<RawResponse> {
    return this.send(spec, call);
  }

  decodeJson<T>(spec: RequestSpec, res: RawResponse, parse: (body: unknown) => T): T {
    const where = spec.path + buildQuery(spec.query);
    const ct = res.contentType?.toLowerCase() ?? '';
    if (ct.includes('text/html')) {
      const d = decodeErrorBody(res.status, ct, res.text, [...this.knownTokens]);
      throw this.protocol(spec.method, where, `expected JSON, got an HTML page (${d.message})`);
    }
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch (e) {
      const what = res.text.trim() === '' ? 'an empty body' : `a body that is not JSON (${(e as Error).message})`;
      throw this.protocol(spec.method, where, `expected JSON, got ${what}`);
    }
    try {
      return parse(body);
    } catch (e) {
      if (e instanceof ShapeError) throw this.protocol(spec.method, where, e.message);
      throw e;
    }
  }

  private protocol(method: string, path: string, message: string): ApiError {
    return scrubError(new ApiError({ kind: 'protocol', method, path, detailMessage: message }), [...this.knownTokens]);
  }

  /** Send with retries; resolves with a 2xx response, or throws an `ApiError`. */
  async send(spec: RequestSpec, call: CallOptions = {}): Promise<RawResponse> {
    if (this.closed) throw new ApiError({ kind: 'network', method: spec.method, path: spec.path, detailMessage: 'the client was closed' });
    const signal = call.signal;
    const pathWithQuery = spec.path + buildQuery(spec.query);
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const bodySecrets = secretsIn(spec.body);
    /** What the last attempt ended in: a retry the caller's gate refuses ends the call with it. */
    let last: ApiError | undefined;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.aborted(spec.method, pathWithQuery);
      try {
        await passGate({ method: spec.method, path: pathWithQuery, attempt });
      } catch (refused) {
        throw last ?? refused;
      }
      const started = performance.now();
      const headers = await this.headers(spec, payload !== undefined);
      const secrets = [...this.knownTokens, ...bodySecrets];
      let result: RawResponse | undefined;
      let error: ApiError | undefined;
      try {
        result = await this.once(spec.method, pathWithQuery, headers, payload, call);
        if (result.status < 200 || result.status > 299) error = this.httpError(spec.method, pathWithQuery, result, secrets);
      } catch (e) {
        error = this.transportError(e, spec.method, pathWithQuery, signal, call.timeoutMs ?? this.timeoutMs);
      }
      if (error) error = scrubError(error, secrets);
      let retryIn: number | undefined;
      if (error && attempt <= this.retry.retries && isRetryable(spec.method, error)) {
        retryIn = retryDelayMs(attempt, this.retry, error.retryAfterMs);
      }
      this.emit({
        method: spec.method,
        path: pathWithQuery,
        status: result?.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        bytes: result?.bytes,
        attempt,
        error: error && { kind: error.kind, message: error.serverMessage },
        retryInMs: retryIn,
        headers,
        body: spec.body,
      });
      if (!error && result) return result;
      if (retryIn === undefined) throw error;
      last = error;
      const waiting = linkSignal(signal);
      try {
        await sleep(retryIn, waiting.signal);
      } catch {
        throw this.aborted(spec.method, pathWithQuery);
      } finally {
        waiting.release();
      }
    }
  }

  private async headers(spec: RequestSpec, hasBody: boolean): Promise<Record<string, string>> {
    const h: Record<string, string> = {
      accept: spec.accept ?? 'application/json',
      'user-agent': this.opts.userAgent,
    };
    if (hasBody) h['content-type'] = 'application/json';
    if (spec.auth !== false) {
      const token = await this.token();
      if (token) {
        this.knownTokens.add(token);
        h.authorization = this.opts.authScheme === 'raw' ? token : `Bearer ${token}`;
      }
    }
    return h;
  }

  private async token(): Promise<string | undefined> {
    const t = this.opts.token;
    const value = typeof t === 'function' ? await t() : t;
    const trimmed = value?.trim();
    if (trimmed && /[\r\n]/.test(trimmed)) throw new TypeError('the access token contains a line break');
    return trimmed || undefined;
  }

  private async once(method: HttpMethod, path: string, headers: Record<string, string>, payload: string | undefined, call: CallOptions): Promise<RawResponse> {
    const timeout = call.timeoutMs ?? this.timeoutMs;
    const link = linkSignal(call.signal);
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let overDeadline = false;
    try {
      const res = await this.pool.request({
        origin: this.origin,
        path: this.basePath + path,
        method,
        headers,
        body: payload,
        signal: link.signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      // bodyTimeout only measures the gaps between bytes: the whole body gets a deadline too.
      deadline = setTimeout(() => {
        overDeadline = true;
        link.abort();
      }, timeout);
      const ct = res.headers['content-type'];
      const retryAfter = res.headers['retry-after'];
      const { text, bytes, buffer } = await this.readBody(res, method, path);
      const raw: RawResponse & { retryAfter?: string | string[] } = {
        status: res.statusCode,
        contentType: Array.isArray(ct) ? ct[0] : ct,
        text,
        bytes,
        raw: buffer,
      };
      if (retryAfter !== undefined) raw.retryAfter = retryAfter;
      return raw;
    } catch (e) {
      if (overDeadline && !call.signal?.aborted) {
        const secs = timeout >= 1000 ? `${Math.round(timeout / 100) / 10} s` : `${timeout} ms`;
        throw new ApiError({ kind: 'timeout', method, path, detailMessage: `the response body took longer than ${secs}`, cause: e });
      }
      throw e;
    } finally {
      clearTimeout(deadline);
      link.release();
    }
  }

  /** The body as text, refusing (and dropping the connection) past maxResponseBytes. */
  private async readBody(res: Dispatcher.ResponseData, method: string, path: string): Promise<{ text: string; bytes: number; buffer: Buffer }> {
    const max = this.maxResponseBytes;
    const tooLarge = (): ApiError => {
      res.body.destroy();
      const mb = Math.round((max / (1024 * 1024)) * 10) / 10;
      return new ApiError({
        kind: 'protocol',
        method,
        path,
        detailMessage: `the response is larger than ${mb} MB, the most one answer may be (setting eoImagery.maxResponseMegabytes)`,
      });
    };
    const declared = res.headers['content-length'];
    if (typeof declared === 'string' && /^\d+$/.test(declared) && Number(declared) > max) throw tooLarge();
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > max) throw tooLarge();
      chunks.push(chunk);
    }
    const buffer = Buffer.concat(chunks, bytes);
    return { text: buffer.toString('utf8'), bytes, buffer };
  }

  private httpError(method: string, path: string, res: RawResponse & { retryAfter?: string | string[] }, secrets: readonly string[]): ApiError {
    // Secrets go before the decoder clips the text: a secret cut in half would survive.
    const d = decodeErrorBody(res.status, res.contentType, res.text, secrets);
    return new ApiError({
      kind: 'http',
      method,
      path,
      status: res.status,
      code: d.code,
      detailMessage: d.message || statusTitle(res.status),
      details: d.details,
      retryAfterMs: parseRetryAfter(res.retryAfter),
    });
  }

  private aborted(method: string, path: string): ApiError {
    return new ApiError({ kind: 'aborted', method, path, detailMessage: 'cancelled by the caller' });
  }

  private transportError(e: unknown, method: string, path: string, signal: AbortSignal | undefined, timeoutMs: number): ApiError {
    if (e instanceof ApiError) return e;
    if (signal?.aborted) return this.aborted(method, path);
    const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
    const code = err?.code ?? err?.cause?.code;
    const host = this.origin.replace(/^https?:\/\//, '');
    const secs = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
    const mk = (kind: ApiError['kind'], message: string): ApiError => new ApiError({ kind, method, path, code, detailMessage: message, cause: e });
    switch (code) {
      case 'UND_ERR_HEADERS_TIMEOUT':
        return mk('timeout', `no response within ${secs}`);
      case 'UND_ERR_BODY_TIMEOUT':
        return mk('timeout', `the response stalled for more than ${secs}`);
      case 'UND_ERR_CONNECT_TIMEOUT':
        return mk('timeout', `could not connect to ${host} within ${secs}`);
      case 'ECONNREFUSED':
        return mk('network', `connection refused by ${host}`);
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return mk('network', `host ${host.replace(/:\d+$/, '')} not found`);
      case 'ECONNRESET':
      case 'EPIPE':
        return mk('network', `the connection to ${host} was reset`);
      case 'UND_ERR_SOCKET':
        return mk('network', `the connection to ${host} closed before the response was complete`);
      case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
        return mk('network', 'the response was cut short (fewer bytes than announced)');
      case 'UND_ERR_CLOSED':
      case 'UND_ERR_DESTROYED':
        return mk('network', 'the client was closed');
      default:
        return mk('network', err?.message ? `${err.message}${code ? ` (${code})` : ''}` : String(e));
    }
  }

  private emit(a: Omit<RequestEvent, 'requestHeaders' | 'requestBody'> & { headers: Record<string, string>; body: unknown }): void {
    const listener = this.opts.onRequest;
    if (!listener) return;
    const { headers, body, ...fields } = a;
    const requestHeaders = { ...headers };
    if (requestHeaders.authorization !== undefined) requestHeaders.authorization = REDACTED;
    const event: RequestEvent = {
      ...fields,
      requestHeaders,
      requestBody: body === undefined ? undefined : redactBody(body),
    };
    try {
      listener(event);
    } catch {
      // A broken logger must not break requests.
    }
  }
}
