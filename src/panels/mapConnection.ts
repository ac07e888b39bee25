/**
 * The map says when no service is connected (signed out, or the sandbox stopped): the page
 * shows a banner with Sign In and Try the Sandbox, dims what it loaded before and turns the
 * search off, so it never looks live when it is not; signed in again, it looks live again. Its
 * own listener on the webview: it answers each `ready` (a reloaded page asks again) and the
 * banner's buttons (`connect`), nothing else.
 */
import vscode = require('vscode');
import type { Connection } from '../auth/connection';
import { runCommand } from '../ui/runCommand';
import type { FromMapMessage, ToMapMessage } from './protocol';

export function followConnection(connection: Connection, webview: vscode.Webview, post: (m: ToMapMessage) => void): vscode.Disposable {
  const send = () => post({ type: 'connection', connected: connection.state !== 'signedOut', configured: !!connection.baseUrl });
  send();
  return vscode.Disposable.from(
    connection.onDidChange(send),
    webview.onDidReceiveMessage((m: FromMapMessage) => {
      if (m?.type === 'ready') send();
      else if (m?.type === 'connect') void runCommand(m.how === 'trySandbox' ? 'trySandbox' : 'signIn');
    }),
  );
}
