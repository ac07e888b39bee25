/**
 * A request as text: its path (each value one encoded segment), its query, its log line, and
 * its body with every secret masked. Pure.
 */
import type { Query, RequestEvent } from './requestTypes';

export const REDACTED = '[redacted]';

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
