import vscode = require('vscode');
import { l10n } from 'vscode';
import { lookup } from 'node:dns/promises';
import type { Dispatcher } from 'undici';
import type { EoClient, OtherHosts, RequestEvent, UnreadableEvent } from '../api';
import { isConnectionFailure, NotSignedInError } from '../api/errors';
import { loadApi } from '../api/lazyClient';
import { PrivateTargetGuard, type PrivateKind } from '../api/privateTargets';
import { safeText } from '../safeText';
import { readConnectionSettings, type ConnectionSettings } from './settings';
import { TokenStore } from './tokenStore';

/**
 * signedOut: no base URL or no token. unverified: a token is known but no call has been made
 * yet (activation makes none). connected: the last call succeeded. failing: the last call
 * failed for a reason that is not the request's own (401, network, 5xx).
 */
export type ConnectionState = 'signedOut' | 'unverified' | 'connected' | 'failing';

/** A request as the log shows it, with what is needed to send it again. */
export interface LoggedRequest extends RequestEvent {
  /** The log line, e.g. `GET /v0/projects?page_num=1 → 200 in 12 ms, 340 B`. */
  line: string;
  baseUrl: string;
  authScheme: ConnectionSettings['authScheme'];
}

interface SandboxSession {
  url: string;
  token: string;
  close(): Promise<void>;
}

export class Connection implements vscode.Disposable {
  /** Tokens per base URL and the index of signed-in accounts (the Accounts menu reads it). */
  readonly tokens: TokenStore;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the state, base URL or token changes: views refresh on it. */
  readonly onDidChange = this.changed.event;
  private readonly requested = new vscode.EventEmitter<LoggedRequest>();
  /** Every request the extension's client made (already logged, secrets redacted). */
  readonly onDidRequest = this.requested.event;
  private current?: { key: string; client: EoClient };
  private sandbox?: SandboxSession;
  private _state: ConnectionState = 'signedOut';
  private _lastError?: string;
  private tokenSource?: 'secret' | 'env' | 'sandbox';
  private _session = 0;
  /** The URL, token and client settings `_session` was counted for ('' when signed out). */
  private sessionKey?: string;
  /** The `_session` the last `onDidChange` announced. */
  private announced = 0;
  private readonly disposables: vscode.Disposable[] = [];
  /**
   * The settings as last read. Reading them (a configuration object and four `inspect` calls)
   * took about a millisecond, on every request a command or chat tool made; they change only
   * with a configuration event, which drops this copy before anything else hears of it.
   */
  private read?: ConnectionSettings;
  /**
   * The service URL signed in to, until the setting says so: Sign In writes `eoImagery.baseUrl`
   * once the token is checked, and this extension host hears of it a moment after the sign-in
   * is announced. What reloads on that announcement (a map open while signed out) reads this
   * URL meanwhile; it read the empty setting and failed as if signed out.
   */
  private signedInUrl?: string;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.tokens = new TokenStore(context.secrets, context.globalState);
    this.disposables.push(
      this.changed,
      this.requested,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('eoImagery')) return;
        this.read = undefined;
        if (e.affectsConfiguration('eoImagery.baseUrl')) this.signedInUrl = undefined;
        void this.refreshState();
      }),
      context.secrets.onDidChange((e) => {
        if (e.key.startsWith('eoImagery.token:')) void this.refreshState();
      }),
    );
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** A short reason for `failing`, fit for a tooltip; never contains a token. */
  get lastError(): string | undefined {
    return this._lastError;
  }

  /**
   * Which sign-in the connection is on: it changes with the base URL, the token or the client's
   * settings, and with every Sign In, never with how a call went (`reportSuccess`,
   * `reportFailure`). The sidebar reloads what failed for want of a sign-in only when it
   * changes: a 401 a list reports moves the state, and reloading that list on the move made
   * the next 401 move it again whenever another view's call succeeded in between.
   */
  get session(): number {
    return this._session;
  }

  /** The running sandbox's URL and token (the Accounts menu lists it), or undefined. */
  get sandboxSession(): { url: string; token: string } | undefined {
    return this.sandbox && { url: this.sandbox.url, token: this.sandbox.token };
  }

  get isSandbox(): boolean {
    return this.sandbox !== undefined;
  }

  get source(): 'secret' | 'env' | 'sandbox' | undefined {
    return this.tokenSource;
  }

  get settings(): ConnectionSettings {
    const s = (this.read ??= readConnectionSettings());
    if (this.sandbox) return { ...s, baseUrl: this.sandbox.url };
    return this.signedInUrl && this.signedInUrl !== s.baseUrl ? { ...s, baseUrl: this.signedInUrl } : s;
  }

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  /** Works out the state from settings and stored secrets only: no network. */
  async refreshState(): Promise<void> {
    const token = await this.token();
    const next: ConnectionState = !this.baseUrl || !token ? 'signedOut' : 'unverified';
    this.countSession(next === 'signedOut' ? '' : this.clientKey(token));
    const keyChanged = this.current && this.current.key !== this.clientKey(token);
    if (keyChanged || next === 'signedOut') this.dropClient();
    if (next === 'signedOut' || keyChanged || this._state === 'signedOut') {
      this.setState(next, undefined);
    } else {
      this.fire();
    }
  }

  /** The client for the current base URL and token; throws NotSignedInError otherwise. */
  async getClient(): Promise<EoClient> {
    const settings = this.settings;
    if (!settings.baseUrl) throw new NotSignedInError('noBaseUrl');
    // Secret and setting changes drop the client (see refreshState), so a live client whose
    // settings still match is current: no secret-storage read on the hot path.
    if (this.current?.key.startsWith(settingsKey(settings))) return this.current.client;
    const token = await this.token();
    if (!token) throw new NotSignedInError('noToken');
    const key = this.clientKey(token);
    if (this.current?.key !== key) {
      this.dropClient();
      this.current = { key, client: this.createClient(settings, token) };
    }
    return this.current.client;
  }

  /**
   * Checks the token with one authenticated call before storing it, so a typo never becomes
   * the stored credential. Throws the ApiError of the check.
   */
  async signIn(token: string, baseUrl = this.baseUrl): Promise<void> {
    const trimmed = token.trim();
    const settings = { ...this.settings, baseUrl };
    const probe = this.createClient(settings, trimmed);
    let user: string | undefined;
    try {
      await verifyToken(probe);
      user = await serviceUser(probe);
    } finally {
      void probe.close();
    }
    if (this.sandbox && baseUrl !== this.sandbox.url) await this.stopSandbox();
    this.signedInUrl = baseUrl;
    await this.tokens.store(baseUrl, trimmed, user);
    this.log.info(`Signed in to ${hostOf(baseUrl)}`);
    this.dropClient();
    this.tokenSource = 'secret';
    // A new sign-in even with the same token: what asked for one is to be read again.
    this._session++;
    this.sessionKey = this.clientKey(trimmed);
    this.setState('connected', undefined);
  }

  async signOut(): Promise<void> {
    const baseUrl = this.baseUrl;
    if (this.sandbox) await this.stopSandbox();
    else if (baseUrl) await this.tokens.delete(baseUrl);
    this.signedInUrl = undefined;
    this.dropClient();
    this.log.info(`Signed out of ${hostOf(baseUrl) || 'the service'}`);
    await this.refreshState();
  }

  /** Connects to a sandbox started by the caller; it is never written to settings. */
  async useSandbox(session: SandboxSession): Promise<void> {
    if (this.sandbox) await this.stopSandbox();
    this.sandbox = session;
    this.dropClient();
    this.log.info(`Using the local sandbox at ${session.url}`);
    await this.refreshState();
  }

  async stopSandbox(): Promise<void> {
    const s = this.sandbox;
    if (!s) return;
    this.sandbox = undefined;
    this.dropClient();
    await s.close().catch((e: unknown) => this.log.warn(`Sandbox did not close cleanly: ${String(e)}`));
  }

  /** Views and commands report the outcome of their calls so the status bar tells the truth. */
  reportSuccess(): void {
    if (this._state !== 'connected') this.setState('connected', undefined);
  }

  reportFailure(err: unknown): void {
    // A 4xx other than 401 is about the request, not the connection.
    if (isConnectionFailure(err)) this.setState('failing', err.userMessage);
  }

  dispose(): void {
    this.dropClient();
    void this.otherHostsAgent?.close();
    void this.stopSandbox();
    for (const d of this.disposables) d.dispose();
  }

  private async token(): Promise<string | undefined> {
    if (this.sandbox) {
      this.tokenSource = 'sandbox';
      return this.sandbox.token;
    }
    const baseUrl = this.baseUrl;
    if (!baseUrl) return undefined;
    const found = await this.tokens.get(baseUrl);
    this.tokenSource = found?.source;
    return found?.token;
  }

  private clientKey(token: string | undefined): string {
    // The token is part of the key only as a fingerprint, so it is never held in two places.
    return `${settingsKey(this.settings)}${fingerprint(token ?? '')}`;
  }

  /**
   * How URLs the service points to on other hosts are read: a host on this computer or the
   * local network needs the person's leave, asked once per host per session, both by name
   * before a read and by the address each connection goes to (src/api/privateTargets.ts,
   * src/api/guardedConnect.ts). The service's own host is not asked about: a service on this
   * machine (the sandbox, a dev server) may point at its other ports.
   */
  readonly otherHosts: OtherHosts = {
    check: (url) => this.privateTargets.check(url),
    // Made with the first such read: activation loads no HTTP library.
    dispatcher: () => (this.otherHostsAgent ??= loadApi().guardedAgent(this.privateTargets)),
  };
  private otherHostsAgent?: Dispatcher;

  private readonly privateTargets = new PrivateTargetGuard(
    askPrivateTarget,
    async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
    (hostname) => hostname === serviceHostname(this.settings.baseUrl),
  );

  private createClient(settings: ConnectionSettings, token: string, onRequest?: (e: RequestEvent) => void): EoClient {
    const version = (this.context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
    // The first client loads the API layer (dist/client.js): activation never does.
    const { EoClient } = loadApi();
    return new EoClient({
      baseUrl: settings.baseUrl,
      token,
      authScheme: settings.authScheme,
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
      userAgent: `eo-imagery-vscode/${version} (VS Code ${vscode.version})`,
      onRequest: onRequest ?? ((e) => this.logRequest(e, settings.baseUrl, settings.authScheme)),
      onUnreadable: (e) => this.log.warn(describeUnreadable(e)),
      otherHosts: this.otherHosts,
    });
  }

  private logRequest(e: RequestEvent, baseUrl: string, authScheme: ConnectionSettings['authScheme']): void {
    const line = loadApi().describeRequest(e);
    if (!e.error && e.status !== undefined && e.status < 400) this.log.info(line);
    else this.log.warn(line);
    this.requested.fire({ ...e, line, baseUrl, authScheme });
  }

  /**
   * Runs `fn` with a client of its own on the current connection and returns the requests it
   * made: what "Copy as curl" on a record row writes out is exactly the read the client sends.
   */
  async captureRequests(fn: (client: EoClient) => Promise<unknown>): Promise<LoggedRequest[]> {
    const settings = this.settings;
    if (!settings.baseUrl) throw new NotSignedInError('noBaseUrl');
    const token = await this.token();
    if (!token) throw new NotSignedInError('noToken');
    const seen: LoggedRequest[] = [];
    const client = this.createClient(settings, token, (e) =>
      seen.push({ ...e, line: loadApi().describeRequest(e), baseUrl: settings.baseUrl, authScheme: settings.authScheme }),
    );
    try {
      await fn(client);
    } catch (err) {
      // A request that failed is still the request: the caller decides what to say.
      if (seen.length === 0) throw err;
    } finally {
      void client.close();
    }
    return seen;
  }

  private dropClient(): void {
    const c = this.current;
    this.current = undefined;
    if (c) void c.client.close();
  }

  private countSession(key: string): void {
    if (key === this.sessionKey) return;
    this.sessionKey = key;
    this._session++;
  }

  private setState(state: ConnectionState, error: string | undefined): void {
    // Another sign-in is news even when the state reads the same ('connected' again).
    const changed = state !== this._state || error !== this._lastError || this._session !== this.announced;
    this._state = state;
    this._lastError = error;
    void vscode.commands.executeCommand('setContext', 'eoImagery.signedIn', state !== 'signedOut');
    void vscode.commands.executeCommand('setContext', 'eoImagery.connectionState', state);
    if (changed) this.fire();
  }

  private fire(): void {
    this.announced = this._session;
    this.changed.fire();
  }
}

/** One cheap authenticated read: the first page of projects, one record. */
async function verifyToken(client: EoClient): Promise<void> {
  await client.projects.listPage({ pageNum: 1, pageSize: 1 });
}

/**
 * The service has no "who am I" call; the user id it stamps on the caller's orders is the
 * closest it tells. Best effort: an account without orders (or a failure) leaves it unknown.
 */
async function serviceUser(client: EoClient): Promise<string | undefined> {
  try {
    const page = await client.orders.listPage({ limit: 1 });
    const id = page.items[0]?.user_id;
    return typeof id === 'string' && id ? id : undefined;
  } catch {
    return undefined;
  }
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The base URL's host name as privateTargets.ts compares names (no brackets, lower case). */
function serviceHostname(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return undefined;
  }
}

function settingsKey(s: ConnectionSettings): string {
  return `${s.baseUrl}|${s.authScheme}|${s.timeoutMs}|${s.maxResponseBytes}|`;
}

function fingerprint(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

/**
 * The log line of a listing that left records out: each record by id (or place) with the
 * field that did not fit, so the service's owners can find it. The view says how many.
 */
export function describeUnreadable(e: UnreadableEvent): string {
  const shown = e.records.slice(0, 20).map((r) => `${r.id ? `${r.id} (${r.at})` : r.at}: ${r.reason}`);
  const more = e.records.length > shown.length ? `; and ${e.records.length - shown.length} more` : '';
  const n = e.records.length === 1 ? '1 record' : `${e.records.length} records`;
  return `${e.method} ${e.path}: ${n} could not be read and ${e.records.length === 1 ? 'was' : 'were'} left out: ${shown.join('; ')}${more}`;
}

/** The modal that asks before the extension reads from a host on this computer or network. */
async function askPrivateTarget(host: string, kind: PrivateKind): Promise<boolean> {
  const allow = l10n.t('Allow {0}', host);
  const where =
    kind === 'loopback'
      ? l10n.t('{0} is on this computer.', host)
      : kind === 'link-local'
        ? l10n.t('{0} is a link-local address (such as a cloud metadata service).', host)
        : l10n.t('{0} is on your local network.', host);
  // The modal of a layer below the prompt seam: its text made safe here, as the seam would.
  const choice = await vscode.window.showWarningMessage(
    safeText(l10n.t('The service points to a file on {0}. Read from it?', host), 'notification'),
    {
      modal: true,
      detail: safeText(
        l10n.t(
          '{0} A service can use links like this to reach devices and servers that are not on the internet. Allow it only if you expect files there. You are asked once per host until the window reloads.',
          where,
        ),
        'lines',
      ),
    },
    allow,
  );
  return choice === allow;
}
