// Integration suites run the service sandbox in the extension host's own process (one loopback
// port per suite) and point the extension at it: settings `eoImagery.baseUrl` plus a token
// signed in through the extension's real sign-in path (checked by one call, then stored in
// SecretStorage). `disconnect()` undoes both so suites do not leak state into each other.
import * as vscode from 'vscode';
import type { EoImageryApi } from '../../../src/extension';
import { startSandbox as startSandboxInProcess, type SandboxHandle, type SandboxOptions } from '../../../src/sandbox';

export const EXTENSION_ID = 'eo-imagery.eo-imagery';

/** The running sandbox: url, tokens, clock, faults, state, close(). */
export type Sandbox = SandboxHandle;

/** Starts the sandbox in this process (compiled to out/src/sandbox) on a free loopback port. */
export function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandboxInProcess({ ...options, port: 0 });
}

/** Activates the extension (if needed) and returns the API object `activate()` returned. */
export async function extensionApi(): Promise<EoImageryApi> {
  const ext = vscode.extensions.getExtension<EoImageryApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const api = ext.isActive ? ext.exports : await ext.activate();
  if (!api || !api.testing) throw new Error('the extension did not return its test API from activate()');
  return api;
}

export interface SandboxConnection {
  sandbox: Sandbox;
  api: EoImageryApi;
  /** Signs out, clears the base URL setting. Does not close the sandbox. */
  disconnect(): Promise<void>;
}

/**
 * Points the extension at `sandbox` as `user` (default alice): sets `eoImagery.baseUrl`
 * (global settings) and signs in with that user's token through the extension's own sign-in.
 */
export async function connectToSandbox(sandbox: Sandbox, user: 'alice' | 'bob' = 'alice'): Promise<SandboxConnection> {
  const api = await extensionApi();
  await setBaseUrl(sandbox.url);
  await api.services.connection.signIn(sandbox.tokens[user], sandbox.url);
  return {
    sandbox,
    api,
    disconnect: async () => {
      await api.services.connection.signOut();
      await setBaseUrl(undefined);
    },
  };
}

/**
 * `update()` resolves when the settings file is written, but the extension host sees the new
 * value a moment later: wait for it, so that no view loads against the previous URL.
 */
async function setBaseUrl(url: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('eoImagery').update('baseUrl', url, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 10_000;
  const want = url ?? '';
  while (vscode.workspace.getConfiguration('eoImagery').get<string>('baseUrl', '') !== want) {
    if (Date.now() > deadline) throw new Error(`eoImagery.baseUrl did not become "${want}" within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * For a suite: starts a sandbox and connects the extension before the suite's tests, and
 * undoes both after. Call inside `suite()`; read `.current` in tests.
 */
export function useSandbox(options: SandboxOptions & { user?: 'alice' | 'bob' } = {}): { readonly current: SandboxConnection } {
  let connection: SandboxConnection | undefined;
  suiteSetup(async function () {
    // A larger --scale takes longer to seed.
    this.timeout(60_000);
    const { user: _user, ...sandboxOptions } = options;
    const sandbox = await startSandbox(sandboxOptions);
    try {
      connection = await connectToSandbox(sandbox, options.user);
    } catch (err) {
      await sandbox.close();
      throw err;
    }
  });
  suiteTeardown(async function () {
    this.timeout(30_000);
    if (!connection) return;
    await connection.disconnect().catch(() => undefined);
    await connection.sandbox.close();
    connection = undefined;
  });
  return {
    get current(): SandboxConnection {
      if (!connection) throw new Error('the sandbox is not running (suiteSetup failed or has not run)');
      return connection;
    },
  };
}
