// What integration suites share to drive commands: run one with a script of prompts installed,
// give each test of a suite a fresh script, and name files of the test workspace.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EoImageryApi } from '../../../src/extension';
import { ScriptedPrompts, type Step } from './scriptedPrompts';

/** Anything that holds the extension's test API (a `SandboxConnection`, or `{ api }`). */
export interface WithApi {
  readonly api: EoImageryApi;
}

/** Runs `command` with `prompts` installed; restores the window prompts, resolves with what the command returned. */
export async function runScripted<T>(conn: WithApi, prompts: ScriptedPrompts, command: string, ...args: unknown[]): Promise<T> {
  const restore = conn.api.testing.usePrompts(prompts);
  try {
    return (await vscode.commands.executeCommand(command, ...args)) as T;
  } finally {
    restore();
  }
}

/**
 * For a suite whose tests install a script and then run commands themselves: `script(...steps)`
 * installs a fresh `ScriptedPrompts` (the previous one removed) and returns it; `prompts` is the
 * last one. Each test's teardown puts the window prompts back.
 */
export function scriptedSuite(env: { readonly current: WithApi }): { script(...steps: Step[]): ScriptedPrompts; readonly prompts: ScriptedPrompts } {
  let restore: (() => void) | undefined;
  let last = new ScriptedPrompts();
  teardown(() => {
    restore?.();
    restore = undefined;
  });
  return {
    script(...steps: Step[]): ScriptedPrompts {
      restore?.();
      last = new ScriptedPrompts(steps);
      restore = env.current.api.testing.usePrompts(last);
      return last;
    },
    get prompts(): ScriptedPrompts {
      return last;
    },
  };
}

/** A file of the integration workspace's folder. */
export function workspaceUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration workspace has no folder');
  return vscode.Uri.joinPath(folder.uri, name);
}

/** Deletes `uri` if it is there. */
export async function remove(uri: vscode.Uri): Promise<void> {
  await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
}
