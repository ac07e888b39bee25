import vscode = require('vscode');
import { clampToDeclared, type DeclaredSetting } from './settingRange';

/** The extension's id (publisher.name), to read its own manifest. */
export const EXTENSION_ID = 'eo-imagery.eo-imagery';

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

let declarations: Record<string, DeclaredSetting> | undefined;

/** What package.json declares of `key` (a full id such as `eoImagery.requestTimeoutSeconds`). */
export function declaredSetting(key: string): DeclaredSetting {
  declarations ??=
    (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes?: { configuration?: { properties?: Record<string, DeclaredSetting> } } })
      ?.contributes?.configuration?.properties ?? {};
  return declarations[key] ?? {};
}

/**
 * A user setting (application scope in the manifest): only the user's own value counts, as
 * for the service URL, whatever a workspace's `.vscode/settings.json` says. Settings that
 * decide money, limits or where data goes are read through this.
 */
export function userSetting<T>(key: string, fallback: T): T {
  const dot = key.indexOf('.');
  return userValue<T>(vscode.workspace.getConfiguration(key.slice(0, dot)), key.slice(dot + 1), fallback);
}

/**
 * A number setting within its manifest range (`minimum`/`maximum`), its default when it is
 * not a number. `userOnly` ignores workspace values (see `userSetting`).
 */
export function numberSetting(key: string, opts: { userOnly?: boolean } = {}): number {
  const declared = declaredSetting(key);
  // The section's configuration, not the whole editor's: that one is a copy of every setting
  // of every extension, milliseconds at each read (the status bar reads these at activation).
  const dot = key.indexOf('.');
  const cfg = vscode.workspace.getConfiguration(key.slice(0, dot));
  const name = key.slice(dot + 1);
  const fallback = declared.default ?? cfg.inspect<unknown>(name)?.defaultValue;
  if (typeof fallback !== 'number') throw new Error(`${key} is not a number setting of the manifest`);
  const raw = opts.userOnly ? userValue<unknown>(cfg, name, undefined) : cfg.get<unknown>(name);
  return clampToDeclared(raw, declared, fallback);
}

/** The service URL (a user setting), normalised; '' when none is set. */
export function readBaseUrl(): string {
  return normalizeBaseUrl(String(userValue<unknown>(vscode.workspace.getConfiguration('eoImagery'), 'baseUrl', '') ?? ''));
}

export function readConnectionSettings(): ConnectionSettings {
  const cfg = vscode.workspace.getConfiguration('eoImagery');
  return {
    baseUrl: readBaseUrl(),
    authScheme: userValue<unknown>(cfg, 'authScheme', 'bearer') === 'raw' ? 'raw' : 'bearer',
    // How long a request may take and how much it may read are the person's limits, never a
    // repository's (which could lift the body cap to gigabytes, or overflow the timer).
    timeoutMs: numberSetting('eoImagery.requestTimeoutSeconds', { userOnly: true }) * 1000,
    maxResponseBytes: numberSetting('eoImagery.maxResponseMegabytes', { userOnly: true }) * 1024 * 1024,
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
