import * as path from 'node:path';
import vscode = require('vscode');
import { l10n } from 'vscode';
import type { ExtensionServices } from '../../services';
import { followSandbox } from '../../ui/amounts';
import { withProgress } from '../../ui/progress';

interface SandboxModule {
  startSandbox(opts: { port: number }): Promise<{
    url: string;
    tokens: { alice: string; bob: string };
    close(): Promise<void>;
  }>;
}

/** The loopback port Try the Sandbox asks for first: beside `npm run sandbox`'s 8787, so both can run. */
export const TRY_SANDBOX_PORT = 8788;

/**
 * Starts the bundled sandbox in this extension host, on loopback port 8788 (another when it is taken), and connects to
 * it as its first user. Nothing is written to settings: closing the window ends the sandbox.
 * The sandbox bundle is loaded only here, so activation stays small.
 */
export async function trySandbox(services: ExtensionServices): Promise<void> {
  const { connection, context, ui } = services;
  const session = await withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Starting the EO Imagery sandbox…') }, async () => {
    const modulePath = path.join(context.extensionPath, 'dist', 'sandbox.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(modulePath) as SandboxModule;
    // The same port each time when it is free: the addresses the sandbox hands out (an asset's
    // stac_url in an insight file, a saved view's imagery) still answer in the next session.
    return mod.startSandbox({ port: TRY_SANDBOX_PORT }).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      return mod.startSandbox({ port: 0 });
    });
  });
  await connection.useSandbox({ url: session.url, token: session.tokens.alice, close: () => session.close() });
  // the sandbox's prices are in credits for as long as it is the service
  followSandbox(() => connection.isSandbox);
  void ui.message('info', l10n.t('The sandbox is running at {0} with seeded demo data. Sign out to stop it.', session.url), {});
}
