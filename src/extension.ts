import * as vscode from 'vscode';
import { Connection } from './auth/connection';
import { createConnectionStatusBar } from './auth/statusBar';
import { registerConnectionCommands } from './commands/connection';
import { registerIndexCommands } from './commands/indices';
import { registerInsights } from './commands/insights';
import { registerMapCommands } from './commands/map';
import { registerOrderingCommands } from './commands/orders/register';
import { registerExplorer } from './explorer';
import type { ExtensionServices } from './services';
import { PromptSeam, type Prompts } from './ui/prompts';

/** What `activate()` returns: integration tests reach the extension's seams through it. */
export interface EoImageryApi {
  readonly services: ExtensionServices;
  readonly testing: {
    /** Answers every prompt from `prompts` until the returned function is called. */
    usePrompts(prompts: Prompts): () => void;
  };
}

/**
 * Builds the services and registers everything. No network call happens here: the first
 * call is made when a view asks for data or the person runs a command.
 */
export function activate(context: vscode.ExtensionContext): EoImageryApi {
  const log = vscode.window.createOutputChannel('EO Imagery', { log: true });
  const connection = new Connection(context, log);
  const ui = new PromptSeam();
  const services: ExtensionServices = { context, log, connection, ui };

  context.subscriptions.push(
    log,
    connection,
    createConnectionStatusBar(connection),
    ...registerConnectionCommands(services),
    registerExplorer(services),
    ...registerInsights(services),
    ...registerIndexCommands(services),
    ...registerOrderingCommands(services),
    ...registerMapCommands(services),
  );
  void connection.refreshState();

  return { services, testing: { usePrompts: (p) => ui.use(p) } };
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
