/**
 * A request of the extension written out as a `curl` command or a Python `requests` snippet
 * that a person can paste into a terminal or notebook. The token is never written: it is read
 * from the EO_API_TOKEN environment variable by the copied code. Pure (no vscode, no I/O).
 */

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

export function toCurl(r: ReproducibleRequest): string {
  const lines = [`curl -sS${r.method === 'GET' ? '' : ` -X ${r.method}`} ${shellQuote(r.url)}`];
  if (r.auth !== false) {
    // Double quotes so the shell substitutes the variable; nothing else is inside them.
    const value = r.authScheme === 'raw' ? `$${TOKEN_VARIABLE}` : `Bearer $${TOKEN_VARIABLE}`;
    lines.push(`-H "Authorization: ${value}"`);
  }
  for (const [k, v] of copiedHeaders(r)) lines.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  if (r.body !== undefined) lines.push(`--data-raw ${shellQuote(JSON.stringify(r.body))}`);
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
  return ['import os', '', 'import requests', '', 'response = requests.request(', ...args, ')', 'response.raise_for_status()', 'print(response.text)'].join(
    '\n',
  );
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
