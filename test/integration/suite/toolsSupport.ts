// Shared by the chat tool suites: invoke a tool the way chat does (vscode.lm.invokeTool, no
// model needed), read its text, and watch the requests the extension sends.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LoggedRequest } from '../../../src/auth/connection';
import type { SandboxConnection } from '../harness/sandbox';

/** Invokes tool `name` with `input` and returns the text of its result. */
export async function invokeTool(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** Records every request the extension sends while a suite runs. */
export function recordRequests(env: { readonly current: SandboxConnection }): { since(mark: number): LoggedRequest[]; mark(): number } {
  const requests: LoggedRequest[] = [];
  let sub: vscode.Disposable | undefined;
  suiteSetup(() => {
    sub = env.current.api.services.connection.onDidRequest((e) => requests.push(e));
  });
  suiteTeardown(() => sub?.dispose());
  return { since: (mark) => requests.slice(mark), mark: () => requests.length };
}

/** The rows of an answer (lines starting with "- "). */
export function rowsOf(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('- '));
}

/** Nothing secret in a tool's answer: no token, no signed or file link. */
export function assertNoSecrets(text: string, conn: SandboxConnection): void {
  assert.ok(!text.includes(conn.sandbox.tokens.alice), 'the token is in the answer');
  assert.ok(!/[?&](sig|signature|token|X-Amz-Signature|se)=/i.test(text), 'a signed URL is in the answer');
}
