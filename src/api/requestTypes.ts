/**
 * The client's options and the shapes of what it sends and receives: a request as the
 * resource groups describe it, the raw answer, and the events the log is written from.
 */
import type { Dispatcher } from 'undici';
import type { ApiError } from './errors';
import type { RetryOptions } from './retry';
import type { UnreadableRecord } from './unreadable';

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
  /** How URLs the service points to on other hosts are read (imagery ranges, output files). */
  otherHosts?: OtherHosts;
  /** Called when a listing's answer left records out because they do not fit (secrets redacted). */
  onUnreadable?: (e: UnreadableEvent) => void;
  retry?: RetryOptions;
  /** Keep-alive connections to the service. Default 6. */
  connections?: number;
}

/**
 * Reading URLs the service points to on hosts other than its own, which the extension host
 * fetches itself: a private address needs the person's leave (privateTargets.ts).
 */
export interface OtherHosts {
  /** Called before such a URL is read, by its name; rejects to refuse it. */
  check(url: URL): Promise<void>;
  /** What to read it with: every connection goes only to addresses that were checked (guardedConnect.ts). */
  dispatcher(): Dispatcher;
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
