/**
 * A request of the extension written out as a `curl` command or a Python `requests` snippet
 * that a person can paste into a terminal or notebook. The token is never written: it is read
 * from the EO_API_TOKEN environment variable by the copied code. Pure (no vscode, no I/O).
 */
import { safeFileName } from '../../fileNames';
import { decodedOr, urlOf } from '../../parse';

export const TOKEN_VARIABLE = 'EO_API_TOKEN';

export interface ReproducibleRequest {
  method: string;
  /** Absolute URL with its query string. */
  url: string;
  /** How the token goes in the `Authorization` header (the `eoImagery.authScheme` setting). */
  authScheme: 'bearer' | 'raw';
  /** Request headers other than `authorization` (accept, content-type), as sent. */
  headers: Record<string, string>;
  /** The JSON body as sent, with every secret already redacted; undefined for none. */
  body?: unknown;
  /** False for the one unauthenticated call (ping). */
  auth?: boolean;
}

/** What the log keeps of a request (api `RequestEvent` and the connection it went through). */
export interface LoggedRequestFields {
  method: string;
  path: string;
  /** `path` is an absolute URL (a file on another host than the service). */
  absolute?: boolean;
  baseUrl: string;
  authScheme: 'bearer' | 'raw';
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
}

/** What the log knows of a request, as something that can be sent again. */
export function reproducible(e: LoggedRequestFields): ReproducibleRequest {
  return {
    method: e.method,
    url: e.absolute ? e.path : e.baseUrl + e.path,
    authScheme: e.authScheme,
    headers: e.requestHeaders,
    body: e.requestBody,
    auth: e.requestHeaders.authorization !== undefined,
  };
}

/** Headers worth repeating: user-agent and authorization are left out (the latter is rebuilt). */
function copiedHeaders(r: ReproducibleRequest): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(r.headers)) {
    const key = k.toLowerCase();
    if (key === 'authorization' || key === 'user-agent') continue;
    out.push([headerName(key), v]);
  }
  return out;
}

function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** POSIX shell single quotes: nothing inside is expanded; a `'` is closed, escaped, reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Where a byte-range read's answer goes: it is binary (part of a GeoTIFF), which a terminal
 * cannot show and `response.text` would mangle. Named after the file and the range.
 */
export function rangeOutputName(r: ReproducibleRequest): string | undefined {
  const range = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'range')?.[1];
  if (!range) return undefined;
  // a URL the log shortened names no file: the generic name does
  const file = decodedOr(urlOf(r.url)?.pathname.split('/').pop() ?? '') || 'file';
  const span = /bytes=(\d+)-(\d*)/.exec(range);
  return safeFileName(`${file}.${span ? `bytes-${span[1]}-${span[2]}` : 'part'}`, '.bin') || 'range.bin';
}

export function toCurl(r: ReproducibleRequest): string {
  const lines = [`curl -sS${r.method === 'GET' ? '' : ` -X ${r.method}`} ${shellQuote(r.url)}`];
  if (r.auth !== false) {
    // Double quotes so the shell substitutes the variable; nothing else is inside them.
    const value = r.authScheme === 'raw' ? `$${TOKEN_VARIABLE}` : `Bearer $${TOKEN_VARIABLE}`;
    lines.push(`-H "Authorization: ${value}"`);
  }
  for (const [k, v] of copiedHeaders(r)) lines.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  if (r.body !== undefined) lines.push(`--data-raw ${shellQuote(JSON.stringify(r.body))}`);
  const output = rangeOutputName(r);
  // -f: a 4xx/5xx fails instead of writing the error page into the file.
  if (output) lines.push(`-f --output ${shellQuote(output)}`);
  return lines.join(' \\\n  ');
}

export function toPython(r: ReproducibleRequest): string {
  const headers: string[] = [];
  if (r.auth !== false) {
    const value = r.authScheme === 'raw' ? `os.environ[${pyString(TOKEN_VARIABLE)}]` : `"Bearer " + os.environ[${pyString(TOKEN_VARIABLE)}]`;
    headers.push(`        "Authorization": ${value},`);
  }
  for (const [k, v] of copiedHeaders(r)) {
    // requests sets Content-Type itself for `json=`.
    if (r.body !== undefined && k === 'Content-Type') continue;
    headers.push(`        ${pyString(k)}: ${pyString(v)},`);
  }
  const args = [`    ${pyString(r.method)},`, `    ${pyString(r.url)},`, '    headers={', ...headers, '    },'];
  if (r.body !== undefined) args.push(`    json=${pyLiteral(r.body, 1)},`);
  args.push('    timeout=60,');
  const output = rangeOutputName(r);
  // A byte range is binary: written to a file, with how many bytes came (206 when the server honoured the range).
  const result = output
    ? [
        `with open(${pyString(output)}, "wb") as f:`,
        '    f.write(response.content)',
        `print(response.status_code, len(response.content), "bytes written to", ${pyString(output)})`,
      ]
    : ['print(response.text)'];
  return ['import os', '', 'import requests', '', 'response = requests.request(', ...args, ')', 'response.raise_for_status()', ...result].join('\n');
}

/** A JSON string literal is a valid Python string literal (same escapes for what JSON emits). */
function pyString(s: string): string {
  return JSON.stringify(s);
}

/** JSON value → Python literal (true/false/null become True/False/None). */
export function pyLiteral(value: unknown, depth = 0): string {
  const pad = '    '.repeat(depth + 1);
  const end = '    '.repeat(depth);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${pad}${pyLiteral(v, depth + 1)},`).join('\n')}\n${end}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${pad}${pyString(k)}: ${pyLiteral(v, depth + 1)},`).join('\n')}\n${end}}`;
  }
  return pyString(String(value));
}
