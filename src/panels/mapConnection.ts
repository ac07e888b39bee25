/**
 * The map says when no service is connected (signed out, or the sandbox stopped): the page
 * shows a banner with Sign In and Try the Sandbox, dims what it loaded before and turns the
 * search off, so it never looks live when it is not; signed in again, it looks live again.
 * The panel sends the state with each `ready` (a reloaded page asks again) and handles the
 * banner's buttons (`connect`); this follows the connection in between.
 */
import type * as vscode from 'vscode';
import type { Connection } from '../auth/connection';
import type { ToMapMessage } from './mapMessages';

/** The connection's state as the map shows it; `configured`: a service URL is set (none after the sandbox stops). */
export function connectionMessage(connection: Connection): ToMapMessage {
  return { type: 'connection', connected: connection.state !== 'signedOut', configured: !!connection.baseUrl };
}

/** Posts the state whenever the connection changes. */
export function followConnection(connection: Connection, post: (m: ToMapMessage) => void): vscode.Disposable {
  return connection.onDidChange(() => post(connectionMessage(connection)));
}
