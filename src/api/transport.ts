/**
 * The one place that talks HTTP: a keep-alive undici pool for the base URL, auth and
 * user-agent headers, per-request header/body timeouts, cancellation, retries of idempotent
 * reads, error decoding, and request events with secrets redacted.
 */
import type { Dispatcher, Pool } from 'undici';
import { undici } from './undici';
import { linkSignal } from './abortFanout';
import { ApiError, decodeErrorBody, redactText, scrubError } from './errors';
import { DEFAULT_RETRY, isRetryable, retryDelayMs, sleep, type RetryOptions } from './retry';
import { passGate } from './requestGate';
import { ShapeError } from './shape';
import { readRangeBody, type RangeOptions, type RangeResult } from './rangeRead';
import { unreadableOf, withUnreadable, type UnreadableRecord } from './unreadable';
import type { CallOptions, ClientOptions, HttpMethod, RawResponse, RequestEvent, RequestSpec, UnreadableEvent } from './requestTypes';
import { buildQuery, redactBody, REDACTED, secretsIn } from './requestText';
import { abortedError, httpError, readBody, transportError } from './responseErrors';

export type { RangeOptions, RangeResult };
export { RANGE_IGNORED } from './rangeRead';
export type {
  AuthScheme,
  CallOptions,
  ClientOptions,
  HttpMethod,
  OtherHosts,
  Query,
  QueryValue,
  RawResponse,
  RequestEvent,
  RequestSpec,
  TokenSource,
  UnreadableEvent,
} from './requestTypes';
export { buildQuery, describeRequest, encodeSegment, pathOf, REDACTED, redactBody, secretsIn } from './requestText';

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

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

  /** Resolves when a URL the service pointed to may be read (see `ClientOptions.otherHosts`). */
  async checkTarget(href: string): Promise<void> {
    if (this.isOwnUrl(href) || !this.opts.otherHosts) return;
    await this.opts.otherHosts.check(new URL(href, this.baseUrl + '/'));
  }

  /** What to read a URL on another host with (undefined: undici's global dispatcher). */
  otherHostsDispatcher(): Dispatcher | undefined {
    return this.opts.otherHosts?.dispatcher();
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
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.rangeOnce(href, offset, length, opts, attempt);
      } catch (e) {
        // A reset (most often a kept-alive connection the server had just closed) is asked
        // again once: a GET of a range changes nothing. Anything else is the caller's.
        if (attempt >= 2 || !(e instanceof ApiError) || e.kind !== 'network' || !isRetryable('GET', e) || opts.signal?.aborted) throw e;
      }
    }
  }

  private async rangeOnce(href: string, offset: number, length: number, opts: RangeOptions, attempt: number): Promise<RangeResult> {
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
    if (!own && this.opts.otherHosts) {
      try {
        await this.opts.otherHosts.check(u);
      } catch (e) {
        throw transportError(e, u.origin, 'GET', shown, opts.signal, this.timeoutMs);
      }
    }
    await passGate({ method: 'GET', path: shown, attempt });
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
        : undici().request(u, {
            method: 'GET',
            headers,
            signal: opts.signal,
            headersTimeout: timeout,
            bodyTimeout: timeout,
            dispatcher: this.otherHostsDispatcher(),
          });
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
      error = scrubError(transportError(e, own ? this.origin : u.origin, 'GET', shown, opts.signal, timeout), secrets);
      throw error;
    } finally {
      this.emit({
        method: 'GET',
        path: shown,
        absolute: !own,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        bytes,
        attempt,
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
      if (signal?.aborted) throw abortedError(spec.method, pathWithQuery);
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
        if (result.status < 200 || result.status > 299) error = httpError(spec.method, pathWithQuery, result, secrets);
      } catch (e) {
        error = transportError(e, this.origin, spec.method, pathWithQuery, signal, call.timeoutMs ?? this.timeoutMs);
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
        throw abortedError(spec.method, pathWithQuery);
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
      const { text, bytes, buffer } = await readBody(res, this.maxResponseBytes, method, path);
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
