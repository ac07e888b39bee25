import vscode = require('vscode');

export type AuthScheme = 'bearer' | 'raw';

export interface ConnectionSettings {
  baseUrl: string;
  authScheme: AuthScheme;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * Where the token goes is the person's choice, never a workspace's: a cloned repository's
 * `.vscode/settings.json` must not send EO_API_TOKEN to its own server. The manifest gives
 * these settings application scope; reading only the user (global) value holds even where
 * an editor does not enforce scopes.
 */
function userValue<T>(cfg: vscode.WorkspaceConfiguration, key: string, fallback: T): T {
  const i = cfg.inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue ?? fallback;
}

export function readConnectionSettings(): ConnectionSettings {
  const cfg = vscode.workspace.getConfiguration('eoImagery');
  const seconds = cfg.get<number>('requestTimeoutSeconds', 30);
  const megabytes = cfg.get<number>('maxResponseMegabytes', 64);
  return {
    baseUrl: normalizeBaseUrl(String(userValue<unknown>(cfg, 'baseUrl', '') ?? '')),
    authScheme: userValue<unknown>(cfg, 'authScheme', 'bearer') === 'raw' ? 'raw' : 'bearer',
    timeoutMs: Math.max(1, Number.isFinite(seconds) ? seconds : 30) * 1000,
    maxResponseBytes: Math.max(1, Number.isFinite(megabytes) ? megabytes : 64) * 1024 * 1024,
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
