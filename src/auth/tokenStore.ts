import type * as vscode from 'vscode';

/** The environment variable honoured for headless use (CI, `npm start`). */
export const TOKEN_ENV = 'EO_API_TOKEN';

/**
 * Tokens live only in SecretStorage, one per base URL, so switching between a staging and a
 * production service keeps each sign-in. Nothing here ever logs or returns a token to a
 * caller other than the connection that sends it.
 */
export class TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

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

  store(baseUrl: string, token: string): Thenable<void> {
    return this.secrets.store(this.key(baseUrl), token);
  }

  delete(baseUrl: string): Thenable<void> {
    return this.secrets.delete(this.key(baseUrl));
  }
}
