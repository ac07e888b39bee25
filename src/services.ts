import type * as vscode from 'vscode';
import type { EoAuthenticationProvider } from './auth/authProvider';
import type { Connection } from './auth/connection';
import type { ExplorerApi } from './explorer';
import type { PanelsApi } from './panels/probe';
import type { Prompts } from './ui/prompts';

/**
 * What every command, view and panel receives: built once in `activate()`, so that modules
 * never reach for globals and tests can swap the prompt seam.
 */
export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /** The service connection: settings, token, client, state. */
  readonly connection: Connection;
  /** Every quick pick, input box and modal goes through here (tests script it). */
  readonly ui: Prompts;
  /**
   * The sidebar: `refresh(view?)`, `reveal(kind, id)` after creating a record, `selected()`,
   * and the providers (for tests). Set by `registerExplorer` during activation.
   */
  explorer?: ExplorerApi;
  /** The Accounts menu's provider: sign-in and sign-out go through it. Set in `activate()`. */
  accounts?: EoAuthenticationProvider;
  /** The map and STAC item panels, for integration tests. Set by `registerMapCommands`. */
  panels?: PanelsApi;
}
