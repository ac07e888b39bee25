// Shared by the ordering, catalog, store and report suites: scripted prompts with hooks, the
// sandbox's own handle (clock, faults, state), and waiting on a running command while the
// sandbox clock is advanced.
import * as vscode from 'vscode';
import type * as vscodeTypes from 'vscode';
import type { EoClient } from '../../../src/api';
import type { SandboxHandle } from '../../../src/sandbox';
import { runScripted } from '../support/run';
import { ScriptedPrompts, type Step } from '../support/scriptedPrompts';
import type { SandboxConnection } from '../harness/sandbox';

export type { Step };
export { runScripted };

/** ScriptedPrompts that can run a hook when a message is shown (e.g. add a fault at Confirm). */
export class HookedPrompts extends ScriptedPrompts {
  /** Called with each modal message's text and each quick pick's title before it is answered. */
  onMessage?: (text: string) => void;

  override pick<T extends vscodeTypes.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options: vscodeTypes.QuickPickOptions,
  ): Promise<T | undefined> {
    if (options.title) this.onMessage?.(options.title);
    return super.pick(items, options);
  }

  override message(
    severity: 'info' | 'warning' | 'error',
    text: string,
    options: vscodeTypes.MessageOptions,
    ...buttons: string[]
  ): Promise<string | undefined> {
    this.onMessage?.(text);
    return super.message(severity, text, options, ...buttons);
  }
}

export function handle(conn: SandboxConnection): SandboxHandle {
  return conn.sandbox as unknown as SandboxHandle;
}

export async function client(conn: SandboxConnection): Promise<EoClient> {
  return conn.api.services.connection.getClient();
}

/**
 * Starts `command`, then keeps advancing the sandbox clock by `stepMs` every `everyMs` of wall
 * time until the command finishes: how tests watch orders, deliveries and downloads reach
 * their final status without waiting for real minutes.
 */
export async function runWhileAdvancing<T>(
  conn: SandboxConnection,
  prompts: ScriptedPrompts,
  command: string,
  args: unknown[],
  stepMs: number,
  everyMs = 200,
): Promise<T> {
  const restore = conn.api.testing.usePrompts(prompts);
  const timer = setInterval(() => handle(conn).clock.advance(stepMs), everyMs);
  try {
    return (await vscode.commands.executeCommand(command, ...args)) as T;
  } finally {
    clearInterval(timer);
    restore();
  }
}

/** Stored (non-dry-run) orders of the sandbox: one per successful POST /v0/orders. */
export function storedOrderCount(conn: SandboxConnection): number {
  return handle(conn).state.orders.length;
}

export const firstItem = (items: readonly vscodeTypes.QuickPickItem[]): vscodeTypes.QuickPickItem | undefined => items[0];
