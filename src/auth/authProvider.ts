import vscode = require('vscode');
import { l10n } from 'vscode';
import { hostOf, type Connection } from './connection';
import { TOKEN_ENV } from './tokenStore';

/** The provider id VS Code knows us by (`vscode.authentication.getSession(AUTH_PROVIDER_ID, …)`). */
export const AUTH_PROVIDER_ID = 'eoImagery';
export const AUTH_PROVIDER_LABEL = 'EO Imagery';

/** Thrown by `createSession` when the person closes the sign-in prompts. */
export class SignInCancelled extends Error {
  constructor() {
    super(l10n.t('Sign-in to EO Imagery was cancelled.'));
    this.name = 'SignInCancelled';
  }
}

/** What the provider asks the sign-in prompts: the base URL signed in to, or undefined. */
export type SignInFlow = () => Promise<string | undefined>;

const SANDBOX_ID = 'sandbox';
const urlSession = (baseUrl: string): string => `url:${baseUrl}`;
const envSession = (baseUrl: string): string => `env:${baseUrl}`;

/**
 * The Accounts menu's view of the connection. Each base URL with a token in SecretStorage is
 * one account (service host, and the service user where it told us); a token that only comes
 * from EO_API_TOKEN and the running sandbox are accounts too, so the menu matches the status
 * bar. Signing out from the menu removes that URL's token; signing in from the menu runs the
 * same prompts as the "Sign In" command, which goes through `createSession` as well.
 */
export class EoAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  private known = new Map<string, vscode.AuthenticationSession>();
  private readonly disposables: vscode.Disposable[] = [];
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly connection: Connection,
    private readonly signInFlow: SignInFlow,
    private readonly say: (text: string) => void,
  ) {
    // The first sync reads the connection settings (the extension host's first configuration
    // read, a millisecond or more): after activate() returns, in a task of its own. As a promise
    // callback it would run before VS Code hears that activation is done, and delay whatever
    // waited for it (the command or view that activated us). VS Code asks getSessions() itself.
    const first = setTimeout(() => void this.sync(), 0);
    this.disposables.push(
      this.changed,
      connection.onDidChange(() => void this.sync()),
      { dispose: () => clearTimeout(first) },
    );
  }

  async getSessions(_scopes?: readonly string[], options?: vscode.AuthenticationProviderSessionOptions): Promise<vscode.AuthenticationSession[]> {
    const all = await this.current();
    return options?.account ? all.filter((s) => s.account.id === options.account?.id) : all;
  }

  async createSession(_scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const baseUrl = await this.signInFlow();
    if (!baseUrl) throw new SignInCancelled();
    await this.sync();
    const session = this.known.get(urlSession(baseUrl));
    if (!session) throw new Error(l10n.t('The token for {0} was not stored.', hostOf(baseUrl)));
    return session;
  }

  async removeSession(sessionId: string): Promise<void> {
    const { connection } = this;
    if (sessionId === SANDBOX_ID) {
      if (connection.isSandbox) await connection.signOut();
    } else if (sessionId.startsWith('url:')) {
      const baseUrl = sessionId.slice(4);
      await connection.tokens.delete(baseUrl);
      if (!connection.isSandbox && connection.baseUrl === baseUrl) await connection.signOut();
    } else if (sessionId.startsWith('env:')) {
      // The variable belongs to the environment VS Code was started from: say how to end it.
      this.say(
        l10n.t(
          'The token for {0} comes from the {1} environment variable. Unset it and restart the editor to sign out.',
          hostOf(sessionId.slice(4)),
          TOKEN_ENV,
        ),
      );
      return;
    }
    await this.sync();
  }

  /** The session of the connection in use, if any (what Sign Out removes). */
  async activeSessionId(): Promise<string | undefined> {
    const { connection } = this;
    if (connection.isSandbox) return SANDBOX_ID;
    const baseUrl = connection.baseUrl;
    if (!baseUrl) return undefined;
    if (await connection.tokens.stored(baseUrl)) return urlSession(baseUrl);
    return process.env[TOKEN_ENV]?.trim() ? envSession(baseUrl) : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /** Works out the sessions again and tells VS Code what was added, removed or changed. */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(
      async () => {
        const next = new Map((await this.current()).map((s) => [s.id, s]));
        const added = [...next.values()].filter((s) => !this.known.has(s.id));
        const removed = [...this.known.values()].filter((s) => !next.has(s.id));
        const changed = [...next.values()].filter((s) => {
          const before = this.known.get(s.id);
          return before && (before.accessToken !== s.accessToken || before.account.label !== s.account.label);
        });
        this.known = next;
        if (added.length || removed.length || changed.length) this.changed.fire({ added, removed, changed });
      },
      () => undefined,
    );
    return this.syncing;
  }

  private async current(): Promise<vscode.AuthenticationSession[]> {
    const { connection } = this;
    const sessions: vscode.AuthenticationSession[] = [];
    for (const account of connection.tokens.accounts()) {
      const token = await connection.tokens.stored(account.baseUrl);
      if (!token) continue;
      const host = hostOf(account.baseUrl);
      sessions.push(session(urlSession(account.baseUrl), token, account.baseUrl, account.user ? l10n.t('{0} on {1}', account.user, host) : host));
    }
    const baseUrl = connection.isSandbox ? '' : connection.baseUrl;
    const env = process.env[TOKEN_ENV]?.trim();
    if (baseUrl && env && !sessions.some((s) => s.id === urlSession(baseUrl))) {
      sessions.push(session(envSession(baseUrl), env, `${baseUrl} (${TOKEN_ENV})`, l10n.t('{0} (from {1})', hostOf(baseUrl), TOKEN_ENV)));
    }
    const sandbox = connection.sandboxSession;
    if (sandbox) {
      sessions.push(session(SANDBOX_ID, sandbox.token, sandbox.url, l10n.t('Local sandbox ({0})', hostOf(sandbox.url))));
    }
    return sessions;
  }
}

function session(id: string, accessToken: string, accountId: string, label: string): vscode.AuthenticationSession {
  return { id, accessToken, account: { id: accountId, label }, scopes: [] };
}

/** Registers the provider with VS Code; `supportsMultipleAccounts`: one account per base URL. */
export function registerAuthProvider(provider: EoAuthenticationProvider): vscode.Disposable {
  return vscode.Disposable.from(
    provider,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, {
      supportsMultipleAccounts: true,
    }),
  );
}
