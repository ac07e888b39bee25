import type * as vscode from 'vscode';
import type { EoAuthenticationProvider } from './auth/authProvider';
import type { Connection } from './auth/connection';
import type { Prompts } from './ui/prompts';

/**
 * What every view, panel and command receives: built first in `activate()`, so that modules
 * never reach for globals and tests can swap the prompt seam. The sidebar and the panels are
 * built on top of these and handed to the commands with them (`CommandServices`).
 */
export interface ExtensionServices {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /** The service connection: settings, token, client, state. */
  readonly connection: Connection;
  /** Every quick pick, input box and modal goes through here (tests script it). */
  readonly ui: Prompts;
  /** The Accounts menu's provider: Sign In and Sign Out go through it. Set in `activate()`. */
  accounts?: EoAuthenticationProvider;
}
