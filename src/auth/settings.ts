import vscode = require('vscode');

export type AuthScheme = 'bearer' | 'raw';

export interface ConnectionSettings {
  baseUrl: string;
  authScheme: AuthScheme;
  timeoutMs: number;
}

export function readConnectionSettings(): ConnectionSettings {
  const cfg = vscode.workspace.getConfiguration('eoImagery');
  const seconds = cfg.get<number>('requestTimeoutSeconds', 30);
  return {
    baseUrl: normalizeBaseUrl(cfg.get<string>('baseUrl', '')),
    authScheme: cfg.get<AuthScheme>('authScheme', 'bearer') === 'raw' ? 'raw' : 'bearer',
    timeoutMs: Math.max(1, Number.isFinite(seconds) ? seconds : 30) * 1000,
  };
}

/** Trailing slashes and whitespace would make two spellings of one service. */
export function normalizeBaseUrl(raw: string): string {
  return raw.trim().replace(/\/+$/, '');
}

/** Returns why a base URL is unusable, or undefined when it is fine. */
export function checkBaseUrl(raw: string): string | undefined {
  const value = normalizeBaseUrl(raw);
  if (!value) return 'Enter the service URL, for example https://api.example.com';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'This is not a URL. Use the form https://host[:port][/path]';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Only http:// and https:// URLs are supported';
  if (url.username || url.password) return 'Do not put credentials in the URL; sign in with a token instead';
  if (url.search || url.hash) return 'The URL must not have a query or fragment';
  return undefined;
}
