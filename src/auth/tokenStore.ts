import type * as vscode from 'vscode';

/** The environment variable honoured for headless use (CI, `npm start`). */
export const TOKEN_ENV = 'EO_API_TOKEN';

/** A base URL with a stored token, and the service user the token belongs to when known. */
export interface StoredAccount {
  baseUrl: string;
  /** The user id the service reported for this token (e.g. a project's `created_by`). */
  user?: string;
}

const INDEX_KEY = 'eoImagery.accounts';

/**
 * Tokens live only in SecretStorage, one per base URL, so switching between a staging and a
 * production service keeps each sign-in. SecretStorage cannot list its keys, so the base URLs
 * that have a token (never the tokens) are indexed in global state: the Accounts menu lists
 * them. Nothing here ever logs or returns a token to a caller other than the connection that
 * sends it and the authentication provider that hands it to VS Code.
 */
export class TokenStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly index?: vscode.Memento,
  ) {}

  private key(baseUrl: string): string {
    return `eoImagery.token:${baseUrl}`;
  }

  /** The stored token, else the environment's; `source` tells the status bar which. */
  async get(baseUrl: string): Promise<{ token: string; source: 'secret' | 'env' } | undefined> {
    const stored = await this.secrets.get(this.key(baseUrl));
    if (stored) return { token: stored, source: 'secret' };
    const env = process.env[TOKEN_ENV]?.trim();
    return env ? { token: env, source: 'env' } : undefined;
  }

  /** Only the stored token (no environment fallback). */
  async stored(baseUrl: string): Promise<string | undefined> {
    return (await this.secrets.get(this.key(baseUrl))) || undefined;
  }

  async store(baseUrl: string, token: string, user?: string): Promise<void> {
    await this.secrets.store(this.key(baseUrl), token);
    const rest = this.accounts().filter((a) => a.baseUrl !== baseUrl);
    await this.index?.update(INDEX_KEY, [...rest, user ? { baseUrl, user } : { baseUrl }]);
  }

  async delete(baseUrl: string): Promise<void> {
    await this.secrets.delete(this.key(baseUrl));
    await this.index?.update(
      INDEX_KEY,
      this.accounts().filter((a) => a.baseUrl !== baseUrl),
    );
  }

  /** Base URLs that were signed in to, oldest first (their tokens may since have been removed). */
  accounts(): StoredAccount[] {
    const raw = this.index?.get<unknown>(INDEX_KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (a): a is StoredAccount =>
        typeof a === 'object' &&
        a !== null &&
        typeof (a as StoredAccount).baseUrl === 'string' &&
        ((a as StoredAccount).user === undefined || typeof (a as StoredAccount).user === 'string'),
    );
  }
}
