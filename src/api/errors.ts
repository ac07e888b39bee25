import { isObj } from './shape';

/**
 * One error type for everything that can go wrong between the extension and the service.
 * `message` is for logs (method, path, status, server text); `userMessage` is for a
 * notification. Neither ever carries a token: the client scrubs them before throwing.
 */

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'protocol';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  path: string;
  status?: number;
  code?: string;
  /** The server's own message, or our description of the failure. */
  detailMessage: string;
  details?: string | Record<string, unknown>;
  userMessage?: string;
  /** Seconds the server asked us to wait (429/503 `Retry-After`). */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status?: number;
  readonly code?: string;
  readonly details: string | Record<string, unknown>;
  readonly method: string;
  readonly path: string;
  /** A sentence fit for a notification, e.g. "Forbidden (403): this AOI belongs to another user". */
  readonly userMessage: string;
  /** What the server sent as its message (or our description of a non-HTTP failure). */
  readonly serverMessage: string;
  readonly retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    const where = `${init.method} ${init.path}`;
    const head = init.status !== undefined ? `${where} → ${init.status}` : `${where}: ${init.kind}`;
    super(`${head}${init.code ? ` [${init.code}]` : ''}: ${init.detailMessage}`, { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? '';
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.detailMessage;
    this.retryAfterMs = init.retryAfterMs;
    this.userMessage = init.userMessage ?? defaultUserMessage(init);
  }
}

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Not supported by this service',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Request too large',
  422: 'Invalid request',
  429: 'Too many requests',
  500: 'Server error',
  501: 'Not supported by this service',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

export function statusTitle(status: number): string {
  return STATUS_TITLES[status] ?? (status >= 500 ? 'Server error' : `HTTP error`);
}

function defaultUserMessage(init: ApiErrorInit): string {
  switch (init.kind) {
    case 'http': {
      const status = init.status ?? 0;
      const title = statusTitle(status);
      const text = init.detailMessage && init.detailMessage !== title ? init.detailMessage : '';
      const hint = status === 401 ? ' Sign in again with a valid access token.' : '';
      return `${title} (${status})${text ? `: ${lowerFirst(text)}` : ''}${hint && !text.includes('Sign in') ? hint : ''}`;
    }
    case 'network':
      return `Cannot reach the EO service: ${init.detailMessage}`;
    case 'timeout':
      return `The EO service did not answer in time (${init.method} ${init.path}).`;
    case 'aborted':
      return 'Cancelled.';
    case 'protocol':
      return `Unexpected response from the EO service: ${init.detailMessage}`;
  }
}

function lowerFirst(s: string): string {
  // "AOI belongs…" stays, "This AOI belongs…" reads better after a colon as "this AOI…".
  return /^[A-Z](?=[a-z]|\s)/.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}

/** No base URL or no token: the connection refuses before any request is made. */
export class NotSignedInError extends Error {
  constructor(readonly reason: 'noBaseUrl' | 'noToken') {
    super(reason === 'noBaseUrl' ? 'No EO Imagery service is connected: sign in, or try the sandbox.' : 'You are not signed in to the EO Imagery service.');
    this.name = 'NotSignedInError';
  }
}

/**
 * The person stopped a flow (Escape on a step, Cancel on a progress notification): nothing
 * went wrong and nothing is shown. Named like VS Code's own `CancellationError` ('Canceled'),
 * which `classifyFailure` recognises by that name too.
 */
export class Cancelled extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'Canceled';
  }
}

/**
 * What a failure means, decided here for every caller (the predicates below all read it):
 * - `cancelled`: the caller aborted, or the person stopped a flow (`Cancelled`, VS Code's
 *   `CancellationError`); nothing to show.
 * - `signIn`: no token, or the service refused it (401): the way forward is to sign in.
 * - `refused`: the service refused the request itself (any other 4xx but 429): an entry can
 *   be changed and the request sent again.
 * - `transient`: never reached the service (refused, unknown host, no connection in time), a
 *   5xx, or 429: the same request may pass later.
 * - `unanswered`: the request went out and the connection dropped or timed out before an
 *   answer: the service may have acted on it. A read may be sent again (it is transient too);
 *   a POST that creates or costs something must not be: ask the service what happened.
 * - `malformed`: the service answered something that is not what the interface says.
 * - `other`: anything else (a local error).
 */
export type FailureKind = 'cancelled' | 'signIn' | 'refused' | 'transient' | 'unanswered' | 'malformed' | 'other';

/** Transport codes of a request that never left: no connection was made, so nothing was sent. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

export function classifyFailure(err: unknown): FailureKind {
  if (err instanceof NotSignedInError) return 'signIn';
  if (err instanceof Error && err.name === 'Canceled') return 'cancelled';
  if (!(err instanceof ApiError)) return 'other';
  switch (err.kind) {
    case 'aborted':
      return 'cancelled';
    case 'network':
    case 'timeout':
      return err.code !== undefined && NEVER_SENT.has(err.code) ? 'transient' : 'unanswered';
    case 'protocol':
      return 'malformed';
    case 'http': {
      const status = err.status ?? 0;
      if (status === 401) return 'signIn';
      if (status >= 500 || status === 429) return 'transient';
      return status >= 400 ? 'refused' : 'other';
    }
  }
}

/** The token is missing, wrong or expired: offer sign-in. */
export function needsSignIn(err: unknown): boolean {
  return classifyFailure(err) === 'signIn';
}

/** True when the caller cancelled (no notification should be shown). */
export function isCancellation(err: unknown): boolean {
  return classifyFailure(err) === 'cancelled';
}

/** The service refused the request itself: the person can change an entry and send it again. */
export function isRequestError(err: unknown): err is ApiError {
  return classifyFailure(err) === 'refused';
}

/** The same request may pass if sent again later (offer Retry for reads). */
export function isTransient(err: unknown): boolean {
  const kind = classifyFailure(err);
  return kind === 'transient' || kind === 'unanswered';
}

/** The request was sent and its answer lost (a drop or a timeout after it went out). */
export function wasUnanswered(err: unknown): err is ApiError {
  return classifyFailure(err) === 'unanswered';
}

/**
 * After a POST: the service may or may not have acted on it (no answer, a 5xx, an answer we
 * cannot read). A 429 is refused before anything is done; a request that never left (refused
 * connection, unknown host) did nothing.
 */
export function mayHaveActed(err: unknown): boolean {
  const kind = classifyFailure(err);
  if (kind === 'unanswered' || kind === 'malformed') return true;
  return kind === 'transient' && err instanceof ApiError && err.kind === 'http' && err.status !== 429;
}

/** A failure of the connection rather than of the request (401, unreachable, 5xx): the status bar says so. */
export function isConnectionFailure(err: unknown): err is ApiError {
  if (!(err instanceof ApiError)) return false;
  const kind = classifyFailure(err);
  return kind === 'signIn' || kind === 'unanswered' || (kind === 'transient' && err.status !== 429);
}

/** True when the service does not implement an endpoint (optional endpoints of docs/service-interface.md). */
export function isNotSupported(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'http' && (err.status === 404 || err.status === 405 || err.status === 501);
}

export interface DecodedErrorBody {
  code?: string;
  message: string;
  details: string | Record<string, unknown>;
}

const MAX_TEXT = 300;

type Cut = (s: string, max?: number) => string;

/**
 * Decode any error body the interface allows: the `{error: {code, message, details}}`
 * envelope (details a string, or an object for archives), the projects' free-form object,
 * `text/csv` (reports), HTML, plain text, empty, or broken JSON.
 */
export function decodeErrorBody(
  status: number,
  contentType: string | undefined,
  text: string,
  secrets: readonly string[] = [],
  opts: { cutShort?: boolean } = {},
): DecodedErrorBody {
  // Secrets go before any parsing or clipping (a secret cut in half would no longer match);
  // the decoded parts are redacted once more, since JSON and HTML unescape what they hold.
  const cut: Cut = (s, max) => serverText(s, secrets, { max: max ?? MAX_TEXT });
  const ct = (contentType ?? '').toLowerCase();
  const trimmed = serverText(text, secrets, { cutShort: opts.cutShort }).trim();
  if (trimmed === '') return { message: statusTitle(status), details: '' };

  if (ct.includes('json') || trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) return fromJson(status, parsed, cut);
  }
  if (ct.includes('csv')) return fromCsv(status, trimmed, cut);
  if (ct.includes('html') || /^<(!doctype|html|head|body)/i.test(trimmed)) return fromHtml(status, trimmed, cut);
  return { message: cut(trimmed), details: cut(trimmed) };
}

function fromJson(status: number, parsed: unknown, cut: Cut): DecodedErrorBody {
  if (typeof parsed === 'string') return { message: cut(parsed), details: parsed };
  if (!isObj(parsed)) return { message: statusTitle(status), details: cut(JSON.stringify(parsed)) };
  const envelope = parsed.error;
  if (isObj(envelope)) {
    const code = typeof envelope.code === 'string' ? envelope.code : undefined;
    const message = firstString(envelope.message, envelope.detail, envelope.description);
    const details = envelope.details;
    const detailsValue: string | Record<string, unknown> = isObj(details)
      ? details
      : typeof details === 'string'
        ? details
        : details === undefined || details === null
          ? ''
          : JSON.stringify(details);
    const detailText = typeof detailsValue === 'string' ? detailsValue : summariseObject(detailsValue);
    return {
      code,
      message: cut(message ?? (detailText || statusTitle(status))),
      details: detailsValue,
    };
  }
  if (typeof envelope === 'string') {
    // `{"error": "not_found", "message": "..."}` is a common free-form shape too.
    const message = firstString(parsed.message, parsed.detail, parsed.error_description) ?? envelope;
    return { code: envelope !== message ? envelope : undefined, message: cut(message), details: parsed };
  }
  // Project endpoints: a free-form object; the sandbox sends {message}.
  const message = firstString(parsed.message, parsed.detail, parsed.title, parsed.description, parsed.msg);
  const code = firstString(parsed.code, parsed.error_code);
  if (Array.isArray(parsed.detail) && !message) {
    // FastAPI-style validation errors: [{loc, msg, type}]
    const msgs = parsed.detail
      .filter(isObj)
      .map((d) => firstString(d.msg, d.message))
      .filter((m): m is string => !!m);
    if (msgs.length > 0) return { code, message: cut(msgs.join('; ')), details: parsed };
  }
  return { code, message: cut(message ?? (summariseObject(parsed) || statusTitle(status))), details: parsed };
}

function fromCsv(status: number, text: string, cut: Cut): DecodedErrorBody {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length >= 2) {
    const header = splitCsvLine(lines[0]).map((h) => h.trim().toLowerCase());
    const row = splitCsvLine(lines[1]);
    const at = (name: string): string | undefined => {
      const i = header.indexOf(name);
      return i >= 0 && row[i] ? row[i] : undefined;
    };
    const message = at('message') ?? at('error') ?? at('detail') ?? at('details');
    if (message) {
      return { code: at('code'), message: cut(message), details: at('details') ?? text };
    }
  }
  return { message: cut(lines.join(' ') || statusTitle(status)), details: cut(text) };
}

/** Enough CSV for an error line: quoted fields with doubled quotes. */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function fromHtml(status: number, html: string, cut: Cut): DecodedErrorBody {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const pick = stripTags(h1 ?? title ?? '') || stripTags(html);
  const message = pick ? `the server sent an HTML page: ${cut(pick, 120)}` : statusTitle(status);
  return { message, details: cut(stripTags(html)) };
}

function stripTags(s: string): string {
  return s
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function summariseObject(obj: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') parts.push(`${k}: ${v}`);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) parts.push(`${k}: ${v.join(', ')}`);
    if (parts.length >= 4) break;
  }
  return parts.join('; ');
}

function firstString(...vals: unknown[]): string | undefined {
  for (const v of vals) if (typeof v === 'string' && v.trim() !== '') return v;
  return undefined;
}

function clip(s: string, max = MAX_TEXT): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * Every secret replaced, as sent and as it reads inside a JSON string (a key file's line
 * breaks and quotes come back escaped). Run it on a server's text before anything cuts the
 * text short: a secret clipped in half no longer matches and would survive.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const forms of secretForms(secrets)) for (const f of forms) if (out.includes(f)) out = out.split(f).join('[redacted]');
  return out;
}

function secretForms(secrets: readonly string[]): string[][] {
  // Longest first: a short secret inside a long one must not break the long one's match.
  return [...secrets]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length)
    .map((s) => {
      // A JSON body echoed inside a JSON string escapes the secret once more.
      const once = JSON.stringify(s).slice(1, -1);
      const twice = JSON.stringify(once).slice(1, -1);
      return [...new Set([s, once, twice])];
    });
}

/**
 * The one way a server's body becomes text that a person or the log may read: every secret
 * redacted first, then (with `max`) clipped to that many characters. `cutShort` says the body
 * was read only up to a limit, so it may end inside a secret: the start of any secret left at
 * the very end is redacted too.
 */
export function serverText(text: string, secrets: readonly string[], opts: { max?: number; cutShort?: boolean } = {}): string {
  let out = redactText(text, secrets);
  if (opts.cutShort) out = withoutSecretStart(out, secrets);
  return opts.max === undefined ? out : clip(out, opts.max);
}

/** `text` less a trailing beginning of any secret (in any of its forms), marked as redacted. */
function withoutSecretStart(text: string, secrets: readonly string[]): string {
  let longest = 0;
  for (const f of secretForms(secrets).flat()) {
    for (let k = Math.min(f.length - 1, text.length); k > longest; k--) {
      if (text.endsWith(f.slice(0, k))) {
        longest = k;
        break;
      }
    }
  }
  return longest ? `${text.slice(0, text.length - longest)}[redacted]` : text;
}

/** Replace every occurrence of a secret in an error before it leaves the client. */
export function scrubError(err: ApiError, secrets: readonly string[]): ApiError {
  const live = secretForms(secrets).flat();
  if (live.length === 0) return err;
  const hit = (s: string): boolean => live.some((t) => s.includes(t));
  const detailsText = typeof err.details === 'string' ? err.details : JSON.stringify(err.details);
  if (!hit(err.message) && !hit(err.userMessage) && !hit(detailsText)) return err;
  const scrub = (s: string): string => redactText(s, secrets);
  let details: string | Record<string, unknown> = scrub(detailsText);
  if (typeof err.details !== 'string') {
    try {
      details = JSON.parse(details) as Record<string, unknown>;
    } catch {
      // A token with JSON metacharacters broke the object: keep the scrubbed text.
    }
  }
  return new ApiError({
    kind: err.kind,
    method: err.method,
    path: err.path,
    status: err.status,
    code: err.code,
    detailMessage: scrub(err.serverMessage),
    details,
    userMessage: scrub(err.userMessage),
    retryAfterMs: err.retryAfterMs,
  });
}
