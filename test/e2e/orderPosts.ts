// For e2e probes (extension host): the POST /v0/orders a signed-in connection sends, by their
// dry_run flag, so a test can tell "the dry run and nothing else" from a placed order.
import type * as vscode from 'vscode';
import type { LoggedRequest } from '../../src/auth/connection';

export interface OrderPosts extends vscode.Disposable {
  /** The dry_run flag of each POST since the last call (true: a dry run). */
  take(): boolean[];
}

export function watchOrderPosts(connection: { onDidRequest: vscode.Event<LoggedRequest> }): OrderPosts {
  let posts: boolean[] = [];
  const sub = connection.onDidRequest((e) => {
    if (e.method === 'POST' && e.path.startsWith('/v0/orders')) posts.push((e.requestBody as { dry_run?: boolean } | undefined)?.dry_run === true);
  });
  return {
    take: () => {
      const taken = posts;
      posts = [];
      return taken;
    },
    dispose: () => sub.dispose(),
  };
}
